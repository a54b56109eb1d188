"""Each game system is described once: in the engine (points/) and in one registry entry
beside it (rules/systems.py). A fifth system is its engine module, its entry, its
templates and the functions its entry names; no other app module names a system."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.template.loader import get_template
from django.urls import reverse
from django.utils.module_loading import import_string

import points
from armies.profiles import Layout
from rules.systems import DEFAULT_SYSTEM, SYSTEM_PAGES, system_of_kind

ROOT = Path(__file__).resolve().parents[2]
APPS = ("accounts", "armies", "config", "odds", "rules", "sharing", "table")

# Where a system's name may still be written, and why.
ALLOWED = {
    # The registry itself, and the engine's name for each system (points/ is outside APPS).
    "rules/systems.py",
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


@pytest.mark.parametrize("key", sorted(points.SYSTEMS))
def test_the_code_an_entry_names_is_there_to_import(key):
    page = SYSTEM_PAGES[key]
    assert isinstance(import_string(page.layout), Layout)
    for path in (page.unit_card, page.export_line, page.reference, page.blank_choices):
        assert callable(import_string(path))
    assert callable(import_string(page.roster_panel))
    assert callable(import_string(page.table_card))
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
            if "/migrations/" in relative or relative in ALLOWED:
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
