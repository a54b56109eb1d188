"""Muster from sign-up to printed roster in German and in French (issue #47): a new
player signs up on the German (French) pages, makes an army of each system from the
new-army page, adds a unit and changes a stat, shares the army, and opens the share
page signed out, the roster and the print set; every page is in the player's language.

With MUSTER_SHOTS=1 the builder and the roster of each army are photographed at a
desk's and a phone's width, into /tmp/ui-shots/i18n/ as <lang>-<system>-<page>-<width>.png."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import DESK, PHONE

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path(tempfile.gettempdir()) / "ui-shots" / "i18n"

# What a reader of each language meets, as the catalogs (locale/) say it.
WORDS = {
    "de": {
        "skip": "Zum Inhalt springen",
        "create account": "Konto anlegen",
        "new army": "Neue Armee",
        "create army": "Armee erstellen",
        "add unit": "Einheit hinzufügen",
        "start blank": "Leer beginnen",
        "new unit": "Neue Einheit",
        "saved": "Gespeichert.",
        "share": "Freigabelink erstellen",
        "copy": "Link kopieren",
        "print": "Drucken",
    },
    "fr": {
        "skip": "Aller au contenu",
        "create account": "Créer le compte",
        "new army": "Nouvelle armée",
        "create army": "Créer l’armée",
        "add unit": "Ajouter une unité",
        "start blank": "Partir de zéro",
        "new unit": "Nouvelle unité",
        "saved": "Enregistré.",
        "share": "Créer un lien de partage",
        "copy": "Copier le lien",
        "print": "Imprimer",
    },
}

# Each system's army: its name, and a stat the editor changes on a blank unit.
ARMIES = {
    "gem": ("Eisenwacht", lambda form: form.locator("[name=def]").fill("5")),
    "vsgmr": ("Zwergenbund", lambda form: form.locator("[name=flavor]").select_option("troop")),
    "goms": ("Zweiter Zug", lambda form: form.locator("[name=men]").fill("8")),
    "d10": ("Trupp Kilo", lambda form: form.locator("[name=shooting]").fill("8")),
}


def in_language(page, language: str) -> None:
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.get_by_role("link", name=WORDS[language]["skip"])).to_be_attached()


def shoot(page, language: str, system: str, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for viewport in (DESK, PHONE):
        page.set_viewport_size(viewport)
        page.screenshot(
            path=SHOTS / f"{language}-{system}-{name}-{viewport['width']}.png",
            full_page=True,
            caret="initial",
        )
    page.set_viewport_size(DESK)


@pytest.mark.parametrize("language", ["de", "fr"])
def test_a_player_uses_muster_in_their_language_from_sign_up_to_printed_roster(
    page, opponent, language
):
    words = WORDS[language]
    page.set_viewport_size(DESK)
    page.goto(f"/{language}/accounts/signup/")
    in_language(page, language)
    page.locator("[name=username]").fill(f"spieler-{language}")
    page.locator("[name=email]").fill(f"spieler-{language}@example.com")
    page.locator("[name=password1]").fill("a long and sturdy passphrase")
    page.locator("[name=password2]").fill("a long and sturdy passphrase")
    page.get_by_role("button", name=words["create account"]).click()
    expect(page.get_by_test_id("username")).to_have_text(f"spieler-{language}")
    expect(page).to_have_url(re.compile(rf"/{language}/"))
    in_language(page, language)

    for system, (name, change_a_stat) in ARMIES.items():
        page.goto(f"/{language}/armies/new/")
        in_language(page, language)
        expect(page.get_by_role("heading", name=words["new army"])).to_be_visible()
        page.locator("[name=name]").fill(name)
        page.locator("[name=system]").select_option(system)
        page.get_by_role("button", name=words["create army"]).click()
        expect(page).to_have_url(re.compile(rf"/{language}/armies/\d+/$"))
        in_language(page, language)

        page.get_by_role("link", name=words["add unit"]).click()
        picker = page.get_by_test_id("unit-picker")
        picker.get_by_role("button", name=words["start blank"]).click()
        form = page.locator("#unit-form")
        expect(form.locator("[name=name]")).to_have_value(words["new unit"])
        change_a_stat(form)
        expect(page.locator("#editor-status")).to_contain_text(words["saved"])
        expect(page.get_by_test_id("not-saved")).to_have_count(0)
        shoot(page, language, system, "builder")

        page.get_by_role("button", name=words["share"]).click()
        expect(page.get_by_role("button", name=words["copy"])).to_be_visible()
        in_language(page, language)
        link = page.locator("#share-link").input_value()
        army = re.search(r"/armies/(\d+)/", page.url).group(1)

        # The opponent, signed out, opens the link in the same language.
        assert f"/{language}/s/" in link
        opponent.goto(link)
        in_language(opponent, language)
        expect(opponent.get_by_text(name).first).to_be_visible()
        expect(opponent.get_by_text(words["new unit"]).first).to_be_visible()

        page.goto(f"/{language}/armies/{army}/roster/")
        in_language(page, language)
        expect(page.get_by_role("button", name=words["print"]).first).to_be_visible()
        shoot(page, language, system, "roster")

        page.goto(f"/{language}/armies/{army}/cards/")
        in_language(page, language)
        expect(page.get_by_test_id("roster-unit").first).to_contain_text(words["new unit"])
