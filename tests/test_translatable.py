"""Every sentence Muster says on the app's pages is marked for translation (issue #47).

Each template under the app folders is read the way Django reads it; what is left once
tags, variables, comments and translate blocks are taken out, and once the HTML's markup
is set aside, is what a player would read untranslated. It may hold only punctuation,
numbers and the rule books' own terms, which stay as printed so a player can look them up.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.template.base import Lexer, TokenType

from tests.samples import ROOT

FOLDERS = ("armies", "sharing", "table", "odds", "rules", "crispy")
TEMPLATES = sorted(
    path for folder in FOLDERS for path in (ROOT / "templates" / folder).glob("**/*.html")
)
# Attributes a player reads or hears (a screen reader speaks aria-label and title), and
# words the scripts put on the page (the print header, the copy button, table mode).
SPOKEN = {"title", "aria-label", "placeholder", "alt"}
SPOKEN |= {"data-copy-label", "data-print-header", "data-broken-text"}
# The seed's terms and dice, as the rule books print them (issue #47 item 3).
SEED_TERMS = {
    *("OFF", "DEF", "HIT", "ATT", "MOR", "SIZ", "AP", "RNG", "CQB", "DAM", "WND", "VAL"),
    *("d", "D", "d6", "d10", "D6", "D10", "GEM", "VSGMR", "G.O.M.S.", "GOMS"),
    *("B", "O", "M", "V"),  # the GEM formula's letters (base, offence, multiplier, value)
}
SKIPPED_BLOCKS = {"blocktranslate": "endblocktranslate", "comment": "endcomment"}
# Blocks that fill an attribute of base.html rather than say something: <main class="…">.
CLASS_BLOCKS = {"block main_class"}


class _Said(HTMLParser):
    """Collects the text and the spoken attributes of a page, leaving scripts and styles."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.said: list[str] = []
        self._code = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "pre"):
            self._code += 1
        self.said += [value for name, value in attrs if name in SPOKEN and value]

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "pre"):
            self._code -= 1

    def handle_data(self, data: str) -> None:
        if not self._code:
            self.said.append(data)


def unmarked_words(source: str) -> list[str]:
    """The words of a template a player would read that no translate tag holds."""
    kept: list[str] = []
    until = None
    for token in Lexer(source).tokenize():
        name = token.contents.split(" ", 1)[0] if token.token_type == TokenType.BLOCK else ""
        if until:
            until = None if name == until else until
        elif name in SKIPPED_BLOCKS:
            until = SKIPPED_BLOCKS[name]
        elif token.token_type == TokenType.BLOCK and token.contents in CLASS_BLOCKS:
            until = "endblock"
        elif token.token_type == TokenType.TEXT:
            kept.append(token.contents)
        elif token.token_type == TokenType.VAR:
            kept.append("0")  # a value stands where a word of its own would
    parser = _Said()
    parser.feed("".join(kept))
    parser.close()
    words = re.findall(r"[^\W\d_][\w.']*", " ".join(parser.said))
    return [w for w in words if w.strip(".'") not in SEED_TERMS]


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: str(p.relative_to(ROOT / "templates")))
def test_template_says_nothing_unmarked(path):
    assert unmarked_words(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: str(p.relative_to(ROOT / "templates")))
def test_no_english_hides_in_a_filters_default(path):
    # {{ name|default:"the owner" }} prints words no translate tag holds: a template says
    # {% translate "the owner" as the_owner %} and |default:the_owner instead.
    source = path.read_text(encoding="utf-8")
    assert re.findall(r"""default:["'][^"']*[^\W\d_]{2}""", source) == []


def test_an_unmarked_sentence_is_found():
    # The check itself: English outside a tag is caught, in text and in what is spoken.
    assert unmarked_words('<p title="Drag me">{% translate "Saved" %} Total {{ n }}</p>') == [
        "Drag",
        "me",
        "Total",
    ]
    assert unmarked_words("{% blocktranslate %}{{ n }} pts{% endblocktranslate %} × 2") == []
