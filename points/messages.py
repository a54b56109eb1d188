"""What the engine says, as message ids with named values, translated where it is shown.

The engine stays free of Django (SPEC 5, Languages): a breakdown line, a warning or an
error is a `Text`, whose id is the English sentence with python-format placeholders
("%(name)s leads a second command") and whose values fill them. `str(text)` is that
English, exactly as Muster has always printed it; the web side's one `say()`
(rules/words.py) translates the id and writes the numbers in the reader's language.

Every id is written inside `gettext_noop(...)`, so `makemessages` (xgettext knows that
keyword) collects the ids from points/ into the catalogs. The seeds' own terms (OFF, DEF,
HIT, trait, power and weapon names) stay in the ids as the rule book prints them, or come
in as values: translators keep them.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from points.decimals import decimal_text

type Value = str | int | Fraction | Text


def gettext_noop(message: str) -> str:
    """Marks a message id for extraction; the id itself, untranslated."""
    return message


def number_text(x: Fraction) -> str:
    """A number inside a sentence as Muster writes it in English: 10, 0.5, 1/3."""
    return decimal_text(x) or f"{x.numerator}/{x.denominator}"


class Text(str):
    """A message id and its values; as a str, the English sentence they make.

    A Text is a str (its English), so every reader that prints, compares or searches the
    engine's words keeps working in English; `id` and `params` are what a translation
    reads. Values are str (quoted as they are: a player's names, a stat as typed), int,
    Fraction (numbers the reader's language writes) or another Text (a clause).
    """

    id: str
    params: Mapping[str, Value]

    def __new__(cls, id: str, /, **params: Value) -> Text:
        english = id % {k: _english(v) for k, v in params.items()} if params else id
        self = super().__new__(cls, english)
        # Past __setattr__, which refuses: breakdowns make thousands of these a second.
        self.__dict__.update(id=id, params=params)
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a Text cannot change")

    def __repr__(self) -> str:
        args = "".join(f", {k}={v!r}" for k, v in self.params.items())
        return f"Text({self.id!r}{args})"

    def __reduce__(self) -> tuple[object, ...]:
        # str's own would make a Text of the English with no values.
        return (_rebuild, (self.id, dict(self.params)))


def _rebuild(id: str, params: dict[str, Value]) -> Text:
    return Text(id, **params)


def _english(value: Value) -> object:
    # type() rather than isinstance(): Fraction's ABC check costs several times more.
    return number_text(value) if type(value) is Fraction else value


def text_data(text: str) -> object:
    """A Text as plain JSON data: the id alone when it has no values (so a sentence
    stored before ids existed reads back as one), else {"id", "params"}, each value
    written as value_data writes it."""
    if type(text) is not Text:
        return str(text)
    if not text.params:
        return text.id
    return {"id": text.id, "params": {k: _value_data(v) for k, v in text.params.items()}}


def text_from_data(data: object) -> Text:
    """text_data read back. A plain string is a Text with no values: an id, or the
    English of a row stored before ids existed (shown as it was)."""
    if isinstance(data, str):
        return Text(data)
    assert isinstance(data, dict)
    params = {k: _value_from_data(v) for k, v in data.get("params", {}).items()}
    return Text(data["id"], **params)


def _value_data(value: Value) -> object:
    # A str value is marked with "=", as a number is written "n/d" (points.model.line_data).
    kind = type(value)
    if kind is Text:
        return {"id": value.id, "params": {k: _value_data(v) for k, v in value.params.items()}}
    if kind is Fraction:
        return f"{value.numerator}/{value.denominator}"
    if isinstance(value, str):
        return f"={value}"
    return value


def _value_from_data(data: object) -> Value:
    if isinstance(data, dict):
        return text_from_data(data)
    if isinstance(data, str):
        return data[1:] if data.startswith("=") else Fraction(data)
    assert isinstance(data, int)
    return data
