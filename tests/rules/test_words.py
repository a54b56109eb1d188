"""rules.words.say: where the engine's message ids become the reader's language (SPEC 5,
Languages). Muster's own catalogs come later; a tiny stand-in catalog shows that an id is
translated, its numbers written the language's way and a player's words left alone."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from django.template import Context, Template
from django.utils import translation

import points
from points.messages import Text, text_data
from rules import words
from tests.samples import VSGMR_SAMPLES

# A German line or two, as a catalog would hold them; the seed's terms stay as printed.
GERMAN = {
    "The army costs %(total)s points, %(over)s over its limit of %(limit)s.": (
        "Die Armee kostet %(total)s Punkte, %(over)s über ihrem Limit von %(limit)s."
    ),
    "Trait: %(trait)s": "Eigenschaft: %(trait)s",
    "%(name)s is a guy; only cavalry and vehicles can be Independent.": (
        "%(name)s ist ein guy; nur cavalry und vehicles können Independent sein."
    ),
    "must be between %(low)s and %(high)s": "muss zwischen %(low)s und %(high)s liegen",
    "Each round each side has the initiative half the time and attacks first.": (
        "In jeder Runde hat jede Seite die halbe Zeit die Initiative und greift zuerst an."
    ),
}


@pytest.fixture
def german(monkeypatch):
    """German active, with the stand-in catalog in place of Django's gettext."""
    monkeypatch.setattr(words, "gettext", lambda message: GERMAN.get(message, message))
    with translation.override("de"):
        yield


OVER = Text(
    "The army costs %(total)s points, %(over)s over its limit of %(limit)s.",
    total=Fraction(9257, 20),
    over=Fraction(1257, 20),
    limit=Fraction(400),
)


def test_english_reads_exactly_as_the_engine_writes_it():
    with translation.override("en"):
        assert words.say(OVER) == "The army costs 462.85 points, 62.85 over its limit of 400."


def test_german_translates_the_sentence_and_writes_its_numbers_with_a_comma(german):
    assert words.say(OVER) == "Die Armee kostet 462,85 Punkte, 62,85 über ihrem Limit von 400."


def test_a_seed_term_and_a_players_name_stay_as_written(german):
    assert words.say(Text("Trait: %(trait)s", trait="Tough")) == "Eigenschaft: Tough"
    said = Text(
        "%(name)s is a guy; only cavalry and vehicles can be Independent.", name="Thane 1.5"
    )
    # The name is a word: its "1.5" is not a number to write again.
    assert words.say(said) == (
        "Thane 1.5 ist ein guy; nur cavalry und vehicles können Independent sein."
    )


def test_a_fraction_that_never_ends_stays_a_fraction(german):
    third = Text("must be between %(low)s and %(high)s", low=Fraction(1, 3), high=Fraction(5, 2))
    assert words.say(third) == "muss zwischen 1/3 und 2,5 liegen"


def test_stored_words_are_said_as_the_live_ones(german):
    assert words.say(text_data(OVER)) == words.say(OVER)
    # A row stored before ids existed holds English, which reads as it always has.
    assert words.say("The army has no leader.") == "The army has no leader."


def test_the_say_filter_escapes_a_players_words():
    template = Template("{% load muster %}{{ said|say }}")
    said = Text("Trait: %(trait)s", trait="<b>Brave</b>")
    assert template.render(Context({"said": said})) == "Trait: &lt;b&gt;Brave&lt;/b&gt;"


@pytest.mark.django_db
def test_the_price_api_says_its_messages_but_keeps_its_field_names_and_codes(client, german):
    dwarves = json.loads((VSGMR_SAMPLES / "dwarves.json").read_text(encoding="utf-8"))
    body = json.dumps(dwarves | {"points_limit": 20})
    out = client.post("/api/price/", data=body, content_type="application/json").json()
    [over] = out["errors"]
    assert over["code"] == "over-limit"
    assert over["message"] == "Die Armee kostet 28 Punkte, 8 über ihrem Limit von 20."
    trait_lines = [
        line["label"]
        for unit in out["units"]
        for line in unit["breakdown"]
        if "Tough" in line["label"]
    ]
    assert trait_lines and set(trait_lines) == {"Eigenschaft: Tough"}


@pytest.mark.django_db
def test_the_price_api_says_a_file_error_after_its_field(client, german):
    body = json.dumps(
        {
            "name": "A",
            "system": "gem",
            "units": [
                {"name": "B", "profile": {"type": "block", "base": "20mm", "off": 11, "def": 1}}
            ],
        }
    )
    out = client.post("/api/price/", data=body, content_type="application/json").json()
    assert out == {"error": "units[0].profile.off: muss zwischen 1 und 10 liegen"}


def test_the_engine_alone_still_answers_in_english():
    """points/ never translates: its JSON is English whatever language is active."""
    text = (VSGMR_SAMPLES / "dwarves.json").read_text(encoding="utf-8")
    with translation.override("de"):
        out = points.price_army(points.loads(text)).to_json()
    assert {line["label"] for u in out["units"] for line in u["breakdown"]} >= {"Trait: Tough"}


@pytest.mark.django_db
def test_the_fight_api_says_its_working(client, german):
    troop = {"profile": {"kind": "guy", "flavor": "troop"}}
    body = json.dumps({"system": "vsgmr", "a": troop, "b": troop})
    out = client.post("/api/fight/", data=body, content_type="application/json").json()
    assert (
        "In jeder Runde hat jede Seite die halbe Zeit die Initiative und greift zuerst an."
        in out["lines"]
    )
    assert out["a_wins"] == out["b_wins"]  # the numbers are the engine's, untouched


def test_a_blank_note_stays_blank_in_any_language(german):
    """gettext("") answers a catalog's header: a line without a note must not show it."""
    assert words.say(Text("")) == "" and words.say("") == "" and words.say(None) == ""
