"""Sample armies: every file is listed, loads with the engine, is legal and round-trips.
The VSGMR ones price to the seed's printed totals: tests/points/test_vsgmr_samples.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import points
from points import goms
from rules import catalog
from rules.models import SampleArmy

pytestmark = pytest.mark.databases

SAMPLES = Path(catalog.__file__).resolve().parent / "samples"
FILES = sorted(SAMPLES.glob("*/*.json"))


def load(path: Path) -> points.model.Army:
    return points.load(json.loads(path.read_text(encoding="utf-8")))


def figures(army) -> int:
    return sum(unit.quantity for unit in army.units)


def test_every_listed_sample_has_a_file_and_every_file_is_listed():
    listed = sorted(sample.path for sample in catalog.SAMPLES)
    assert listed == FILES
    assert len({sample.slug for sample in catalog.SAMPLES}) == len(catalog.SAMPLES)


def test_there_are_14_vsgmr_samples_and_a_starter_for_each_other_system():
    systems = [path.parent.name for path in FILES]
    assert systems.count("vsgmr") == 14
    for system in ("gem", "goms", "d10"):
        assert systems.count(system) >= 1


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_sample_loads_is_legal_and_round_trips(path: Path):
    raw = json.loads(path.read_text(encoding="utf-8"))
    army = points.load(raw)
    priced = points.price_army(army)

    assert army.system == path.parent.name
    assert priced.errors == ()
    assert priced.warnings == ()
    assert points.dump(army) == raw


def test_orcs_warlord_is_read_as_a_combat_master():
    warlord = load(SAMPLES / "vsgmr" / "orcs.json").units[0]
    assert warlord.name == "Warlord"
    assert warlord.profile.traits == ("combat-master",)


def test_gem_starter_has_a_leader_missile_troops_and_a_vehicle():
    army = load(SAMPLES / "gem" / "border-warband.json")
    types = {unit.profile.type for unit in army.units}
    assert {"leader", "vehicle"} <= types
    assert any(u.profile.missile for u in army.units if u.profile.type != "vehicle")
    assert points.price_army(army).total <= army.points_limit


def test_goms_starter_is_a_medium_game_platoon_with_its_hq():
    army = load(SAMPLES / "goms" / "rifle-platoon.json")
    priced = points.price_army(army)
    kinds = [u.profile.kind for u in army.units for _ in range(u.quantity)]
    assert kinds.count("rifle-section") == goms.PLATOON_SECTIONS
    assert kinds.count("platoon-hq") == 1
    assert priced.total == goms.GAME_SIZES["medium"] == army.points_limit


def test_d10_starter_is_a_six_model_squad_with_one_leader():
    army = load(SAMPLES / "d10" / "rifle-squad.json")
    assert figures(army) == 6
    assert sum(u.quantity for u in army.units if u.profile.leader) == 1


@pytest.mark.django_db
def test_migration_loaded_every_sample_army_as_its_file():
    rows = list(SampleArmy.objects.all())
    assert len(rows) == len(catalog.SAMPLES)
    for row in rows:
        sample = next(s for s in catalog.SAMPLES if s.slug == row.slug)
        assert row.system == sample.system
        assert row.army == sample.army()
        assert row.name == row.army["name"]
        assert row.blurb == sample.blurb
    assert SampleArmy.objects.for_system("vsgmr").count() == 14
    assert str(SampleArmy.objects.get(slug="orcs")) == "Orcs (VSGMR)"


@pytest.mark.django_db
def test_loading_samples_again_changes_nothing_and_unloading_removes_them():
    before = list(SampleArmy.objects.values_list("slug", "position"))
    catalog.load_samples(SampleArmy)
    assert list(SampleArmy.objects.values_list("slug", "position")) == before
    catalog.unload_samples(SampleArmy)
    assert not SampleArmy.objects.exists()
