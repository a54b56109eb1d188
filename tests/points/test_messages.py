"""The engine's words (points.messages): message ids with values that read as today's English,
kept exact when stored, and every id one a catalog can collect."""

from __future__ import annotations

import ast
import copy
import re
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import points
from points import fights, gem, goms, vsgmr
from points.errors import ArmyFileError
from points.messages import Text, gettext_noop, text_data, text_from_data
from points.model import Line, line_data, line_from_data
from tests.samples import SPEC_TANK, sample_army

pytestmark = pytest.mark.engine

ENGINE = Path(points.__file__).parent
# A python-format placeholder, as xgettext and msgfmt --check read it: %(name)s.
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def english(lines) -> list[tuple[str, str]]:
    return [(str(line.label), str(line.note)) for line in lines]


def test_a_gem_tanks_breakdown_reads_as_it_always_has():
    """SPEC 3.2's tank, line by line as the breakdown has always printed it."""
    lines = gem.price(gem.parse_profile(SPEC_TANK, "p")).lines
    assert english(lines) == [
        ("D = DEF×HIT", "9 × 6"),
        ("Speed", "2d6+8 (average 15) max speed / 2 × 6 HIT"),
        (
            "Missile: Cannon",
            "9 OFF × 1 ATT × 48″ range × (2 radius + 1/2) ÷ 8 (every other turn) × 9/10 "
            "(heavy); counted: fires with the rest",
        ),
        ("Missile: MG", "5 OFF × 3 ATT × 24″ range ÷ 4 (every turn); counted: fires with the rest"),
        ("O = offence", "speed + every missile weapon"),
        ("B = base value", "1.3 × D + O + O × D / 12 + capacity / 9 (capacity 4)"),
        ("Morale", "1 + MOR / 50 (MOR 0)"),
        ("Base size", "huge"),
        ("Type", "vehicle"),
        ("Magic", "(MAG + 18) / 20 (MAG 2)"),
        ("Move", "(MOV + 16) / 20 (MOV 12)"),
        ("V = value", "B × morale × base × type × magic × move"),
        ("Points per model", "V rounded half-up to 0.1"),
    ]
    # The id keeps the seed's terms and leaves the numbers to the values.
    speed = lines[1].note
    assert speed.id == "%(max_speed)s max speed / 2 × %(hit)s HIT"
    assert speed.params["max_speed"].id == "%(typed)s (average %(value)s)"


def test_a_vsgmr_heros_purchases_keep_the_seeds_names_as_values():
    profile = vsgmr.parse_profile(
        {
            "kind": "guy",
            "flavor": "hero",
            "commander": True,
            "traits": ["tough", {"name": "Weapon Master", "cost": 2, "text": "Re-roll 1s"}],
            "super_powers": {"super-armor": "major", "super-move": "minor"},
        },
        "p",
    )
    lines = vsgmr.price(profile).lines
    assert english(lines) == [
        ("Hero", "commander"),
        ("Heavy armour (free for hero commander)", ""),
        ("Trait: Tough", ""),
        ("Trait: Weapon Master", "homebrew: Re-roll 1s"),
        ("Super-Armor (major)", "d10 for armour rolls"),
        ("Super-Move (minor)", "+½ move unit, +1 initiative"),
    ]
    trait = lines[2].label
    assert (trait.id, dict(trait.params)) == ("Trait: %(trait)s", {"trait": "Tough"})


def test_a_goms_hq_names_its_teams_and_grade_as_the_seed_does():
    lines = goms.price(goms.parse_profile({"kind": "platoon-hq", "morale": "veteran"}, "p")).lines
    assert english(lines) == [
        (
            "Platoon HQ section",
            "sniper team, light mortar and team, MMG, AT team, 4 riflemen; veteran (morale 8)",
        ),
        ("Platoon officer and NCO", "always free"),
    ]


def test_an_over_limit_error_carries_its_numbers_as_values():
    file = sample_army("vsgmr", "dwarves") | {"points_limit": 25.5}  # the seed prices it at 28
    priced = points.price_army(points.load(file))
    [over] = [e for e in priced.errors if e.code == "over-limit"]
    assert over.message == "The army costs 28 points, 2.5 over its limit of 25.5."
    assert over.message.params == {
        "total": Fraction(28),
        "over": Fraction(5, 2),
        "limit": Fraction(51, 2),
    }


def test_a_file_error_names_its_field_and_says_its_bound_as_a_value():
    with pytest.raises(ArmyFileError) as caught:
        points.load_unit("A", 1, {"type": "block", "base": "20mm", "off": 11, "def": 1}, "gem")
    assert str(caught.value) == "profile.off: must be between 1 and 10"
    assert caught.value.message.id == "must be between %(low)s and %(high)s"


# ---------------------------------------------------------------- kept exact when stored

words = st.text(max_size=20)
numbers = st.one_of(
    st.integers(-(10**6), 10**6),
    st.fractions(max_denominator=10**6),
)
values = st.recursive(
    st.one_of(words, numbers),
    lambda inner: st.dictionaries(st.sampled_from("abc"), inner, max_size=3).map(
        lambda params: Text(" ".join(f"%({k})s" for k in params) or "plain", **params)
    ),
    max_leaves=6,
)


@given(st.dictionaries(st.sampled_from(["name", "n", "x"]), values, max_size=3))
def test_a_text_stored_and_read_back_is_the_same_text(params):
    """Whatever a value is (a player's "1/2" or "=x" is a word, not a number), it reads back
    as what it was: the same id, the same values, the same English."""
    said = Text(" ".join(f"%({k})s" for k in params) or "no values", **params)
    back = text_from_data(text_data(said))
    assert (back.id, back.params, str(back)) == (said.id, said.params, str(said))
    assert all(type(back.params[k]) is type(v) for k, v in said.params.items())
    # A copy (copy and pickle both go through __reduce__) is the id, not its English.
    copied = copy.deepcopy(said)
    assert (copied.id, copied.params) == (said.id, said.params)


def test_a_line_stored_before_ids_existed_reads_as_its_english():
    """Rows priced before this change hold plain English: they read back as it, unchanged."""
    old = line_from_data(["Trait: Tough", "2/1", ""])
    assert (old.label, old.value, old.note) == ("Trait: Tough", Fraction(2), "")
    old_words = line_from_data(["OFF", "=not priced", "OFF 3 is for rams"])
    assert (old_words.value, old_words.note) == ("not priced", "OFF 3 is for rams")


def test_a_worded_line_value_with_values_survives_storing():
    line = Line(Text("Rerolls: %(n)s", n=2), Text("%(n)s free", n=Fraction(1, 2)), "")
    back = line_from_data(line_data(line))
    assert back.value.params == {"n": Fraction(1, 2)} and back.value == "0.5 free"
    assert back.label.params == {"n": 2} and back.label == "Rerolls: 2"


def test_a_players_percent_sign_is_a_word_not_a_placeholder():
    said = Text(gettext_noop("%(name)s is a guy"), name="100%(x)s pure")
    assert said == "100%(x)s pure is a guy"


# ---------------------------------------------------------------- every id can be collected


def _noop_ids() -> dict[str, list[str]]:
    """What makemessages (xgettext --keyword=gettext_noop) collects from points/: each
    gettext_noop call's one string, which must be a literal (implicitly joined or not)."""
    found: dict[str, list[str]] = {}
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "gettext_noop":
                [arg] = node.args
                assert isinstance(arg, ast.Constant) and isinstance(arg.value, str), (
                    f"{path.name}:{node.lineno}: gettext_noop needs a literal string"
                )
                found.setdefault(arg.value, []).append(f"{path.name}:{node.lineno}")
    return found


def _ids(text: object) -> set[str]:
    if not isinstance(text, Text):
        return set()
    return {text.id}.union(*(_ids(v) for v in text.params.values()))


def _said_by_pricing() -> set[str]:
    """Every id the engine says while pricing the shipped sample armies and the tank."""
    said: set[str] = set()
    samples = sorted((ENGINE.parent / "rules" / "samples").rglob("*.json"))
    files = [sample_army(p.parent.name, p.stem) for p in samples]
    files.append(
        {
            "name": "Tanks",
            "system": "gem",
            "points_limit": 1,
            "units": [{"name": "T", "quantity": 2, "profile": SPEC_TANK | {"off": 3}}],
        }
    )
    for file in files:
        priced = points.price_army(points.load(file))
        for unit in priced.units:
            for line in unit.priced.lines:
                said |= _ids(line.label) | _ids(line.value) | _ids(line.note)
        for line in priced.option_lines:
            said |= _ids(line.label) | _ids(line.note)
        for issue in (*priced.errors, *priced.warnings):
            said |= _ids(issue.message)
    return said


def _said_by_fights() -> set[str]:
    """Every id the working of a few fights says: a duel at distance in cover, a charging
    GEM melee, and a d10 close fight and exchange of shots with weapons."""
    guy = {"kind": "guy", "flavor": "hero", "distance_attack": True, "automatic_fire": True}
    tank = {"kind": "vehicle", "armor": "heavy", "traits": ["tough", "stealth", "summon"]}
    gem_unit = {"type": "block", "base": "20mm", "off": 4, "def": 4, "melee": [{"off": 3}]}
    gunner = {"weapons": ["LMG", "Carbine/AR", "Shotgun", "Laser"], "leader": True}
    requests = [
        {"system": "vsgmr", "a": {"profile": guy}, "b": {"profile": tank}, "fight": "distance"},
        {
            "system": "gem",
            "a": {"quantity": 3, "profile": gem_unit},
            "b": {"profile": gem_unit | {"hit": 2}},
            "modifiers": {"a": ["charged", "rank-deeper", "rank-deeper"]},
        },
        {"system": "d10", "a": {"profile": gunner}, "b": {"profile": {}}, "first": "either"},
        {
            "system": "d10",
            "a": {"profile": gunner},
            "b": {"profile": {"weapons": ["Shotgun"]}},
            "fight": "distance",
            "modifiers": {"a": ["long-range"]},
            "first": "a",
        },
    ]
    said: set[str] = set()
    for raw in requests:
        f = fights.compute(fights.read_request(raw))
        for text in (*f.working(), *f.not_in_these_odds):
            said |= _ids(text)
        for x in f.attacks:
            said |= _ids(x.name) | _ids(x.cell)
            for m in x.modifiers:
                said |= _ids(m)
    return said


def test_every_id_the_engine_says_is_one_a_catalog_collects():
    collected = _noop_ids()
    said = _said_by_pricing()
    assert len(said) > 40  # the samples reach every system's breakdown
    assert said <= set(collected), sorted(said - set(collected))
    fought = _said_by_fights()
    assert len(fought) > 30
    assert fought <= set(collected), sorted(fought - set(collected))


def test_every_id_is_a_python_format_sentence_msgfmt_can_check():
    """Placeholders are only %(name)s, so msgfmt --check holds a translation to the same
    names; a literal percent sign is %% in an id with values, and none is in one without."""
    for message, where in _noop_ids().items():
        rest = PLACEHOLDER.sub("", message)
        if rest != message:
            rest = rest.replace("%%", "")
        assert "%" not in rest, f"{where}: {message!r}"


def test_a_text_cannot_be_changed_once_said():
    said = Text(gettext_noop("Trait: %(trait)s"), trait="Tough")
    with pytest.raises(AttributeError):
        said.id = "Trait: %(trait)s!"  # type: ignore[misc]
    assert repr(said) == "Text('Trait: %(trait)s', trait='Tough')"
