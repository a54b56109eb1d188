"""No English sentence of Muster's own on a German or French page (issue #47): for one army
of each system, the builder with a unit open, the roster, the share page and its roster,
the army list, the fight calculator (and a unit's door to it), each rules page and the
interpretations page are drawn in German and in French, and their visible text may hold
none of the English phrases the catalogs translate.

A phrase is a piece of a translated msgid of three words or more, its placeholders taken
out (`%(rule)s cost %(n)s` is checked as the piece "cost" alone: too short). A piece the
translation keeps as it is (a name) is no English sentence. Player text cannot set it
off: the armies' and units' names here are not English."""

from __future__ import annotations

import ast
import re
from functools import cache
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from armies import services
from rules.models import RuleEntry, SampleArmy
from tests.factories import ArmyFactory, UnitFactory, UserFactory

pytestmark = pytest.mark.django_db

LANGUAGES = ["de", "fr"]
LOCALE = Path(settings.BASE_DIR) / "locale"

# One army per system, its units named in no English, each over its points limit (an
# error the builder, the roster and the share page say) and with what draws a rule's
# words: traits, armour, weapons, a vehicle's class.
ARMIES = {
    "gem": (
        "Eisenwacht",
        30,
        [
            ("Schwertkämpfer", 2, {"type": "skirmisher", "base": "25mm", "off": 4, "def": 4}),
            (
                "Bogenschütze",
                1,
                {
                    "type": "skirmisher",
                    "base": "25mm",
                    "off": 3,
                    "def": 3,
                    "missile": [{"name": "Bogen", "off": 4, "range": 24}],
                },
            ),
            (
                "Panzerwagen",
                1,
                {"type": "vehicle", "base": "huge", "def": 9, "hit": 6, "max_speed": 12},
            ),
        ],
    ),
    "vsgmr": (
        "Zwergenbund",
        3,
        [
            (
                "Thorgrimm",
                1,
                {"kind": "guy", "flavor": "hero", "commander": True, "traits": ["tough"]},
            ),
            (
                "Armbrustzwerge",
                3,
                {"kind": "guy", "flavor": "troop", "distance_attack": True, "armor": "light"},
            ),
        ],
    ),
    "goms": (
        "Zweiter Zug",
        5,
        [
            ("Erste Gruppe", 4, {"kind": "rifle-section"}),
            ("Zugtrupp", 1, {"kind": "platoon-hq", "morale": "veteran"}),
            ("Kampfwagen", 1, {"kind": "vehicle", "vehicle_class": "medium"}),
        ],
    ),
    "d10": (
        "Trupp Kilo",
        3,
        [
            (
                "Feldwebel Hale",
                1,
                {"leader": True, "shooting": 7, "defence": 12, "weapons": ["Carbine/AR"]},
            ),
            ("Schützen", 3, {"weapons": ["Carbine/AR"]}),
        ],
    ),
}

# Side B of the fight calculator, from the system's sample army (rules/samples/).
OPPONENT = {"gem": "border-warband:1", "vsgmr": "orcs:0", "d10": "rifle-squad:0"}


def _unquote(text: str) -> str:
    return ast.literal_eval(f'"{text}"')


@cache
def english_phrases(language: str) -> dict[str, str]:
    """Every piece of three words or more of a msgid the language translates otherwise,
    each with the msgid it comes from."""
    po = LOCALE / language / "LC_MESSAGES" / "django.po"
    phrases = {}
    for block in po.read_text(encoding="utf-8").split("\n\n"):
        entry: dict[str, str] = {}
        field = None
        for line in block.splitlines():
            if found := re.match(r'^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?) "(.*)"$', line):
                field = found.group(1)
                entry[field] = _unquote(found.group(2))
            elif line.startswith('"') and field:
                entry[field] += _unquote(line[1:-1])
        translated = " ".join(v for k, v in entry.items() if k.startswith("msgstr"))
        for key in ("msgid", "msgid_plural"):
            english = entry.get(key, "")
            if not english or english == translated:
                continue
            # Placeholders (%(x)s, %s, {x}) and markup split a msgid into literal pieces.
            for piece in re.split(
                r"%(?:\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?[sdfr%]|\{[^}]*\}|<[^>]*>", english
            ):
                piece = " ".join(piece.split()).strip(" .,:;!?…()\"'«»“”-–—")
                if len(re.findall(r"[A-Za-z]+", piece)) >= 3 and piece not in translated:
                    phrases[piece] = english
    return phrases


class VisibleText(HTMLParser):
    """A page's text as a reader meets it, without scripts and styles, with the words a
    title, aria-label, placeholder or alt attribute says; a block's end is a space."""

    SKIPPED = {"script", "style"}
    SAID = ("title", "aria-label", "placeholder", "alt")
    INLINE = {"a", "abbr", "b", "code", "em", "i", "kbd", "small", "span", "strong", "sub", "sup"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag, attrs):
        if tag in self.SKIPPED:
            self.skipping += 1
        if tag not in self.INLINE:
            self.parts.append(" ")
        for name, value in attrs:
            if name in self.SAID and value:
                self.parts.append(f" {value} ")

    def handle_endtag(self, tag):
        if tag in self.SKIPPED:
            self.skipping = max(0, self.skipping - 1)
        if tag not in self.INLINE:
            self.parts.append(" ")

    def handle_data(self, data):
        if not self.skipping:
            self.parts.append(data)

    @classmethod
    def of(cls, html: str) -> str:
        parser = cls()
        parser.feed(html)
        parser.close()
        return " ".join("".join(parser.parts).split())


def catalog_words() -> list[str]:
    """The rules catalog's own words (rules.models: each entry's name, summary and the
    words in its data; the sample armies' names and blurbs). They are stored in the
    database in English, not in the catalogs this test reads (docs/languages.md), so
    they are taken out of a page's text before it is searched."""
    words: list[str] = []

    def gather(value: object) -> None:
        if isinstance(value, str):
            words.append(" ".join(value.split()))
        elif isinstance(value, dict):
            for item in value.values():
                gather(item)
        elif isinstance(value, list | tuple):
            for item in value:
                gather(item)

    for entry in RuleEntry.objects.all():
        gather([entry.name, entry.summary, entry.data])
    for sample in SampleArmy.objects.all():
        gather([sample.name, sample.blurb])
    return sorted((w for w in set(words) if len(w.split()) >= 2), key=len, reverse=True)


def english_on(html: str, language: str, left_out: list[str] = ()) -> list[str]:
    """Each English phrase found on the page, with the text around it."""
    text = VisibleText.of(html)
    for words in left_out:
        text = text.replace(words, " · ")
    found = []
    for phrase in english_phrases(language):
        if seen := re.search(rf"(?<![\w-]){re.escape(phrase)}(?![\w-])", text):
            found.append(f"{phrase!r} in “…{text[seen.start() - 40 : seen.end() + 40]}…”")
    return sorted(found)


def check(pages: dict[str, str], language: str) -> None:
    """Every page answers in `language`, with no English phrase of Muster's on it."""
    found = []
    catalog = catalog_words()
    for name, html in pages.items():
        assert f'<html lang="{language}"' in html, f"{name} is not drawn in {language}"
        found += [f"{name}: {phrase}" for phrase in english_on(html, language, catalog)]
    assert not found, f"English on {language} pages:\n" + "\n".join(found)


def fetch(client: Client, path: str) -> str:
    response = client.get(path, follow=True)
    assert response.status_code == 200, path
    return response.text


def the_army(system: str):
    name, limit, units = ARMIES[system]
    army = ArmyFactory(
        owner=UserFactory(username="spielerin"), system=system, name=name, points_limit=limit
    )
    for unit_name, quantity, profile in units:
        UnitFactory(army=army, name=unit_name, quantity=quantity, profile=profile)
    # Drawn and stored in English first, as another reader's page would leave them.
    services.redraw_army(army)
    return army


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("system", list(ARMIES))
def test_an_armys_pages_hold_no_english_sentence(client, language, system):
    army = the_army(system)
    client.force_login(army.owner)
    token = services.share_army(army)
    reader = Client()
    at = f"/{language}"
    pages = {}
    for unit in army.units.order_by("position"):
        pages[f"{system} builder, {unit.name} open"] = fetch(
            client, f"{at}/armies/{army.pk}/?unit={unit.pk}"
        )
    pages[f"{system} roster"] = fetch(client, f"{at}/armies/{army.pk}/roster/")
    pages[f"{system} army list"] = fetch(client, f"{at}/armies/")
    pages[f"{system} share page"] = fetch(reader, f"{at}/s/{token}/")
    pages[f"{system} shared roster"] = fetch(reader, f"{at}/s/{token}/roster/")
    pages[f"{system} rules"] = fetch(reader, f"{at}/rules/{system}/")
    if system in OPPONENT:
        first = army.units.order_by("position").first()
        pages[f"{system} fight, side A"] = fetch(
            client, f"{at}/armies/{army.pk}/units/{first.pk}/fight/"
        )
        pages[f"{system} fight"] = fetch(
            client, f"{at}/rules/{system}/fight/?a_unit={first.pk}&b_catalog={OPPONENT[system]}"
        )
        pages[f"{system} shared fight"] = fetch(reader, f"{at}/s/{token}/units/{first.pk}/fight/")
    check(pages, language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_rules_pages_hold_no_english_sentence(client, language):
    at = f"/{language}"
    pages = {
        "interpretations": fetch(client, f"{at}/rules/interpretations/"),
        "GEM table 1": fetch(client, f"{at}/rules/gem/table-1/"),
        "d10 chances": fetch(client, f"{at}/rules/d10/chances/"),
        "empty fight calculator": fetch(client, f"{at}/rules/gem/fight/"),
    }
    check(pages, language)


def test_the_check_finds_an_english_sentence_muster_translates():
    # The check itself: an English page of Muster's holds phrases it would report.
    (found,) = english_on(
        '<html lang="de"><p>Skip to content</p><p title="Skip to content">x</p></html>', "de"
    )
    assert found.startswith("'Skip to content' in")
    assert english_on('<html lang="de"><script>"Skip to content"</script></html>', "de") == []
