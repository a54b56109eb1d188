"""Hostile input: what a careless or malicious player might type, paste or send."""

from __future__ import annotations

import json
import os

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

# What every fuzzing test runs under: requests through the Django test client are slow,
# share fixtures across examples and send large bodies on purpose. An example here is a
# request or several (tens of milliseconds, where an engine example takes microseconds),
# so the everyday `ci` profile (conftest.py) runs half its 30: the same 15 every run, as
# it is derandomised, beside the plain tests of what fuzzing found (test_regressions.py).
# HYPOTHESIS_PROFILE=thorough, the profile for finding something new, runs all its 400.
_EVERYDAY = os.environ.get("HYPOTHESIS_PROFILE", "ci") == "ci"
FUZZING = settings(
    max_examples=15 if _EVERYDAY else settings.default.max_examples,
    deadline=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)

NASTY = [
    "",
    " ",
    "\x00",
    "4\x00",
    "\r\n",
    "\t4",
    " 4 ",
    "+4",
    "-0",
    "4.",
    ".5",
    "1/2",
    "1_000",
    "0x10",
    "1e3",
    "1e308",
    "-1e308",
    "1e309",
    "nan",
    "NaN",
    "inf",
    "-Infinity",
    str(10**400),
    "9" * 5000,  # past Python's 4300-digit int conversion limit
    "99999999999999999999",
    "9223372036854775808",
    "2147483648",
    # Dice bombs and almost-dice.
    "1000d1000",
    "100d1000+100d1000+100d1000",
    "101d6",
    "d6",
    "D6",
    "d0",
    "0d6",
    "d1",
    "2d6+",
    "d",
    "dd6",
    "2d6+8",
    "-2d6",
    "1d" + "9" * 60,
    # Digits that are not ASCII.
    "٣",
    "²",
    "¹⁰",
    "４",
    "𝟜",
    "Ⅻ",
    "\u202e4",
    "\ufeff4",
    "4\u200b",
    "\ud7ff",
    "null",
    "true",
    "[]",
    "{}",
    "'; DROP TABLE armies_army;--",
    "<script>alert(1)</script>",
    "{{7*7}}",
    "%s%n",
    "../../etc/passwd",
    "x" * 100_000,
]

hostile_text = st.one_of(
    st.sampled_from(NASTY),
    st.text(max_size=30),
    st.integers(min_value=-(10**25), max_value=10**25).map(str),
    st.floats().map(repr),
    st.from_regex(r"[0-9]{0,4}[dD][0-9]{0,5}([+-][0-9]{0,4}[dD]?[0-9]{0,4}){0,3}", fullmatch=True),
    st.text(alphabet=st.characters(categories=["Nd", "No", "Nl"]), min_size=1, max_size=4),
)

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=10**300, max_value=10**400),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([1e308, -1e308, 5e-324, 0.1, 12.25]),
    hostile_text.filter(lambda s: len(s) < 10_000),
)

json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=12), inner, max_size=4)
    ),
    max_leaves=20,
)


def deep(levels: int, kind: str) -> str:
    """JSON nested `levels` deep: a parser that recurses will run out of stack."""
    if kind == "list":
        return "[" * levels + "]" * levels
    return '{"a":' * levels + "1" + "}" * levels


bodies = st.one_of(
    json_values.map(json.dumps),
    st.sampled_from(
        [
            deep(10_000, "list"),
            deep(10_000, "dict"),
            deep(100_000, "list"),
            "[" * 50_000,
            "1e400",
            "-1e400",
            "9" * 5000,
            '{"name": "' + "9" * 5000 + '"}',
            "NaN",
            "Infinity",
            '{"a": NaN}',
            '"\\ud800"',
            '{"\\u0000": "\\u0000"}',
            "\x00",
            "",
            "   ",
        ]
    ),
    hostile_text,
)


def _slots(node: object):
    """Every (container, key) in a JSON document, so any value can be swapped out."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield node, key
            yield from _slots(value)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield node, i
            yield from _slots(value)


@st.composite
def broken_army(draw: st.DrawFn) -> dict:
    """A valid army file with one to three values swapped for hostile ones."""
    from tests.points.strategies import army_file

    doc = draw(army_file())
    for _ in range(draw(st.integers(1, 3))):
        container, key = draw(st.sampled_from(list(_slots(doc))))
        container[key] = draw(json_values)
    if isinstance(doc.get("units"), list) and draw(st.booleans()):
        doc["units"] = doc["units"] * draw(st.integers(1, 50))
    return doc
