"""The built-in catalog: complete, in step with the engine, and in our own words."""

from __future__ import annotations

import pytest

from points import d10, gem, goms, vsgmr
from rules import catalog
from rules.models import RuleEntry
from tests.rules import seed_fingerprints

pytestmark = [pytest.mark.django_db, pytest.mark.databases]


# SPEC 3.3, in the order the spec lists them.
TRAIT_SLUGS = [
    "area-effect-attack",
    "cause-fear",
    "combat-master",
    "disable",
    "double-strike",
    "flight",
    "ignores-armor",
    "independent",
    "inspiration",
    "recruit",
    "revenge",
    "sharpshooter",
    "sniper",
    "stealth",
    "summon",
    "support",
    "tough",
]


def slugs(system: str, kind: str) -> list[str]:
    return list(RuleEntry.objects.for_system(system).of_kind(kind).values_list("slug", flat=True))


def test_vsgmr_has_the_17_traits_of_the_spec():
    assert slugs("vsgmr", "trait") == TRAIT_SLUGS


def test_vsgmr_has_5_super_powers_each_with_three_tiers():
    powers = RuleEntry.objects.for_system("vsgmr").of_kind("super-power")
    assert [p.slug for p in powers] == [
        "super-armor",
        "super-blast",
        "super-fight",
        "super-move",
        "super-skill",
    ]
    assert vsgmr.SUPER_POWERS["super-skill"].guys_only is True


def test_rules_page_shows_what_each_super_power_tier_does(client):
    # Seed section VI: Super-Armor is an armour die of d8/d10/d12 by tier; Super-Move
    # adds half a move unit and +1 initiative (minor), up to +3 initiative (superior).
    html = client.get("/rules/vsgmr/").content.decode()
    for die in ("d8", "d10", "d12"):
        assert f"{die} for armour rolls" in html
    for bonus in ("+1 initiative", "+2 initiative", "+3 initiative"):
        assert bonus in html
    assert "d10 for extra movement" not in html


def test_vsgmr_has_the_six_scenarios_the_engine_prices():
    assert slugs("vsgmr", "scenario") == list(vsgmr.SCENARIOS)


@pytest.mark.parametrize(
    ("system", "kind", "expected"),
    [
        ("vsgmr", "unit-kind", ["troop", "hero", "mook", "cavalry", "vehicle"]),
        ("gem", "base-size", list(gem.BASES)),
        ("gem", "formation", list(gem.TYPES)),
        ("gem", "fire-rate", list(gem.FIRES)),
        ("gemini", "vehicle-class", list(gem.VEHICLE_CLASSES)),
        ("goms", "unit-kind", list(goms.KINDS)),
        ("goms", "vehicle-class", list(goms.VEHICLE_CLASSES)),
        ("goms", "morale-grade", list(goms.MORALE)),
        ("goms", "game-size", list(goms.GAME_SIZES)),
        ("d10", "armour-level", list(d10.ARMOUR_DEFENCE)),
        ("d10", "weapon", [w.slug for w in d10.WEAPONS]),
        ("d10", "weapon-trait", list(d10.WEAPON_TRAITS)),
    ],
)
def test_catalog_lists_exactly_what_the_engine_knows(system, kind, expected):
    assert slugs(system, kind) == expected


def test_gemini_has_the_seven_vehicle_classes_of_the_spec():
    assert slugs("gemini", "vehicle-class") == [
        "tracked",
        "wheeled",
        "skimmer",
        "flying-skimmer",
        "walker",
        "mechanoid",
        "bike",
    ]


def test_goms_weapon_table_has_8_small_arms_and_6_blast_weapons():
    weapons = RuleEntry.objects.for_system("goms").of_kind("weapon")
    groups = [w.data["group"] for w in weapons]
    assert groups.count("small-arms") == 8
    assert groups.count("area") == 6
    # Seed "Shooting with small arms": MG42  6  0-12 -1  12-60 +0  4+
    mg42 = weapons.get(slug="mg42").data
    assert (mg42["rof"], mg42["short_mod"], mg42["long"], mg42["wound"]) == (6, -1, [12, 60], 4)


def test_d10_weapon_traits_are_all_described():
    described = set(slugs("d10", "weapon-trait"))
    for weapon in d10.WEAPONS:
        assert set(weapon.trait_slugs) <= described, weapon.name


def test_interpretations_are_numbered_as_in_the_spec_then_the_fight_readings():
    rows = RuleEntry.objects.of_kind("interpretation").order_by("position")
    assert [r.data["number"] for r in rows] == list(range(1, 25))
    assert [r.system for r in rows][:8] == ["gem"] * 5 + ["vsgmr"] * 2 + ["goms"]
    # SPEC 3.6 (9-11) and 3.8 readings: six for the VSGMR duel, four for GEM melee, six for
    # d10.
    assert [r.system for r in rows][8:] == ["vsgmr"] * 6 + ["gem"] * 4 + ["d10"] * 6
    assert all(r.data["affects"] for r in rows)


# ---------------------------------------------------------------- GEM Table 1


# Table 1 lives in the engine alone (points.gem); the catalog entry only names it.
needed = gem.needed


@pytest.mark.parametrize(
    ("off", "def_", "score"),
    [
        # Each value read by hand from the seed's Table 1 (GEM section 2.2); rows are
        # OFF, columns DEF. The seed row is quoted beside it.
        (1, 1, 11),  # "1 11 16 18 19 19 19 20 20 20* 20*"
        (1, 10, 20),  # "1 11 16 18 19 19 19 20 20 20* 20*"
        (2, 3, 14),  # "2 6 11 14 16 17 18 18 19 19 19"
        (3, 2, 8),  # "3 4 8 11 13 15 16 17 17 18 18"
        (5, 8, 15),  # "5 3 5 7 9 11 13 14 15 15 16"
        (6, 5, 9),  # "6 3 4 6 8 9 11 12 13 14 15"
        (7, 6, 10),  # "7 2 4 5 7 8 10 11 12 13 14"
        (8, 4, 6),  # "8 2 3 5 6 7 9 10 11 12 13"
        (9, 1, 2),  # "9 2! 3 4 5 7 8 9 10 11 12"
        (10, 10, 11),  # "10 2! 3 4 5 6 7 8 9 10 11"
    ],
)
def test_table_1_holds_the_seeds_scores(off, def_, score):
    assert needed(off, def_) == score


def test_table_1_rows_are_offence_and_columns_defence():
    assert gem.TABLE_SIZE == 10
    assert len(gem.TABLE_1) == 10 and all(len(row) == 10 for row in gem.TABLE_1)
    # Seed: a weaker attack (OFF 1) against a strong defence (DEF 10) needs a 20.
    assert needed(1, 10) == 20 and needed(10, 1) == 2


def test_table_1_is_even_when_off_equals_def():
    for n in range(1, 11):
        assert needed(n, n) == 11


def test_table_1_keeps_the_seeds_marked_cells():
    assert set(gem.NATURAL_20_ONLY) == {(1, 9), (1, 10)}
    assert set(gem.NATURAL_1_ONLY_MISSES) == {(9, 1), (10, 1)}


def test_the_catalog_names_table_1_but_keeps_no_copy_of_it():
    entry = RuleEntry.objects.get(system="gem", kind="table", slug="table-1")
    assert entry.name.startswith("Table 1") and entry.data == {}


# ---------------------------------------------------------------- loading


def test_loading_the_catalog_again_changes_nothing():
    before = list(RuleEntry.objects.values_list("system", "kind", "slug", "name", "position"))
    catalog.load_catalog(RuleEntry)
    after = list(RuleEntry.objects.values_list("system", "kind", "slug", "name", "position"))
    assert after == before
    assert len(after) == len(catalog.CATALOG)


def test_loading_restores_an_edited_entry_and_unloading_removes_built_ins():
    RuleEntry.objects.filter(slug="tough").update(summary="changed")
    homebrew = RuleEntry.objects.create(system="vsgmr", kind="trait", slug="weapon-master")
    catalog.load_catalog(RuleEntry)
    assert RuleEntry.objects.get(slug="tough").summary != "changed"

    catalog.unload_catalog(RuleEntry)
    assert list(RuleEntry.objects.all()) == [homebrew]


def test_catalog_keys_are_unique():
    keys = [entry.key for entry in catalog.CATALOG]
    assert len(keys) == len(set(keys))


def test_str_names_the_system_and_kind():
    tough = RuleEntry.objects.get(system="vsgmr", kind="trait", slug="tough")
    assert str(tough) == "VSGMR trait: Tough"


# ---------------------------------------------------------------- our own words


def test_no_summary_repeats_seven_words_of_a_seed_in_a_row():
    # Compared with fingerprints of the seeds' 7-word runs (seed_fingerprints.py says
    # how they are made), so the check runs in a clone with no seeds beside it.
    seeds = seed_fingerprints.stored()
    texts = [e.summary for e in catalog.CATALOG] + [s.blurb for s in catalog.SAMPLES]
    copied = [t for t in texts if seed_fingerprints.fingerprints(t) & seeds]
    assert copied == []
