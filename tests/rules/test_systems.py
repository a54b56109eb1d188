"""Each game system is described once: in the engine (points/) and in one module of its own
beside the registry (rules/systems/<key>.py). A fifth system is its engine module, that
module and its templates; no other app module names a system, and no page changes for it."""

from __future__ import annotations

import importlib
import re
from dataclasses import replace
from pathlib import Path

import pytest
from django.template.loader import get_template
from django.test import Client
from django.urls import reverse

import points
from rules.layout import Layout
from rules.systems import DEFAULT_SYSTEM, SYSTEM_PAGES, system_of_kind
from tests.factories import ArmyFactory
from tests.rules import fifth_system

ROOT = Path(__file__).resolve().parents[2]
APPS = ("accounts", "armies", "config", "odds", "rules", "sharing", "table")

# Where a system's name may still be written, and why.
ALLOWED = {
    # The registry itself (rules/systems/, each system's module), and the engine's name for
    # each system (points/ is outside APPS).
    # The catalog's data: its entries and sample armies name their system; the model's
    # choices are the stored values (migrations copy them); the rules' worked examples and
    # GEM's weapon list read GEM's own sample armies.
    "rules/catalog.py",
    "rules/models.py",
    "rules/starters.py",
    # Each system's rules page context (its entry's `rules_context`): the worked examples
    # of the interpretations ask the engine for a fight of that system.
    "rules/pages.py",
    # Table 1 is GEM's own calculator page, as templates/rules/gem.html is its own page.
    "odds/table_1.py",
}
REGISTRY = "rules/systems/"
# Templates that are one system's own page, besides those named after their system.
ALLOWED_TEMPLATES = {"odds/table_1.html"}


def _named(text: str) -> list[str]:
    keys = "|".join(re.escape(key) for key in points.SYSTEMS)
    return re.findall(rf"[\"']({keys})[\"']", text)


def test_every_engine_system_has_one_registry_entry_and_no_entry_lacks_a_system():
    assert set(SYSTEM_PAGES) == set(points.SYSTEMS)
    assert all(page.key == key for key, page in SYSTEM_PAGES.items())
    assert DEFAULT_SYSTEM in points.SYSTEMS


@pytest.mark.parametrize("key", sorted(points.SYSTEMS))
def test_every_template_an_entry_names_exists(key):
    page = SYSTEM_PAGES[key]
    for name in (page.unit_profile, page.roster_card, page.blank_card, page.quick_reference):
        get_template(name)
    get_template(f"rules/{key}.html")  # its rules page


def test_each_system_is_one_module_of_its_own_beside_the_registry():
    modules = {path.stem for path in (ROOT / "rules" / "systems").glob("*.py")}
    assert modules - {"__init__", "entry"} == set(points.SYSTEMS)


@pytest.mark.parametrize("key", sorted(points.SYSTEMS))
def test_a_systems_module_provides_every_part_of_its_entry(key):
    module = importlib.import_module(f"rules.systems.{key}")
    page = SYSTEM_PAGES[key]
    assert module.ENTRY is page
    assert isinstance(page.layout, Layout)
    # Its own code is its module's (the roster panel may be the shared "none").
    for part in (page.unit_card, page.export_line, page.reference, page.blank_choices):
        assert part.__module__ == module.__name__
    assert page.table_card.__module__ == module.__name__
    assert page.roster_panel.__module__ in (module.__name__, "rules.cards")
    if page.odds_url:
        reverse(page.odds_url)


@pytest.mark.parametrize("key", sorted(points.SYSTEMS))
def test_an_entrys_new_unit_and_ready_made_units_price_in_its_system(key):
    page = SYSTEM_PAGES[key]
    for name, profile in [("New unit", page.default_profile)] + [
        (start.name, start.profile) for start in page.starts()
    ]:
        unit = points.load_unit(name, 1, dict(profile), key)
        assert not points.price_unit(key, unit).errors, name


def test_each_kind_of_library_part_belongs_to_one_system():
    kinds = [kind for page in SYSTEM_PAGES.values() for kind in page.library_kinds]
    assert len(kinds) == len(set(kinds))
    assert all(system_of_kind(kind) in points.SYSTEMS for kind in kinds)
    assert system_of_kind("figure") is None


def test_no_app_module_names_a_system_outside_the_registry_and_the_catalog():
    found = {}
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if "/migrations/" in relative or relative.startswith(REGISTRY) or relative in ALLOWED:
                continue
            if named := _named(path.read_text(encoding="utf-8")):
                found[relative] = named
    assert found == {}


def test_no_template_branches_on_a_system_but_its_own():
    own = re.compile(rf"(^|[/_])({'|'.join(map(re.escape, points.SYSTEMS))})([_.])")
    found = {}
    for path in sorted((ROOT / "templates").rglob("*.html")):
        relative = path.relative_to(ROOT / "templates").as_posix()
        if own.search(relative) or relative in ALLOWED_TEMPLATES:
            continue
        if named := _named(path.read_text(encoding="utf-8")):
            found[relative] = named
    assert found == {}


# ---------------------------------------------------------------- a fifth system


@pytest.fixture
def fifth(monkeypatch, settings, tmp_path):
    """The fifth system registered: its web side (tests/rules/fifth_system.py), its
    templates, and an engine entry that prices by GEM's rules under its own key."""
    for name, text in fifth_system.TEMPLATES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    engine = settings.TEMPLATES[0]
    settings.TEMPLATES = [{**engine, "DIRS": [tmp_path, *engine["DIRS"]]}]
    game = replace(next(iter(points.SYSTEMS.values())), key=fifth_system.KEY, label="Fifth")
    monkeypatch.setitem(points.SYSTEMS, fifth_system.KEY, game)
    monkeypatch.setitem(SYSTEM_PAGES, fifth_system.KEY, fifth_system.ENTRY)
    return fifth_system.KEY


@pytest.mark.django_db
def test_a_fifth_system_is_drawn_by_every_page_from_its_module_alone(fifth, player_client, player):
    profile = {"type": "skirmisher", "base": "25mm", "off": 4, "def": 5}
    army = ArmyFactory(owner=player, system=fifth, profiles=[profile])
    unit = army.units.get()
    # The builder lists the unit and its editor lays out the fifth system's fields.
    builder = reverse("armies:builder", args=[army.pk])
    editor = player_client.get(f"{builder}?unit={unit.pk}").content.decode()
    assert "Striking" in editor
    assert "Warding" in editor
    # The text export reads its unit card through its export line.
    text = player_client.get(reverse("sharing:export-txt", args=[army.pk])).content.decode()
    assert "the fifth way: striking 4, warding 5" in text
    # The roster sheet prints its card and its army panel.
    roster = player_client.get(reverse("sharing:roster", args=[army.pk])).content.decode()
    assert "striking 4, warding 5" in roster
    assert "Fifth way&#x27;s total" in roster
    # Table mode counts what its table card says.
    player_client.post(reverse("table:play-new", args=[army.pk]), {"version": "0"})
    play = player_client.get(reverse("table:play", args=[army.pk])).content.decode()
    assert "Fallen in the fifth way" in play
    # Its blank cards and quick reference print what its module offers.
    blank = Client().get(reverse("sharing:blank-cards", args=[fifth])).content.decode()
    assert "warding" in blank
    quick = Client().get(reverse("sharing:quick-reference", args=[fifth])).content.decode()
    assert "Strike first" in quick
