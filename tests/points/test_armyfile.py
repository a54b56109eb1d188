"""The muster-army/1 file (SPEC 4): every problem is an ArmyFileError naming its field."""

from __future__ import annotations

import contextlib
import json
import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

import points
from points.errors import ArmyFileError
from tests.points.strategies import army_file

SWORDSMAN = {"type": "skirmisher", "base": "25mm", "off": 4, "def": 4}


def gem_army(*profiles: dict, **top: object) -> dict:
    units = [{"name": f"Unit {i}", "quantity": 1, "profile": p} for i, p in enumerate(profiles)]
    return {"format": "muster-army/1", "name": "Army", "system": "gem", "units": units} | top


def vsgmr_army(*profiles: dict, **top: object) -> dict:
    army = gem_army(*profiles, **top)
    return army | {"system": "vsgmr"} | top


def with_unit(army: dict, **change: object) -> dict:
    return army | {"units": [army["units"][0] | change]}


TROOP = {"kind": "guy", "flavor": "troop"}
BOW = {"off": 4, "range": 24}

BAD: dict[str, tuple[object, str]] = {
    "missile-range-zero": (
        gem_army(SWORDSMAN, SWORDSMAN, SWORDSMAN | {"missile": [BOW | {"range": 0}]}),
        "units[2].profile.missile[0].range: must be greater than 0",
    ),
    "unknown-trait": (
        vsgmr_army(TROOP | {"traits": ["tough", "flyng"]}),
        'units[0].profile.traits[1]: unknown trait "flyng"',
    ),
    "quantity-zero": (
        with_unit(gem_army(SWORDSMAN), quantity=0),
        "units[0].quantity: must be a whole number of at least 1",
    ),
    "quantity-text": (
        with_unit(gem_army(SWORDSMAN), quantity="3"),
        "units[0].quantity: must be a whole number of at least 1",
    ),
    "quantity-fraction": (
        with_unit(gem_army(SWORDSMAN), quantity=1.5),
        "units[0].quantity: must be a whole number of at least 1",
    ),
    "quantity-bool": (
        with_unit(gem_army(SWORDSMAN), quantity=True),
        "units[0].quantity: must be a whole number of at least 1",
    ),
    "quantity-huge": (
        with_unit(gem_army(SWORDSMAN), quantity=10**10000),
        "units[0].quantity: must be at most 1000",
    ),
    "unknown-system": (
        gem_army(SWORDSMAN, system="warhammer"),
        "system: must be one of gem, vsgmr, goms, d10",
    ),
    "system-not-text": (
        gem_army(SWORDSMAN, system=["gem"]),
        "system: must be one of gem, vsgmr, goms, d10",
    ),
    "unknown-profile-field": (
        gem_army(SWORDSMAN | {"colour": "red"}),
        "units[0].profile.colour: unknown field",
    ),
    "unknown-top-field": (gem_army(SWORDSMAN, colour="red"), "colour: unknown field"),
    "unknown-unit-field": (with_unit(gem_army(SWORDSMAN), cost=5), "units[0].cost: unknown field"),
    "wrong-format": (
        gem_army(SWORDSMAN, format="muster-army/2"),
        'format: must be "muster-army/1"',
    ),
    "no-name": ({"system": "gem", "units": []}, "name: required"),
    "blank-name": (gem_army(name="   "), "name: must not be empty"),
    "long-name": (gem_army(name="x" * 201), "name: must be at most 200 characters"),
    "name-with-newline": (gem_army(name="Two\nlines"), "name: must be one line of printable text"),
    "no-units": ({"name": "A", "system": "gem"}, "units: required"),
    "units-not-list": (gem_army(units={"a": 1}), "units: must be a list"),
    "unit-not-object": (gem_army(units=[["Swordsman"]]), "units[0]: must be an object"),
    "no-profile": (gem_army(units=[{"name": "X"}]), "units[0].profile: required"),
    "profile-not-object": (
        gem_army(units=[{"name": "X", "profile": 4}]),
        "units[0].profile: must be an object",
    ),
    "no-unit-name": (gem_army(units=[{"profile": SWORDSMAN}]), "units[0].name: required"),
    "options-for-gem": (
        gem_army(SWORDSMAN, options={"rerolls": 1}),
        "options.rerolls: unknown field",
    ),
    "negative-limit": (
        gem_army(SWORDSMAN, points_limit=-1),
        "points_limit: must be between 0 and 1000000",
    ),
    "limit-text": (gem_army(SWORDSMAN, points_limit="30"), "points_limit: must be a number"),
    "limit-nan": (
        gem_army(SWORDSMAN, points_limit=math.nan),
        "points_limit: must be a finite number",
    ),
    "limit-inf": (
        gem_army(SWORDSMAN, points_limit=math.inf),
        "points_limit: must be a finite number",
    ),
    "limit-huge": (
        gem_army(SWORDSMAN, points_limit=10**10000),
        "points_limit: must be between 0 and 1000000",
    ),
    "off-out-of-range": (
        gem_army(SWORDSMAN | {"off": 11}),
        "units[0].profile.off: must be between 1 and 10",
    ),
    "off-nan": (
        gem_army(SWORDSMAN | {"off": math.nan}),
        "units[0].profile.off: must be a finite number",
    ),
    "off-huge": (
        gem_army(SWORDSMAN | {"off": 10**10000}),
        "units[0].profile.off: must be at most 1000",
    ),
    "off-list": (
        gem_army(SWORDSMAN | {"off": [4]}),
        "units[0].profile.off: must be a number or a dice expression such as 2d6+8",
    ),
    "dice-bomb": (
        gem_army(SWORDSMAN | {"mov": "1000d1000+1000d1000+1000d1000"}),
        "units[0].profile.mov: must roll 1 to 100 dice in each term",
    ),
    "dice-too-long": (
        gem_army(SWORDSMAN | {"mov": "d6+" * 30 + "1"}),
        "units[0].profile.mov: must be at most 64 characters",
    ),
    "deep-nesting": (
        gem_army(SWORDSMAN | {"missile": [[[[[[[[[[[[[[[BOW]]]]]]]]]]]]]]]}),
        "units[0].profile.missile[0]: must be an object",
    ),
    "non-text-key": (gem_army(SWORDSMAN | {1: 2}), "units[0].profile: field names must be text"),
    "not-an-object": (["an", "army"], "an army file must be a JSON object"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_file_names_the_field(case: str):
    data, expected = BAD[case]

    with pytest.raises(ArmyFileError) as caught:
        points.load(data)

    assert str(caught.value) == expected


def test_error_keeps_path_and_message_apart():
    with pytest.raises(ArmyFileError) as caught:
        points.load(gem_army(SWORDSMAN | {"off": 11}))

    assert caught.value.path == "units[0].profile.off"
    assert caught.value.message == "must be between 1 and 10"


def test_unknown_field_shows_a_control_free_name():
    with pytest.raises(ArmyFileError) as caught:
        points.load(gem_army(SWORDSMAN | {"co\nlour": 1}))

    assert str(caught.value) == "units[0].profile.co?lour: unknown field"


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ('{"format": "muster-army/1", "units": [', "not valid JSON: "),
        ("", "not valid JSON: "),
        ("[" * 100_000 + "]" * 100_000, "not valid JSON: "),
        ('{"name": "A", "system": "gem", "units": [], "points_limit": NaN}', "not valid JSON: NaN"),
        ('{"points_limit": ' + "9" * 5000 + "}", "not valid JSON: a number is too long"),
    ],
    ids=["truncated", "empty", "deep", "nan", "long-number"],
)
def test_text_that_is_not_json_is_an_army_file_error(text: str, start: str):
    with pytest.raises(ArmyFileError) as caught:
        points.loads(text)

    assert str(caught.value).startswith(start)
    assert caught.value.path == ""


def test_missing_format_is_read_as_the_current_one():
    army = points.load({"name": "A", "system": "gem", "units": []})

    assert points.dump(army)["format"] == "muster-army/1"


def test_defaults_are_filled_in():
    army = points.load(
        {"name": "A", "system": "gem", "units": [{"name": "S", "profile": SWORDSMAN}]}
    )

    assert army.units[0].quantity == 1
    assert army.points_limit is None
    assert army.units[0].profile.mag.value == 2


def test_points_limit_is_exact():
    army = points.load(gem_army(SWORDSMAN, points_limit=12.5))

    assert army.points_limit == Fraction(25, 2)


def test_dump_keeps_number_spellings_and_dice_as_typed():
    data = gem_army(SWORDSMAN | {"off": "4", "def": 4.0, "mov": "d6 + 2"}, points_limit=30)
    data["options"] = {}

    assert points.dump(points.load(data)) == data


def test_json_text_round_trips():
    text = json.dumps(gem_army(SWORDSMAN, points_limit=30))

    army = points.loads(text)

    assert points.loads(points.dumps(army)) == army


@pytest.mark.parametrize("system", ["gem", "vsgmr", "goms", "d10"])
@given(data=st.data())
def test_dump_then_load_gives_back_the_same_army(system: str, data):
    army = points.load(data.draw(army_file(system)))

    assert points.load(points.dump(army)) == army
    assert points.loads(json.dumps(points.dump(army))) == army
    assert points.dump(points.load(points.dump(army))) == points.dump(army)


_junk = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=10)
    | st.sampled_from(["gem", "vsgmr", "2d6+8", "muster-army/1", "guy", "vehicle", "huge"]),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(["name", "system", "units", "profile", "type", "kind", "off", "x"])
            | st.text(max_size=5),
            inner,
            max_size=5,
        )
    ),
    max_leaves=20,
)


@given(_junk)
def test_junk_is_refused_only_with_army_file_error(junk: object):
    with contextlib.suppress(ArmyFileError):
        points.load(junk)


@st.composite
def _army_with_one_value_spoilt(draw: st.DrawFn) -> object:
    """A valid army with one value somewhere inside it replaced by junk."""
    data = draw(army_file())
    holders: list[tuple[object, object]] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            holders.extend((node, key) for key in node)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            holders.extend((node, i) for i in range(len(node)))
            for value in node:
                walk(value)

    walk(data)
    holder, key = draw(st.sampled_from(holders))
    holder[key] = draw(_junk)  # type: ignore[index]
    return data


@given(_army_with_one_value_spoilt())
def test_spoilt_army_is_priced_or_refused_with_army_file_error(data: object):
    try:
        army = points.load(data)
    except ArmyFileError as e:
        assert "\n" not in str(e)
    else:
        points.price_army(army).to_json()


def test_a_bad_unit_is_refused_with_the_path_of_its_field():
    bad = SWORDSMAN | {"off": 14}
    for army in (gem_army(bad), gem_army(SWORDSMAN, bad)):
        with pytest.raises(ArmyFileError) as raised:
            points.load(army)
        assert raised.value.path == f"units[{len(army['units']) - 1}].profile.off"
