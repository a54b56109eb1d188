"""The one place where the engine's words become the reader's language.

The engine (points/) says things as message ids with values (points.messages.Text), and
stays free of Django. `say()` translates the id with Django's gettext and writes each
number as the active language writes it (462.8, or 462,8 in German); the values that are
words (a player's unit name, a stat as typed, a seed's trait name) go in unchanged.
Templates call it as the `say` filter, and forms, the APIs, the exports and the commands
call it directly.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from django.utils.formats import number_format
from django.utils.functional import lazy
from django.utils.translation import gettext

from points.decimals import decimal_text
from points.errors import ArmyFileError
from points.messages import Text, Value, text_from_data


def say(text: object) -> str:
    """A Text in the reader's language. Stored words (points.messages.text_data: a plain
    id, or {"id", "params"}) are read first; a plain string is an id with no values, as
    rows stored before ids existed hold their English."""
    if isinstance(text, dict) or (isinstance(text, str) and not isinstance(text, Text)):
        text = text_from_data(text)
    if not isinstance(text, Text):
        return "" if text is None else str(text)
    if not text.id:  # gettext("") would answer the catalog's header
        return ""
    said = gettext(text.id)
    if not text.params:
        return said
    return said % {key: _value(value) for key, value in text.params.items()}


# say() put off until the text is shown: for words fixed when a module loads (a form's
# choices, an editor field's note), said in the language of the page that shows them.
said = lazy(say, str)


def _value(value: Value) -> str:
    if isinstance(value, Text):
        return say(value)
    if isinstance(value, str):  # words, never translated: a name, a stat as typed
        return value
    if isinstance(value, Fraction):
        written = decimal_text(value)
        if written is None:  # 1/3 stays a fraction in every language
            return f"{value.numerator}/{value.denominator}"
        return number_format(Decimal(written))
    return number_format(value)


def say_error(error: ArmyFileError) -> str:
    """A file error as the engine writes it ("units[0].profile.off: must be between 1 and
    10"), the message in the reader's language; the field's path is the file's own."""
    message = say(error.message)
    return f"{error.path}: {message}" if error.path else message
