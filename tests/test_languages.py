"""Muster in the player's language (SPEC 5 and 6, "Languages"; issue #47): English at
today's addresses, German and French under /de/ and /fr/, the visitor's browser or choice
deciding which, a player's choice kept on their account, numbers written the language's
way, and catalogs with nothing left untranslated."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest
from django.conf import settings
from django.template import engines
from django.test import Client
from django.utils import translation

from accounts import services
from accounts.models import Preferences
from tests.factories import (
    DEFAULT_PASSWORD,
    ArmyFactory,
    PreferencesFactory,
    UserFactory,
    sample_file,
)

pytestmark = pytest.mark.django_db

# A phrase of base.html in each language, as a reader of that language would look for it.
SKIP_LINK = {"en-gb": "Skip to content", "de": "Zum Inhalt springen", "fr": "Aller au contenu"}
PAGE = {"Accept": "text/html"}  # what a browser opening a page asks for


def visit(client: Client, path: str, language: str = "", **headers):
    if language:
        headers["Accept-Language"] = language
    return client.get(path, headers={**PAGE, **headers})


def test_english_stays_at_todays_addresses_and_german_and_french_are_prefixed(client):
    english = client.get("/rules/gem/")
    assert english.status_code == 200
    assert '<html lang="en-gb"' in english.text
    assert SKIP_LINK["en-gb"] in english.text
    for language in ("de", "fr"):
        page = client.get(f"/{language}/rules/gem/")
        assert page.status_code == 200
        assert f'<html lang="{language}"' in page.text
        assert SKIP_LINK[language] in page.text
        assert SKIP_LINK["en-gb"] not in page.text


def test_the_home_page_greets_a_german_and_a_french_visitor_in_their_language(client):
    assert "Aufstellen. Berechnen. Jeden Punkt erklären." in client.get("/de/").text
    assert "Composez. Chiffrez. Justifiez chaque point." in client.get("/fr/").text
    assert "Build it. Price it. Explain every point." in client.get("/").text


def test_a_visitor_whose_browser_reads_german_is_sent_to_the_german_page(client):
    response = visit(client, "/rules/gem/?from=forum", "de-DE,de;q=0.9,en;q=0.8")
    assert response.status_code == 302
    assert response["Location"] == "/de/rules/gem/?from=forum"
    # A cache in between must not hand this redirect to a reader of English.
    assert "Accept-Language" in response["Vary"]


def test_a_visitor_whose_browser_reads_english_or_an_unknown_language_stays(client):
    for language in ("en-US,en;q=0.9", "ja", ""):
        response = visit(client, "/rules/gem/", language)
        assert response.status_code == 200, language
        assert SKIP_LINK["en-gb"] in response.text


def test_a_prefixed_address_is_shown_in_its_language_whatever_the_browser_reads(client):
    response = visit(client, "/fr/rules/gem/", "de")
    assert response.status_code == 200
    assert SKIP_LINK["fr"] in response.text


def test_an_htmx_request_from_an_english_page_is_answered_in_english_not_redirected(client):
    response = client.get(
        "/rules/gem/", headers={"Accept-Language": "de", "HX-Request": "true", **PAGE}
    )
    assert response.status_code == 200
    assert SKIP_LINK["en-gb"] in response.text


def test_the_service_worker_and_the_api_are_never_redirected(client):
    # The browser fetches the worker's code at /sw.js, and refuses a redirect there.
    assert client.get("/sw.js", headers={"Accept-Language": "de"}).status_code == 200
    answer = client.post(
        "/api/price/",
        data=sample_file("worked_examples", "gem"),
        content_type="application/json",
        headers={"Accept-Language": "fr"},
    )
    assert answer.status_code == 200
    # The API's numbers are JSON's, whatever the language: 1439.5, never "1439,5".
    assert answer.json()["total"] in ("1439.5", 1439.5)


def test_the_switcher_shows_the_same_page_in_the_language_chosen(client):
    response = client.post("/de/language/", {"language": "fr", "next": "/de/rules/gem/"})
    assert response.status_code == 302
    assert response["Location"] == "/fr/rules/gem/"
    followed = client.get(response["Location"])
    assert SKIP_LINK["fr"] in followed.text
    assert '<option value="fr" lang="fr" selected>Français</option>' in followed.text


def test_a_visitor_who_chose_english_keeps_it_though_their_browser_reads_german(client):
    response = client.post("/de/language/", {"language": "en-gb", "next": "/de/rules/gem/"})
    assert response["Location"] == "/rules/gem/"
    later = visit(client, "/rules/gem/", "de")
    assert later.status_code == 200
    assert SKIP_LINK["en-gb"] in later.text


def test_a_visitor_who_chose_french_gets_it_at_the_plain_address_next_time(client):
    client.post("/language/", {"language": "fr", "next": "/"})
    response = visit(client, "/rules/gem/", "en")
    assert response["Location"] == "/fr/rules/gem/"


def test_the_switcher_refuses_a_language_muster_does_not_speak_and_a_foreign_address(client):
    odd = client.post("/language/", {"language": "xx", "next": "/rules/gem/"})
    assert odd["Location"] == "/rules/gem/"
    assert settings.LANGUAGE_COOKIE_NAME not in odd.cookies
    away = client.post("/language/", {"language": "de", "next": "https://evil.example/"})
    assert away["Location"] == "/de/"


def test_the_switcher_needs_the_pages_csrf_token():
    client = Client(enforce_csrf_checks=True)
    response = client.post("/language/", {"language": "de", "next": "/"})
    assert response.status_code == 403


def test_the_switcher_is_a_form_on_every_page_that_posts_back_the_page_it_is_on(client):
    html = client.get("/de/rules/gem/").text
    form = re.search(r'<form[^>]*action="/de/language/".*?</form>', html, re.S)
    assert form, "no switcher"
    assert 'name="next" value="/de/rules/gem/"' in form.group()
    assert 'name="csrfmiddlewaretoken"' in form.group()
    for code, name in settings.LANGUAGES:
        assert f'value="{code}"' in form.group() and name in form.group()


def test_a_players_choice_is_kept_on_their_account(client):
    player = UserFactory()
    client.force_login(player)
    client.post("/language/", {"language": "fr", "next": "/armies/"})
    assert Preferences.objects.get(user=player).language == "fr"


def test_only_a_language_muster_speaks_is_ever_kept_on_an_account():
    player = UserFactory()
    with pytest.raises(ValueError, match="not a language Muster speaks"):
        services.choose_language(player, "tlh")
    assert not Preferences.objects.filter(user=player).exists()
    # One kept earlier and since dropped from LANGUAGES counts as none chosen.
    PreferencesFactory(user=player, language="tlh")
    assert services.language_of(player) == ""


def test_logging_in_from_another_device_goes_on_in_the_players_language():
    player = PreferencesFactory(language="de").user
    elsewhere = Client()  # a new device: no cookie, a browser reading English
    response = elsewhere.post(
        "/accounts/login/",
        {"username": player.username, "password": DEFAULT_PASSWORD, "next": "/armies/"},
        headers={"Accept-Language": "en"},
    )
    assert response.status_code == 302
    assert response["Location"] == "/de/armies/"
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "de"
    # Back at a plain address another day, the device remembers.
    assert visit(elsewhere, "/rules/gem/", "en")["Location"] == "/de/rules/gem/"


def test_logging_in_without_a_chosen_language_leaves_the_page_language_alone(client):
    player = UserFactory()
    response = client.post(
        "/fr/accounts/login/", {"username": player.username, "password": DEFAULT_PASSWORD}
    )
    assert response["Location"] == "/fr/"
    assert settings.LANGUAGE_COOKIE_NAME not in response.cookies


def test_signing_up_in_french_keeps_french_as_the_players_language(client):
    response = client.post(
        "/fr/accounts/signup/",
        {
            "username": "marechal",
            "email": "",
            "password1": "runes and ale forever",
            "password2": "runes and ale forever",
        },
        follow=True,
    )
    assert Preferences.objects.get(user__username="marechal").language == "fr"
    assert "Bienvenue sur Muster, marechal." in response.text


def test_the_account_pages_and_their_messages_are_translated(client):
    assert "Mot de passe oublié" in client.get("/fr/accounts/login/").text
    assert "Registrieren" in client.get("/de/accounts/signup/").text
    signup = client.get("/de/accounts/signup/").text
    assert "Freiwillig: wird nur genutzt, um ein vergessenes Passwort zurückzusetzen." in signup


def test_the_password_reset_email_is_written_in_the_language_it_was_asked_in(client, mailoutbox):
    UserFactory(username="hauptmann", email="hauptmann@example.com")
    client.post("/de/accounts/password_reset/", {"email": "hauptmann@example.com"})
    (email,) = mailoutbox
    assert email.subject == "Muster-Passwort zurücksetzen"
    assert "das Passwort für das Muster-Konto „hauptmann“ zurückzusetzen" in email.body
    assert "/de/accounts/reset/" in email.body


def test_a_page_not_found_says_so_in_the_addresss_language(client):
    response = client.get("/fr/no-such-page/")
    assert response.status_code == 404
    assert "Page introuvable" in response.text
    # An address under a share link's that is no page: a link copied incompletely.
    dead_link = client.get("/de/s/some-token/no-such-page/")
    assert dead_link.status_code == 404
    assert "Freigabelink funktioniert nicht" in dead_link.text


def test_points_are_written_as_the_language_writes_numbers():
    template = engines["django"].from_string("{% load muster %}{{ total|pts }}")
    with translation.override("de"):
        assert template.render({"total": Fraction("462.8")}) == "462,8"
    with translation.override("fr"):
        assert template.render({"total": Fraction("462.8")}) == "462,8"
    with translation.override("en-gb"):
        assert template.render({"total": Fraction("462.8")}) == "462.8"


def test_the_roster_and_the_text_export_show_the_total_in_the_readers_format(client):
    owner = UserFactory()
    army = ArmyFactory(owner=owner, file=sample_file("worked_examples", "gem"))
    client.force_login(owner)
    # SPEC 3.2's worked examples: 6.5 + 25.3 + 54.3 + 1348.1 + 5.3 = 1439.5 points.
    assert 'data-testid="army-total">1439.5<' in client.get(f"/armies/{army.pk}/roster/").text
    german = client.get(f"/de/armies/{army.pk}/roster/").text
    assert 'data-testid="army-total">1439,5<' in german
    # Each language's text is its own: the English one, drawn first, is not handed out again.
    assert "1439.5" in client.get(f"/armies/{army.pk}/export.txt").text
    french = client.get(f"/fr/armies/{army.pk}/export.txt").text
    assert "1439,5" in french and "1439.5" not in french
    # The army file keeps JSON's numbers.
    assert "1439,5" not in client.get(f"/de/armies/{army.pk}/export.json").text


def test_the_scripts_words_come_in_the_pages_language(client):
    page = client.get("/de/").text
    assert '<script src="/de/jsi18n/"></script>' in page
    catalog = client.get("/de/jsi18n/")
    assert catalog.status_code == 200
    assert "Heller Modus" in catalog.text  # theme.js's "Light mode"


# ---------------------------------------------------------------- the catalogs

LOCALE = Path(settings.BASE_DIR) / "locale"


def _entries(po: Path) -> list[dict[str, str]]:
    """A .po file's entries: their flags, msgid and every msgstr, each joined up."""
    entries = []
    for block in po.read_text(encoding="utf-8").split("\n\n"):
        entry: dict[str, str] = {"flags": ""}
        field = None
        for line in block.splitlines():
            if line.startswith("#,"):
                entry["flags"] += line[2:]
            elif found := re.match(
                r'^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?) "(.*)"$', line
            ):
                field = found.group(1)
                entry[field] = found.group(2)
            elif line.startswith('"') and field:
                entry[field] += line[1:-1]
        if "msgid" in entry:
            entries.append(entry)
    return entries


@pytest.mark.parametrize("code", [code for code, _ in settings.LANGUAGES if code != "en-gb"])
@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_every_catalog_is_complete_with_no_empty_or_fuzzy_entry(code, domain):
    po = LOCALE / code / "LC_MESSAGES" / f"{domain}.po"
    entries = _entries(po)
    assert len(entries) > 10, f"{po} holds almost nothing"
    for entry in entries:
        name = entry.get("msgctxt", "") + "|" + entry["msgid"]
        assert "fuzzy" not in entry["flags"], f"{po.name} ({code}): fuzzy: {name}"
        if entry["msgid"] == "":
            continue  # the header
        strings = [value for key, value in entry.items() if key.startswith("msgstr")]
        assert strings and all(strings), f"{po.name} ({code}): untranslated: {name}"
