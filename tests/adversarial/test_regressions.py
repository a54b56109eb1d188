"""Server errors and leaks the adversarial tests found, each pinned by a plain test."""

from __future__ import annotations

import json
from decimal import Decimal
from urllib.parse import urlencode

import pytest
from django.test import Client

from armies.models import Army
from tests.adversarial.conftest import World, build_world
from tests.adversarial.scrape import controls, submitted
from tests.helpers import HX, as_page

pytestmark = [pytest.mark.django_db, pytest.mark.databases]


@pytest.fixture
def world(db) -> World:
    return build_world()


def _settings_form(client, army) -> dict[str, list[str]]:
    # The builder loads the settings when opened; this address shows them inline.
    html = client.get(f"{army.get_absolute_url()}settings/").content.decode()
    return submitted(controls(html, "army-settings"))


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_a_refused_points_limit_over_the_maximum_is_a_message_not_a_500(client, world, htmx):
    # The form copied the limit onto the army before the model's maximum refused it, and
    # the page then priced that half-edited army.
    client.force_login(world.owner)
    army = world.army
    post = _settings_form(client, army) | {"name": ["Renamed"], "points_limit": ["2000000"]}

    response = client.post(f"/armies/{army.pk}/settings/", post, headers=HX if htmx else {})

    assert response.status_code == 200 if htmx else 400
    html = response.content.decode()
    assert (
        "Type a number from 0 to 1,000,000 with at most one decimal place (such as 350 or "
        "12.5), or leave it empty for no limit." in html
    )
    # The heading and totals show the army as stored, not the refused values.
    assert "Renamed</h1>" not in html
    assert Army.objects.get(pk=army.pk).name == army.name


@pytest.mark.parametrize(
    "ref", ["²", "٣", "１", "9" * 5000], ids=["superscript", "arabic", "fullwidth", "5000-digits"]
)
def test_matchup_refs_that_only_look_like_numbers_are_a_message_not_a_500(client, world, ref):
    # str.isdigit() said yes to these, then int() raised (or refused 4300+ digits).
    client.force_login(world.owner)

    response = client.get("/matchup/", {"a": ref, "b": world.army.pk})

    assert response.status_code == 200
    assert "No army of yours, and no shared army, matches that." in response.content.decode()


def test_an_imported_limit_with_more_decimals_than_stored_is_refused_not_rounded(client, world):
    # The file format allows 6 decimals, the army's limit keeps 1: 12.25 came back as 12.2.
    client.force_login(world.owner)
    doc = {"format": "muster-army/1", "name": "Exact", "system": "goms", "units": []}

    refused = client.post("/armies/import/", {"text": json.dumps(doc | {"points_limit": 12.25})})
    kept = client.post("/armies/import/", {"text": json.dumps(doc | {"points_limit": 12.5})})

    assert refused.status_code == 400
    assert "points_limit: must have at most 1 decimal place" in refused.content.decode()
    assert kept.status_code == 302
    assert client.get(kept.url + "export.json").json()["points_limit"] == 12.5
    assert list(Army.objects.filter(name="Exact").values_list("points_limit", flat=True)) == [
        Decimal("12.5")
    ]


def test_an_army_search_longer_than_any_name_finds_nothing_instead_of_a_500(client, world):
    # SQLite refuses LIKE patterns over 50,000 characters ("pattern too complex").
    client.force_login(world.owner)

    response = client.get("/armies/", {"q": "x" * 100_000})
    exact = client.get("/armies/", {"q": world.army.name})

    assert response.status_code == 200
    assert world.army.name not in response.content.decode()
    assert world.army.name in exact.content.decode()


@pytest.mark.parametrize("die", ["²", "٣", "9" * 5000, "0", "-1", "", "x"])
def test_a_reroll_of_a_die_that_only_looks_like_a_number_is_a_message_not_a_500(client, world, die):
    # The view asked str.isdigit(), which says yes to "²" and to 5000 digits; int() did not.
    client.force_login(world.owner)
    army = world.armies["goms"]
    client.post(f"/armies/{army.pk}/acquisition/roll/")

    response = client.post(f"/armies/{army.pk}/acquisition/reroll/", {"die": die}, follow=True)

    assert response.status_code == 200
    assert "Pick one of the dice listed to reroll." in response.content.decode()
    assert army.acquisitions.get().picks == []


@pytest.mark.parametrize("index", ["²", "٣", "9" * 5000])
def test_a_posted_row_whose_index_only_looks_like_a_number_is_ignored_not_a_500(
    client, world, index
):
    # The editor counted rows with str.isdigit() and int(), which disagree on these.
    client.force_login(world.owner)
    army, unit = world.armies["vsgmr"], world.units["vsgmr"]
    html = client.get(f"/armies/{army.pk}/?unit={unit.pk}").content.decode()
    post = submitted(controls(html, "unit-form")) | {f"homebrew-{index}-name": ["Sneaky"]}

    # URL-encoded, as a browser form sends it (multipart caps a field name's length).
    body = urlencode(post, doseq=True)
    response = client.post(
        f"/armies/{army.pk}/units/{unit.pk}/", body, "application/x-www-form-urlencoded"
    )

    assert response.status_code == 302
    assert "Sneaky" not in str(Army.objects.get(pk=army.pk).units.get(pk=unit.pk).profile)


def test_a_stale_save_that_added_a_row_is_a_conflict_not_a_500(client, world):
    # The conflict notice compared each posted field with the stored unit's form, which has
    # no field for a row this tab added.
    client.force_login(world.owner)
    army, unit = world.armies["vsgmr"], world.units["vsgmr"]
    html = client.get(f"/armies/{army.pk}/?unit={unit.pk}").content.decode()
    post = submitted(controls(html, "unit-form")) | {
        "version": [str(army.version - 1) if army.version > 1 else "0"],
        "homebrew-5-name": ["Added in this tab"],
        "homebrew-5-cost": ["1"],
    }

    response = client.post(f"/armies/{army.pk}/units/{unit.pk}/", post, headers=HX)

    assert response.status_code == 409
    assert "Added in this tab" in response.content.decode()


@pytest.mark.parametrize("entry", ["abc", "1.5", "²", "9" * 5000, ""])
def test_a_library_entry_that_is_not_an_id_is_refused_not_a_500(client, world, entry):
    # The posted id went straight into the query, whose int() raised on these.
    client.force_login(world.owner)
    army = world.army
    units, profile = army.units.count(), world.unit.profile

    added = client.post(f"/armies/{army.pk}/units/add-from-library/", {"entry": entry})
    part = client.post(f"/armies/{army.pk}/units/{world.unit.pk}/add-part/", {"entry": entry})

    assert (added.status_code, part.status_code) == (404, 404)
    assert army.units.count() == units
    assert army.units.get(pk=world.unit.pk).profile == profile


def test_a_library_entry_posted_as_its_id_is_still_added(client, world):
    client.force_login(world.owner)
    army = world.army

    entry = {"entry": str(world.figures["gem"].pk)}
    added = client.post(f"/armies/{army.pk}/units/add-from-library/", as_page(army, entry))
    entry = {"entry": str(world.weapon.pk)}
    part = client.post(f"/armies/{army.pk}/units/{world.unit.pk}/add-part/", as_page(army, entry))

    assert (added.status_code, part.status_code) == (302, 302)
    assert army.units.filter(name="Plain figure").exists()
    missiles = army.units.get(pk=world.unit.pk).profile["missile"]
    assert [m["name"] for m in missiles] == ["Plain bow", "Plain crossbow"]


@pytest.mark.parametrize("query", ["\x00", "Plain\x00gem"], ids=["nul", "nul-inside"])
def test_an_army_search_holding_a_nul_character_finds_nothing_instead_of_a_500(
    client, world, query
):
    # PostgreSQL refuses NUL in any text value, so the LIKE query itself raised.
    client.force_login(world.owner)

    response = client.get("/armies/", {"q": query})

    assert response.status_code == 200
    assert world.army.name not in response.content.decode()


def _import_page(client, text: str):
    # As the page's form posts it: multipart (it has a file field), the CSRF token first.
    client.get("/armies/import/")
    token = client.cookies["csrftoken"].value
    return client.post("/armies/import/", {"csrfmiddlewaretoken": token, "text": text, "file": ""})


def test_pasting_an_army_too_large_to_read_is_a_message_beside_the_box(world):
    # Past DATA_UPLOAD_MAX_MEMORY_SIZE Django refused the body as soon as the CSRF check
    # read it, with its own error page instead of the import form.
    client = Client(enforce_csrf_checks=True)
    client.force_login(world.owner)
    before = Army.objects.count()
    paste = json.dumps({"format": "muster-army/1", "name": "Huge", "notes": "x" * 5_000_000})

    response = _import_page(client, paste)

    assert response.status_code == 413
    html = response.content.decode()
    assert "The pasted army is larger than 1 MB" in html
    assert 'name="text"' in html and 'name="file"' in html  # the form, ready for another try
    assert Army.objects.count() == before


def test_pasting_an_army_over_the_file_limit_is_refused_like_the_upload(world):
    # Under Django's own limit, over the 1 MB a file may have: the same rule as an upload.
    client = Client(enforce_csrf_checks=True)
    client.force_login(world.owner)
    before = Army.objects.count()
    # Valid JSON, the padding inside it where the form's stripping cannot remove it.
    paste = '{"format": "muster-army/1", "name": "Big", "system": "gem", "units":'
    paste += " " * 1_500_000 + "[]}"

    response = _import_page(client, paste)

    assert response.status_code == 400
    assert "The pasted army is larger than 1 MB" in response.content.decode()
    assert Army.objects.count() == before
