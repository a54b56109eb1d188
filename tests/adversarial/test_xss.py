"""User text is escaped everywhere: pages, htmx partials, rosters, shared pages, messages.

One player writes script-shaped text into every name and note Muster keeps (army, units,
GEM weapons, VSGMR homebrew traits, d10 weapons, library entries), then every page and
partial that shows them, or echoes a rejected value back, is read for the raw text.
"""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.utils.html import escape

from armies.models import Army
from tests.adversarial.conftest import SYSTEMS, World, build_world
from tests.adversarial.scrape import controls, submitted
from tests.helpers import HX
from tests.samples import ROOT

pytestmark = pytest.mark.django_db

PAYLOAD = (
    '<script>alert(1)</script>"><img src=x onerror=alert(1)>'
    "</textarea><svg onload=alert(1)>{{7*7}}'"
)
SHORT = "<svg onload=alert(1)>"  # fits the 64 characters of a stat box
ESCAPED = escape(PAYLOAD)
NAME_50 = PAYLOAD[:50]  # for names limited to 60 characters (VSGMR traits)
# Any of these in a response means the browser would run the player's text.
RAW = ("<script>alert(1)", "<img src=x", "<svg onload", "onerror=alert(1)>", "</textarea><svg")


@pytest.fixture
def world(db) -> World:
    return build_world(PAYLOAD)


def _check(label: str, response, *, shows: str | None = ESCAPED, status: int = 200) -> list[str]:
    """Problems with one response: raw payload present, or the escaped text missing."""
    assert response.status_code == status, (label, response.status_code)
    html = response.content.decode()
    problems = [f"{label}: raw {fragment!r}" for fragment in RAW if fragment in html]
    if shows and shows not in html:
        problems.append(f"{label}: escaped text missing")
    return problems


def _editor_data(client: Client, army, unit) -> dict[str, list[str]]:
    html = client.get(f"/armies/{army.pk}/?unit={unit.pk}").content.decode()
    return submitted(controls(html, "unit-form"))


def test_the_owners_pages_show_every_name_escaped(client, world):
    client.force_login(world.owner)
    problems = []
    for label, url in [
        ("army list", "/armies/"),
        ("army list search", f"/armies/?q={PAYLOAD}"),
        ("library", "/library/"),
        ("matchup", f"/matchup/?a={world.army.share_token}&b={world.army.pk}"),
    ]:
        problems += _check(label, client.get(url))
    for system in SYSTEMS:
        army, unit = world.armies[system], world.units[system]
        base = f"/armies/{army.pk}/"
        problems += _check(f"{system} builder", client.get(base))
        problems += _check(f"{system} builder editor", client.get(f"{base}?unit={unit.pk}"))
        problems += _check(
            f"{system} editor partial",
            client.get(f"{base}?unit={unit.pk}", headers={**HX, "HX-Target": "editor"}),
        )
        problems += _check(f"{system} roster", client.get(f"{base}roster/"))
        problems += _check(
            f"{system} library figure", client.get(f"/library/{world.figures[system].pk}/")
        )
    for entry in (world.weapon, world.trait):
        problems += _check(f"library {entry.kind}", client.get(f"/library/{entry.pk}/"))
    problems += _check("trash", client.get("/armies/trash/"))
    goms = world.armies["goms"]
    client.post(f"/armies/{goms.pk}/acquisition/roll/")
    problems += _check("acquisition", client.get(f"/armies/{goms.pk}/acquisition/"))
    for system in SYSTEMS:
        army, unit = world.armies[system], world.units[system]
        # GEM weapons and VSGMR traits are named in the breakdown; the others only priced.
        named = system in ("gem", "vsgmr")
        problems += _check(
            f"{system} breakdown partial",
            client.get(f"/armies/{army.pk}/units/{unit.pk}/breakdown/", headers=HX),
            shows=escape(NAME_50) if named else None,
        )
    assert problems == []


@pytest.mark.parametrize("viewer", ["anonymous", "another player"])
def test_shared_pages_show_every_name_escaped(client, world, viewer):
    if viewer == "another player":
        client.force_login(world.intruder)
    problems = []
    for system in SYSTEMS:
        token = world.armies[system].share_token
        problems += _check(f"{system} shared", client.get(f"/s/{token}/"))
        problems += _check(f"{system} shared roster", client.get(f"/s/{token}/roster/"))
    token = world.army.share_token
    problems += _check("shared matchup", client.get(f"/matchup/?a={token}&b={token}"))
    assert problems == []


def test_htmx_partials_show_every_name_escaped(client, world):
    client.force_login(world.owner)
    army, unit = world.army, world.unit
    update = f"/armies/{army.pk}/units/{unit.pk}/"
    problems = []

    data = _editor_data(client, army, unit) | {"name": [PAYLOAD]}
    problems += _check("unit saved", client.post(update, data, headers=HX))

    data = _editor_data(client, army, unit) | {"type": [PAYLOAD], "off": [SHORT]}
    problems += _check("unit refused", client.post(update, data, headers=HX))

    stale = _editor_data(client, army, unit) | {"version": ["1"], "name": [PAYLOAD + "!"]}
    problems += _check("unit conflict", client.post(update, stale, headers=HX), status=409)

    duplicate = f"/armies/{army.pk}/units/{unit.pk}/duplicate/"
    version = {"version": Army.objects.get(pk=army.pk).version}
    problems += _check("list changed", client.post(duplicate, version, headers=HX))

    settings = f"/armies/{army.pk}/settings/"
    form = submitted(controls(client.get(settings).content.decode(), "army-settings"))
    problems += _check(
        "settings saved",
        client.post(settings, form | {"name": [PAYLOAD], "notes": [PAYLOAD]}, headers=HX),
    )
    problems += _check(
        "settings refused",
        client.post(settings, form | {"preset": [PAYLOAD], "points_limit": [SHORT]}, headers=HX),
    )
    problems += _check(
        "settings conflict",
        client.post(settings, form | {"version": ["1"], "notes": [PAYLOAD]}, headers=HX),
        status=409,
    )
    assert problems == []


def test_rejected_forms_echo_what_was_typed_escaped(client, world):
    client.force_login(world.owner)
    army, unit = world.army, world.unit
    problems = []
    problems += _check(
        "new army",
        client.post("/armies/new/", {"name": PAYLOAD, "system": "gem", "points_limit": SHORT}),
        status=400,
    )
    problems += _check("import text", client.post("/armies/import/", {"text": PAYLOAD}), status=400)
    bad_key = json.dumps({"format": "muster-army/1", PAYLOAD: 1})
    problems += _check(
        "import field path",
        client.post("/armies/import/", {"text": bad_key}),
        shows=None,
        status=400,
    )
    problems += _check(
        "unit without js",
        client.post(
            f"/armies/{army.pk}/units/{unit.pk}/",
            _editor_data(client, army, unit) | {"name": [PAYLOAD], "off": [SHORT]},
        ),
        status=400,
    )
    problems += _check(
        "library figure",
        client.post("/library/new/figure/gem/", {"name": PAYLOAD, "off": SHORT, "type": "x"}),
        status=400,
    )
    problems += _check(
        "library weapon",
        client.post("/library/new/weapon/", {"name": PAYLOAD, "off": SHORT}),
        status=400,
    )
    problems += _check(
        "library trait",
        client.post("/library/new/trait/", {"name": PAYLOAD, "cost": SHORT}),
        status=400,
    )
    client.logout()
    problems += _check(
        "signup",
        client.post("/accounts/signup/", {"username": PAYLOAD, "email": "x", "password1": "a"}),
    )
    problems += _check(
        "login", client.post("/accounts/login/", {"username": PAYLOAD, "password": "x"})
    )
    assert problems == []


def test_messages_after_a_redirect_show_names_escaped(client, world):
    client.force_login(world.owner)
    army, unit = world.armies["vsgmr"], world.units["vsgmr"]
    problems = []
    problems += _check(
        "unit saved",
        client.post(
            f"/armies/{army.pk}/units/{unit.pk}/",
            _editor_data(client, army, unit) | {"name": [PAYLOAD]},
            follow=True,
        ),
    )
    problems += _check(
        "unit deleted",
        client.post(f"/armies/{army.pk}/units/{unit.pk}/delete/", follow=True),
    )
    problems += _check(
        "army created",
        client.post("/armies/new/", {"name": PAYLOAD, "system": "goms"}, follow=True),
    )
    exported = client.get(f"/armies/{world.army.pk}/export.json").content.decode()
    problems += _check(
        "army imported", client.post("/armies/import/", {"text": exported}, follow=True)
    )
    problems += _check(
        "library entry added",
        client.post(
            "/library/new/trait/", {"name": NAME_50, "cost": "1", "text": PAYLOAD}, follow=True
        ),
        shows=escape(NAME_50),
    )
    problems += _check(
        "army deleted", client.post(f"/armies/{army.pk}/delete/", follow=True), shows=None
    )
    client.force_login(world.intruder)
    forked = client.post(f"/s/{world.army.share_token}/fork/", follow=True)
    problems += _check("forked", forked)
    assert problems == []


def test_the_export_is_a_json_download_that_no_browser_renders_as_html(client, world):
    client.force_login(world.owner)

    response = client.get(f"/armies/{world.army.pk}/export.json")

    assert response["Content-Type"] == "application/json"
    assert response["X-Content-Type-Options"] == "nosniff"
    disposition = response["Content-Disposition"]
    assert disposition.startswith("attachment; ")
    assert re.fullmatch(r'attachment; filename="[A-Za-z0-9_-]+\.json"', disposition)
    assert PAYLOAD in response.json()["name"]


# Every way a template or view can switch escaping off, and the places that may.
UNESCAPING = re.compile(r"\|\s*safe\b|\bsafeseq\b|autoescape\s+off|mark_safe\(|SafeString\(")
ALLOWED = {
    # segno's own SVG markup for the share link's QR code: no player text in it.
    ("sharing/roster.py", "return mark_safe(svg)  # noqa: S308"),
    # Unit rows and cards, and army list rows: each drawn by a template with escaping on,
    # then stored.
    (
        "armies/drawing.py",
        'return SafeString("".join(parts))  # each part a rendered template',
    ),
}


def test_nothing_a_player_wrote_is_marked_safe():
    found = set()
    sources = [*ROOT.glob("templates/**/*.html"), *ROOT.glob("templates/**/*.txt")]
    for app in ("accounts", "armies", "config", "points", "rules", "sharing", "table"):
        sources += (ROOT / app).glob("**/*.py")
        sources += (ROOT / app).glob("templates/**/*.html")
    for path in sources:
        for line in path.read_text(encoding="utf-8").splitlines():
            if UNESCAPING.search(line):
                found.add((str(path.relative_to(ROOT)), line.strip()))
    assert found == ALLOWED
