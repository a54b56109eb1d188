"""G.O.M.S. buying forces (SPEC 3.4): 1 point per section or vehicle, HQ allowances, options."""

from __future__ import annotations

from fractions import Fraction

import pytest

import points
from points import goms
from points.errors import ArmyFileError


def rifles(quantity: int) -> dict:
    return {"name": "Rifles", "quantity": quantity, "profile": {"kind": "rifle-section"}}


def hq(kind: str, quantity: int = 1) -> dict:
    return {"name": kind, "quantity": quantity, "profile": {"kind": kind}}


def army(*units: dict, options: dict | None = None, limit: int | None = None):
    data: dict = {"name": "Kompanie", "system": "goms", "units": list(units)}
    if options is not None:
        data["options"] = options
    if limit is not None:
        data["points_limit"] = limit
    return points.price_army(points.load(data))


def codes(issues) -> list[tuple[str, int | None]]:
    return [(i.code, i.unit) for i in issues]


def test_game_sizes():
    assert goms.GAME_SIZES == {"small": 5, "medium": 12, "large": 30}


def test_morale_grades():
    assert goms.MORALE == {
        "unwilling-conscript": 6,
        "trained": 7,
        "veteran": 8,
        "seasoned-veteran": 9,
        "elite": 10,
    }


def test_every_section_and_vehicle_costs_one_point():
    tank = {
        "name": "Panzer IV",
        "quantity": 2,
        "profile": {"kind": "vehicle", "vehicle_class": "medium"},
    }
    engineers = hq("engineer-section")

    # 4 rifle sections + 1 engineer section + 2 vehicles = 7.
    result = army(rifles(4), engineers, tank)

    assert [u.cost for u in result.units] == [4, 1, 2]
    assert result.total == 7


def test_options_cost_a_point_each():
    # 3 rerolls + 2 set-up extensions + dug in = 6, plus 1 section = 7.
    result = army(rifles(1), options={"rerolls": 3, "setup_extensions": 2, "dug_in": True})

    assert [(x.label, x.value) for x in result.option_lines] == [
        ("Rerolls: 3", 3),
        ('Set-up zone +16"', 2),
        ("Dug in", 1),
    ]
    assert result.total == 7
    assert result.to_json()["options"][2] == {
        "label": "Dug in",
        "value": 1,
        "note": "the force starts the game dug in",
    }


def test_platoon_hq_allowed_per_four_rifle_sections():
    assert army(rifles(4), hq("platoon-hq")).legal


def test_platoon_hq_without_a_full_platoon_is_an_error():
    result = army(rifles(3), hq("platoon-hq"))

    assert codes(result.errors) == [("platoon-hq-not-allowed", 1)]


def test_second_platoon_hq_needs_eight_rifle_sections():
    assert codes(army(rifles(7), hq("platoon-hq", 2)).errors) == [("platoon-hq-not-allowed", 1)]
    assert army(rifles(8), hq("platoon-hq", 2)).legal


def test_company_hq_allowed_per_three_platoons():
    # 12 rifle sections = 3 platoons -> 1 company HQ.
    assert army(rifles(12), hq("company-hq")).legal


def test_company_hq_with_two_platoons_is_an_error():
    result = army(rifles(8), hq("platoon-hq", 2), hq("company-hq"))

    assert codes(result.errors) == [("company-hq-not-allowed", 2)]


def test_allowances_are_reported():
    extras = army(rifles(13), options={"setup_extensions": 1}).extras

    # 13 sections = 3 platoons (one section over), 3 platoon HQs, 1 company HQ allowed.
    assert extras["allowances"] == {
        "rifle_sections": 13,
        "platoons": 3,
        "platoon_hqs": 3,
        "company_hqs": 1,
        "setup_zone_inches": 8,
    }
    assert extras["game_size"] == "large"  # 13 + 1 = 14 points: over medium's 12


def test_more_than_three_setup_extensions_is_an_error():
    result = army(rifles(1), options={"setup_extensions": 4})

    assert codes(result.errors) == [("setup-zone-max", None)]


def test_three_setup_extensions_reach_24_inches():
    result = army(rifles(1), options={"setup_extensions": 3})

    assert result.legal
    assert result.extras["allowances"]["setup_zone_inches"] == 24


def test_over_the_game_size_is_over_limit():
    result = army(rifles(6), limit=goms.GAME_SIZES["small"])

    assert codes(result.errors) == [("over-limit", None)]


def test_officers_and_ncos_are_free():
    labels = [
        (x.label, x.value)
        for x in goms.price(goms.parse_profile({"kind": "platoon-hq"}, "p")).lines
    ]

    assert labels == [("Platoon HQ section", 1), ("Platoon officer and NCO", 0)]


def test_section_defaults_to_ten_trained_men():
    p = goms.parse_profile({"kind": "rifle-section"}, "p")

    assert (p.men, p.morale, p.morale_value) == (10, "trained", 7)


@pytest.mark.parametrize(
    ("profile", "path", "message"),
    [
        ({"kind": "vehicle"}, "p.vehicle_class", "required"),
        (
            {"kind": "vehicle", "vehicle_class": "super-heavy"},
            "p.vehicle_class",
            "must be one of soft-skin, light, medium, heavy",
        ),
        (
            {"kind": "vehicle", "vehicle_class": "light", "morale": "elite"},
            "p.morale",
            "vehicles have no morale",
        ),
        (
            {"kind": "rifle-section", "vehicle_class": "light"},
            "p.vehicle_class",
            "only vehicles have a vehicle class",
        ),
        (
            {"kind": "rifle-section", "morale": "brave"},
            "p.morale",
            "must be one of unwilling-conscript, trained, veteran, seasoned-veteran, elite",
        ),
        ({"kind": "rifle-section", "men": 0}, "p.men", "must be a whole number of at least 1"),
        (
            {"kind": "platoon"},
            "p.kind",
            "must be one of rifle-section, platoon-hq, company-hq, engineer-section, vehicle",
        ),
    ],
)
def test_bad_profile_names_the_field(profile: dict, path: str, message: str):
    with pytest.raises(ArmyFileError) as caught:
        goms.parse_profile(profile, "p")

    assert str(caught.value) == f"{path}: {message}"


@pytest.mark.parametrize(
    ("options", "path", "message"),
    [
        ({"rerolls": -1}, "options.rerolls", "must be a whole number of at least 0"),
        ({"dug_in": 1}, "options.dug_in", "must be true or false"),
        ({"artillery": 1}, "options.artillery", "unknown field"),
    ],
)
def test_bad_options_name_the_field(options: dict, path: str, message: str):
    with pytest.raises(ArmyFileError) as caught:
        army(rifles(1), options=options)

    assert str(caught.value) == f"{path}: {message}"


def test_acquisition_roll_is_the_same_for_the_same_seed():
    loaded = points.load(
        {
            "name": "K",
            "system": "goms",
            "units": [
                rifles(2),
                hq("vehicle") | {"profile": {"kind": "vehicle", "vehicle_class": "heavy"}},
            ],
        }
    )

    rows = [(goms.acquisition_row(u.profile), u.quantity) for u in loaded.units]
    first = goms.acquisition_dice(rows, seed=42)
    assert first == goms.acquisition_dice(rows, seed=42)
    assert [(r.unit, r.copy) for r in first] == [(0, 0), (0, 1), (1, 0)]  # 1d6 each
    for r in first:
        row = "infantry" if r.unit == 0 else "heavy"
        assert r.result == goms.ACQUISITION[row][r.die - 1]


def test_acquisition_table_reads_as_the_seed():
    # Heavy armour: 1-2 doesn't show, 3 arrives on a 6+, 6 starts on table.
    assert goms.ACQUISITION["heavy"][0:3] == ("Doesn't show", "Doesn't show", "Arrives on a 6+")
    assert goms.ACQUISITION["infantry"][5] == "Full strength"
    assert (
        goms.acquisition_row(goms.parse_profile({"kind": "engineer-section"}, "p")) == "specialists"
    )


def test_total_is_exact():
    assert army(rifles(2)).total == Fraction(2)
