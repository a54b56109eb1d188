"""Fuzzing every form with hostile values: never a 500, and a refused form comes back with
what the player typed and a message, not blank.

The fields come from the rendered page (tests/adversarial/scrape.py), so a field added
to a form or template is fuzzed without anyone updating this file.
"""

from __future__ import annotations

import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils.html import escape
from hypothesis import event, given
from hypothesis import strategies as st

from accounts.models import Strikes
from armies.forms import UnitForm
from armies.models import Army, LibraryEntry
from tests.adversarial.conftest import SYSTEMS
from tests.adversarial.scrape import Control, controls, submitted
from tests.adversarial.strategies import FUZZING, broken_army, deep, hostile_text, json_values
from tests.helpers import HX, assert_stored_prices_match_the_engine

pytestmark = [pytest.mark.django_db, pytest.mark.databases]

# A message beside a field (Django marks the input), a form-level alert, or the editor's.
ERROR = re.compile(
    r'aria-invalid="true"|class="invalid-feedback[^"]*"[^>]*>\s*<?\w|alert-danger|not-saved'
)


@pytest.fixture
def owner_client(world) -> Client:
    client = Client()
    client.force_login(world.owner)
    return client


@pytest.fixture
def pages() -> dict:
    """Forms read once per test: every example of a test starts from the same page."""
    return {}


def _form(client: Client, pages: dict, url: str, **which) -> list[Control]:
    if url not in pages:
        pages[url] = controls(client.get(url).content.decode(), **which)
    return pages[url]


def _current_version(army) -> list[str]:
    # A page read once is stale after the first save; a real page would have been updated.
    return [str(Army.objects.values_list("version", flat=True).get(pk=army.pk))]


# Values a player would type, so some examples save and the fuzz reaches stored state.
plausible = st.one_of(
    st.just(""), st.integers(0, 12).map(str), st.sampled_from(["d6", "2d6+1", "0.5", "Axe"])
)


def _value(found: Control) -> st.SearchStrategy[str]:
    """Something for one control: one of its own choices, a likely value, or anything."""
    if found.type == "select-one" or found.type == "select-multiple":
        own = st.sampled_from([v for v, _ in found.options] or [""])
        return st.one_of(own, own, hostile_text)
    if found.type == "checkbox":
        return st.one_of(st.just(found.value), hostile_text)
    return st.one_of(plausible, hostile_text)


def _fuzzed(
    data: st.DataObject, found: list[Control], extra_keys=(), **current: list[str]
) -> dict[str, list[str]]:
    """The form as the page would submit it, with any of its fields (or extra ones) changed."""
    post = submitted(found) | current
    names = sorted({c.name for c in found} - {"csrfmiddlewaretoken"})
    for name in data.draw(st.lists(st.sampled_from(names), unique=True, max_size=len(names))):
        control = next(c for c in found if c.name == name)
        post[name] = data.draw(st.lists(_value(control), min_size=0, max_size=2))
    for name in extra_keys:
        post[name] = [data.draw(hostile_text)]
    return post


def _check_refused(response, post: dict[str, list[str]], found: list[Control]) -> None:
    """A refused form is shown again with the player's values and at least one message."""
    event("refused")
    html = response.content.decode()
    assert ERROR.search(html), "refused without saying why"
    for control in found:
        values = post.get(control.name, [])
        if control.typed and len(values) == 1 and values[0].strip():
            assert escape(values[0]) in html, f"{control.name}: typed value lost"


def _row_keys(system: str) -> st.SearchStrategy[list[str]]:
    """Row fields past the rendered rows, up to and beyond the editor's 20-row cap."""
    groups = UnitForm(system).layout.rows
    if not groups:
        return st.just([])
    index = st.one_of(st.integers(0, 25).map(str), hostile_text.filter(lambda s: len(s) < 100))
    key = st.tuples(st.sampled_from(groups), index, st.sampled_from(["name", "off", "zzz"])).map(
        lambda t: f"{t[0].key}-{t[1]}-{t[2]}"
    )
    return st.lists(key, max_size=3)


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_rendered_unit_editor_has_every_field_of_the_form(owner_client, world, system):
    army, unit = world.armies[system], world.units[system]
    html = owner_client.get(f"/armies/{army.pk}/?unit={unit.pk}").content.decode()
    rendered = {c.name for c in controls(html, "unit-form")}
    form = UnitForm(system, unit=unit)
    assert set(form.fields) <= rendered


@pytest.mark.parametrize("system", SYSTEMS)
@FUZZING
@given(data=st.data())
def test_fuzzed_unit_saves_never_fail(owner_client, world, pages, system, data):
    army, unit = world.armies[system], world.units[system]
    found = _form(owner_client, pages, f"/armies/{army.pk}/?unit={unit.pk}", form_id="unit-form")
    post = _fuzzed(data, found, data.draw(_row_keys(system)), version=_current_version(army))
    htmx = data.draw(st.booleans())

    response = owner_client.post(
        f"/armies/{army.pk}/units/{unit.pk}/", post, headers=HX if htmx else {}
    )

    assert response.status_code in {200, 302, 400, 409}
    event(f"status {response.status_code}, {'htmx' if htmx else 'plain'}")
    if response.status_code == 302 or b"Saved." in response.content:
        event("saved")
    if response.status_code == 400:
        _check_refused(response, post, found)
    # Whatever was saved still loads and prices, as the stored prices say.
    assert_stored_prices_match_the_engine(army)


@pytest.mark.parametrize("system", SYSTEMS)
@FUZZING
@given(data=st.data())
def test_fuzzed_army_settings_never_fail(owner_client, world, pages, system, data):
    army = world.armies[system]
    found = _form(
        owner_client, pages, f"{army.get_absolute_url()}settings/", form_id="army-settings"
    )
    post = _fuzzed(data, found, version=_current_version(army))
    htmx = data.draw(st.booleans())

    response = owner_client.post(f"/armies/{army.pk}/settings/", post, headers=HX if htmx else {})

    assert response.status_code in {200, 302, 400, 409}
    if response.status_code == 400:
        _check_refused(response, post, found)
    assert_stored_prices_match_the_engine(army)


# Forms that create something: a refused one answers 400 with the values kept.
NEW_FORMS = [
    ("/armies/new/", "points_limit"),
    *((f"/library/new/figure/{s}/", "name") for s in SYSTEMS),
    ("/library/new/weapon/", "name"),
    ("/library/new/trait/", "name"),
]


@pytest.mark.parametrize(("url", "having"), NEW_FORMS)
@FUZZING
@given(data=st.data())
def test_fuzzed_new_armies_and_library_entries_never_fail(owner_client, pages, url, having, data):
    found = _form(owner_client, pages, url, having=having)
    post = _fuzzed(data, found)

    response = owner_client.post(url, post)

    assert response.status_code in {302, 400}
    if response.status_code == 400:
        _check_refused(response, post, found)


@pytest.mark.parametrize("kind", ["figure", "weapon", "trait"])
@FUZZING
@given(data=st.data())
def test_fuzzed_library_edits_never_fail(owner_client, world, pages, kind, data):
    entry = {"figure": world.figures["vsgmr"], "weapon": world.weapon, "trait": world.trait}[kind]
    url = f"/library/{entry.pk}/"
    found = _form(owner_client, pages, url, having="name")
    # The page's version, as a page drawn now would carry it (a save moves it on).
    version = LibraryEntry.objects.values_list("version", flat=True).get(pk=entry.pk)
    post = _fuzzed(data, found, version=[str(version)])

    response = owner_client.post(url, post)

    assert response.status_code in {302, 400, 409}
    # Refused as stale only when the fuzz changed the version the page carries.
    assert response.status_code != 409 or post["version"] != [str(version)]
    if response.status_code in {400, 409}:
        _check_refused(response, post, found)


import_texts = st.one_of(
    hostile_text,
    json_values.map(json.dumps),
    broken_army().map(json.dumps),
    st.sampled_from([deep(10_000, "list"), deep(10_000, "dict"), "1e400", "9" * 5000]),
)


@FUZZING
@given(text=import_texts, as_file=st.booleans(), raw=st.binary(max_size=200))
def test_fuzzed_imports_never_fail(owner_client, text, as_file, raw):
    if as_file:
        body = raw if raw and not text else text.encode("utf-8", "surrogatepass")
        post = {"file": SimpleUploadedFile("army.json", body, "application/json")}
    else:
        post = {"text": text}

    response = owner_client.post("/armies/import/", post)

    assert response.status_code in {400, 302}
    if response.status_code == 400:
        assert ERROR.search(response.content.decode())
        if not as_file and text.strip() and len(text) < 100_000:
            assert escape(text) in response.content.decode()
    else:
        assert_stored_prices_match_the_engine(
            Army.objects.filter(owner=response.wsgi_request.user).latest("pk")
        )


@FUZZING
@given(data=st.data())
def test_fuzzed_signups_never_fail(client, pages, data):
    found = _form(client, pages, "/accounts/signup/", having="username")
    post = _fuzzed(data, found)

    response = client.post("/accounts/signup/", post)

    assert response.status_code in {200, 302}
    if response.status_code == 200:
        _check_refused(response, post, found)
    client.logout()


@FUZZING
@given(data=st.data())
def test_fuzzed_logins_never_fail(client, world, pages, data):
    Strikes.objects.all().delete()  # past the throttle: every example reaches the password check
    found = _form(client, pages, "/accounts/login/", having="username")
    post = _fuzzed(data, found)
    if data.draw(st.booleans()):
        post["username"] = [world.owner.username]

    response = client.post("/accounts/login/", post)

    assert response.status_code in {200, 302, 429}
    if response.status_code != 302:
        _check_refused(response, post, found)
    client.logout()


@FUZZING
@given(die=st.one_of(plausible, hostile_text), action=st.sampled_from(["roll", "reroll", "finish"]))
def test_fuzzed_acquisition_rolls_never_fail(owner_client, world, die, action):
    army = world.armies["goms"]
    if not army.acquisitions.exists():
        owner_client.post(f"/armies/{army.pk}/acquisition/roll/")

    response = owner_client.post(f"/armies/{army.pk}/acquisition/{action}/", {"die": die})

    assert response.status_code == 302
    assert owner_client.get(f"/armies/{army.pk}/acquisition/").status_code == 200


@FUZZING
@given(a=hostile_text, b=hostile_text, q=hostile_text, sort=hostile_text, unit=hostile_text)
def test_fuzzed_query_strings_never_fail(owner_client, world, a, b, q, sort, unit):
    assert owner_client.get("/matchup/", {"a": a, "b": b}).status_code == 200
    assert owner_client.get("/armies/", {"q": q, "sort": sort}).status_code == 200
    builder = owner_client.get(world.army.get_absolute_url(), {"unit": unit})
    assert builder.status_code == 200


def test_a_post_with_thousands_of_fields_is_a_400_not_a_500(owner_client, world):
    post = {f"melee-{i}-name": "x" for i in range(5000)}

    response = owner_client.post(f"/armies/{world.army.pk}/units/{world.unit.pk}/", post)

    assert response.status_code == 400
