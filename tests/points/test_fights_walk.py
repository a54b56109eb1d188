"""The GEM melee walked in double precision (SPEC 3.8) against the exact one: the same walk
over the same states, so every chance agrees to far better than the bound it states."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from points import fights

AGREE = 1e-12  # the bar for the two paths on melees small enough for both


@st.composite
def melee_side(draw: st.DrawFn) -> dict:
    profile = {
        "type": "block",
        "base": "20mm",
        "off": draw(st.integers(1, 10)),
        "def": draw(st.integers(1, 10)),
        "hit": draw(st.integers(1, 3)),
        "att": draw(st.integers(0, 3)),
    }
    weapons = draw(st.integers(0, 2 if profile["att"] else 1))
    if weapons:
        profile["melee"] = [
            {"name": f"Blade {i}", "off": draw(st.integers(1, 10)), "att": draw(st.integers(1, 2))}
            for i in range(weapons)
        ]
    return {"name": "Side", "quantity": draw(st.integers(1, 5)), "profile": profile}


conditions = st.fixed_dictionaries(
    {
        "modifiers": st.fixed_dictionaries(
            {
                side: st.lists(
                    st.sampled_from(["charged", "rank-deeper", "higher-ground", "flank"]),
                    max_size=3,
                    unique=True,
                )
                for side in ("a", "b")
            }
        ),
        "frontage": st.fixed_dictionaries(
            {side: st.one_of(st.none(), st.integers(1, 4)) for side in ("a", "b")}
        ),
    }
)


# As many examples as the profile says (conftest.py): 30 in every run, 400 under
# HYPOTHESIS_PROFILE=thorough. 500 here cost 10 s of every run; the worked examples in
# tests/points/test_fights.py check the walk on melees too long for the exact path.
@given(melee_side(), melee_side(), conditions)
def test_the_walk_in_double_precision_agrees_with_the_exact_melee(a, b, more):
    request = fights.read_request({"system": "gem", "a": a, "b": b, **more})
    args = (request.a, request.b, request.modifiers, request.frontage)

    exact = fights.gem_melee(*args)
    walked = fights.gem_melee(*args, double=True)

    assert exact.exact and not walked.exact
    assert walked.error <= 1e-9
    for got, want in (
        (walked.a_wins, exact.a_wins),
        (walked.b_wins, exact.b_wins),
        (walked.draw, exact.draw),
        (walked.a_hit_lost, exact.a_hit_lost),
        (walked.b_hit_lost, exact.b_hit_lost),
    ):
        assert abs(got - want) <= AGREE
    assert len(walked.rounds) >= min(len(exact.rounds), 2)
    for w, e in zip(walked.rounds, exact.rounds, strict=False):
        for got, want in ((w.a_wins, e.a_wins), (w.b_wins, e.b_wins), (w.going, e.going)):
            assert abs(got - want) <= AGREE
    for got, want in zip(walked.a_left + walked.b_left, exact.a_left + exact.b_left, strict=True):
        assert abs(got - want) <= AGREE
