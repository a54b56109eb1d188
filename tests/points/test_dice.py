"""Dice expressions and numbers (SPEC 3.1): a stat is priced at its exact average."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from points.dice import average
from points.errors import ArmyFileError


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        # The SPEC's own examples: 2d6+8 -> 2*(6+1)/2 + 8 = 15; d3+2 -> 2 + 2 = 4;
        # 2D4 + 4 -> 2*(4+1)/2 + 4 = 9.
        ("2d6+8", Fraction(15)),
        ("d3+2", Fraction(4)),
        ("2D4 + 4", Fraction(9)),
        # 1d6 averages 7/2; minus 1 is 5/2.
        ("1d6-1", Fraction(5, 2)),
        # 3d6 - d4 + 2: 21/2 - 5/2 + 2 = 10.
        ("3d6 - d4 + 2", Fraction(10)),
        (4, Fraction(4)),
        (2.5, Fraction(5, 2)),
        ("2.5", Fraction(5, 2)),
        ("-3", Fraction(-3)),
        (0.1, Fraction(1, 10)),  # the decimal typed, not the nearest binary float
    ],
)
def test_stat_is_priced_at_its_exact_average(raw: object, expected: Fraction):
    assert average(raw, "units[0].profile.mov") == expected


def test_largest_allowed_dice_expression_is_read():
    # 100 dice of 1000 sides average 100 * 1001 / 2 = 50050; plus the largest number, 1000.
    assert average("100d1000+1000", "x") == Fraction(51050)


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("2d", "must be a number or a dice expression such as 2d6+8"),
        ("", "must be a number or a dice expression such as 2d6+8"),
        ("2d6+", "must be a number or a dice expression such as 2d6+8"),
        ("2d6 8", "must be a number or a dice expression such as 2d6+8"),
        ("d6++1", "must be a number or a dice expression such as 2d6+8"),
        ("1e5", "must be a number or a dice expression such as 2d6+8"),
        ("two dice", "must be a number or a dice expression such as 2d6+8"),
        ("101d6", "must roll 1 to 100 dice in each term"),
        ("0d6", "must roll 1 to 100 dice in each term"),
        ("1000d1000+5", "must roll 1 to 100 dice in each term"),
        ("2d1", "dice must have 2 to 1000 sides"),
        ("d1001", "dice must have 2 to 1000 sides"),
        ("d6+1001", "numbers in a dice expression must be at most 1000"),
        ("1001", "must be at most 1000"),
        (1001, "must be at most 1000"),
        pytest.param(10**10000, "must be at most 1000", id="10**10000"),
        ("d6+" + "1+" * 40 + "1", "must be at most 64 characters"),
        (float("nan"), "must be a finite number"),
        (float("inf"), "must be a finite number"),
        (True, "must be a number"),
        (None, "must be a number"),
    ],
)
def test_bad_stat_names_the_field(raw: object, message: str):
    with pytest.raises(ArmyFileError) as caught:
        average(raw, "units[0].profile.mov")  # type: ignore[arg-type]

    assert str(caught.value) == f"units[0].profile.mov: {message}"
    assert caught.value.path == "units[0].profile.mov"
    assert caught.value.message == message


# A small dice expression: signed terms, each either NdM (N <= 3, M <= 6) or a number.
_term = st.one_of(
    st.tuples(st.integers(1, 3), st.integers(2, 6)),
    st.integers(0, 20),
)


def _text(terms: list[tuple[int, object]]) -> str:
    parts = []
    for i, (sign, term) in enumerate(terms):
        body = f"{term[0]}d{term[1]}" if isinstance(term, tuple) else str(term)
        parts.append(body if i == 0 else ("+" if sign > 0 else "-") + body)
    return " ".join(parts)


def _mean_over_all_outcomes(terms: list[tuple[int, object]]) -> Fraction:
    """Roll every die every possible way and average the totals: no formula involved."""
    dice = [(sign, term) for sign, term in terms if isinstance(term, tuple)]
    fixed = sum(sign * term for sign, term in terms if not isinstance(term, tuple))
    faces = [range(1, sides + 1) for sign, (count, sides) in dice for _ in range(count)]
    signs = [sign for sign, (count, _) in dice for _ in range(count)]
    totals = [
        sum(s * f for s, f in zip(signs, roll, strict=True)) for roll in itertools.product(*faces)
    ]
    return Fraction(sum(totals), len(totals)) + fixed


@given(
    st.lists(st.tuples(st.sampled_from([1, -1]), _term), min_size=1, max_size=3).filter(
        # at most 3 dice in all keeps the enumeration small
        lambda ts: sum(t[0] for _, t in ts if isinstance(t, tuple)) <= 3
    )
)
def test_average_equals_the_mean_over_all_outcomes(terms):
    terms = [(1, terms[0][1]), *terms[1:]]  # the first term has no sign
    assert average(_text(terms), "x") == _mean_over_all_outcomes(terms)


_any_term = st.one_of(
    st.tuples(
        st.sampled_from(["", "1", "3", "100"]), st.sampled_from(["d", "D"]), st.integers(2, 1000)
    ),
    st.integers(0, 1000).map(str),
    st.sampled_from(["2.5", "0.25", ".5", "999.999"]),
)


def _term_value(term: object) -> Fraction:
    if isinstance(term, tuple):
        count, _, sides = term
        return int(count or "1") * Fraction(sides + 1, 2)
    return Fraction(term)


@given(
    _any_term,
    st.lists(st.tuples(st.sampled_from("+-"), _any_term), max_size=6),
    st.sampled_from(["", " ", "  "]),
)
def test_any_well_formed_expression_averages_the_sum_of_its_terms(first, rest, space):
    def written(term: object) -> str:
        return "".join(map(str, term)) if isinstance(term, tuple) else term

    text = written(first) + "".join(f"{space}{sign}{space}{written(t)}" for sign, t in rest)
    assume(len(text) <= 64)
    expected = _term_value(first) + sum(
        (_term_value(t) if sign == "+" else -_term_value(t) for sign, t in rest), Fraction(0)
    )
    assert average(text, "x") == expected


@given(st.text(alphabet="d0123456789+-. D", max_size=30))
def test_any_text_is_read_or_refused_with_a_message_naming_the_field(text):
    try:
        average(text, "units[0].profile.mov")
    except ArmyFileError as e:
        assert str(e).startswith("units[0].profile.mov: ")
