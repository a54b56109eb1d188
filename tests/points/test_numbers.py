"""Exact rounding and JSON numbers."""

from __future__ import annotations

import time
from fractions import Fraction

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from points.errors import ArmyFileError
from points.model import Line
from points.numbers import (
    decimal_places,
    decimal_text,
    exact_sum,
    parse_number,
    round_half_up,
    to_number,
    typed_decimal,
)


@pytest.mark.parametrize(
    ("exact", "rounded"),
    [
        (Fraction(21, 4), Fraction(53, 10)),  # 5.25 -> 5.3, where round() gives 5.2
        (Fraction(163, 25), Fraction(65, 10)),  # 6.52 -> 6.5
        (Fraction(5057, 200), Fraction(253, 10)),  # 25.285 -> 25.3
        (Fraction(1, 20), Fraction(1, 10)),  # 0.05 -> 0.1
        (Fraction(-21, 4), Fraction(-53, 10)),  # halves go away from zero
        (Fraction(7), Fraction(7)),
    ],
)
def test_round_half_up_to_one_decimal(exact: Fraction, rounded: Fraction):
    assert round_half_up(exact, 1) == rounded


def test_round_half_up_to_whole_numbers():
    assert round_half_up(Fraction(5, 2), 0) == 3


def test_python_round_would_get_the_block_of_18_wrong():
    # Why round_half_up exists: banker's rounding of 5.25 gives 5.2.
    assert round(5.25, 1) == 5.2


@pytest.mark.parametrize(
    ("value", "number"),
    [
        (Fraction(13, 2), 6.5),
        (Fraction(1, 2), 0.5),
        (Fraction(28), 28),
        (Fraction(163, 25), 6.52),
    ],
)
def test_to_number_gives_int_when_whole_else_the_decimal(value: Fraction, number: object):
    assert to_number(value) == number
    assert type(to_number(value)) is type(number)


@given(st.integers(-(10**30), 10**30), st.integers(1, 40), st.integers(0, 40))
def test_a_decimal_is_written_as_the_float_its_digits_read_as(n, twos, fives):
    # 0.1 + 0.2 style surprises must not appear: the JSON number is the float nearest
    # the exact value, the one a reader of its decimal digits gets.
    x = Fraction(n, 2**twos * 5**fives)
    assume(x.denominator != 1)
    assert to_number(x) == float(decimal_text(x))


def test_bool_is_not_a_number():
    with pytest.raises(ArmyFileError, match=r"^points_limit: must be a number$"):
        parse_number(True, "points_limit")


def test_numeric_string_is_read_exactly():
    assert parse_number(" 2.5 ", "x") == Fraction(5, 2)


fractions = st.fractions(max_denominator=10**6).filter(lambda x: abs(x) < 10**9)


@given(st.lists(fractions, max_size=300), fractions)
def test_exact_sum_is_the_exact_total(values: list[Fraction], start: Fraction):
    # An army's total: no rounding, whatever the mix of denominators.
    assert exact_sum(values, start) == sum(values, start)
    assert exact_sum(iter(values)) == sum(values, Fraction(0))


def test_exact_sum_of_tenths_and_thirds():
    # 0.1 × 3 + 1/3 × 3 = 1.3 exactly; floats would give 1.3000000000000003.
    parts = [Fraction(1, 10)] * 3 + [Fraction(1, 3)] * 3
    assert exact_sum(parts) == Fraction(13, 10)
    assert exact_sum([], Fraction(5, 2)) == Fraction(5, 2)


def _places_by_division(x: Fraction) -> int | None:
    """decimal_places by its definition: strip the twos and fives one at a time."""
    d, twos, fives = x.denominator, 0, 0
    while d % 2 == 0:
        d, twos = d // 2, twos + 1
    while d % 5 == 0:
        d, fives = d // 5, fives + 1
    return max(twos, fives) if d == 1 else None


@given(
    st.integers(-(10**9), 10**9),
    st.integers(0, 400),
    st.integers(0, 400),
    st.sampled_from([1, 1, 1, 3, 7, 9, 21, 10**6 + 3]),
)
def test_decimal_places_is_the_count_of_decimals_a_number_needs(n, twos, fives, other):
    x = Fraction(n, 2**twos * 5**fives * other)

    assert decimal_places(x) == _places_by_division(x)


@given(
    st.integers(-(10**9), 10**9),
    st.integers(0, 400),
    st.integers(0, 400),
    st.sampled_from([1, 1, 1, 3, 7, 9, 21, 10**6 + 3]),
)
def test_a_breakdown_value_is_a_plain_number_up_to_six_decimals_else_also_exact(
    n, twos, fives, other
):
    x = Fraction(n, 2**twos * 5**fives * other)
    places = _places_by_division(x)

    written = Line("V = value", x).to_json()

    if places is not None and places <= 6:
        assert "exact" not in written
        assert written["value"] == float(decimal_text(x))
    else:
        assert written["exact"] == f"{x.numerator}/{x.denominator}"
        assert written["value"] == round(float(x), 4)


@pytest.mark.parametrize(
    ("x", "places"),
    [(Fraction(1, 3), None), (Fraction(5, 2), 1), (Fraction(1, 80), 4), (Fraction(7), 0)],
)
def test_decimal_places_of_plain_numbers(x, places):
    assert decimal_places(x) == places


def test_a_number_with_a_hundred_thousand_decimals_is_measured_at_once():
    # Products of posted 63-decimal stats have denominators of 10**400 and more: counting
    # their twos and fives one division at a time cost /api/price/ seconds per army.
    x = Fraction(3, 2**100_000 * 5**99_999)
    started = time.process_time()

    places, text = decimal_places(x), decimal_text(Fraction(1, 10**20_000))

    assert time.process_time() - started < 0.5  # 7 ms; dividing one at a time took 13 s
    assert places == 100_000
    assert text == "0." + "0" * 19_999 + "1"


# Numbers as a player may type them: sign, leading and trailing zeros, a bare point.
typed_numbers = st.builds(
    lambda sign, whole, point, decimals: f"{sign}{whole}{point}{decimals}",
    st.sampled_from(["", "+", "-"]),
    st.from_regex(r"[0-9]{0,4}", fullmatch=True),
    st.sampled_from(["", "."]),
    st.from_regex(r"[0-9]{0,62}", fullmatch=True),
).filter(lambda t: any(c.isdigit() for c in t))


@given(typed_numbers, st.sampled_from(["", " "]))
def test_typed_numbers_read_and_show_their_exact_value(text: str, pad: str):
    raw = f"{pad}{text}{pad}"
    assert parse_number(raw, "off") == Fraction(text)
    assert typed_decimal(raw) == decimal_text(Fraction(text))


@pytest.mark.parametrize(
    ("raw", "shown"),
    [("-03.10", "-3.1"), ("+.50", "0.5"), ("-0.00", "0"), ("7.", "7"), (2.50, "2.5"), (12, "12")],
)
def test_a_typed_number_is_shown_without_its_padding(raw: object, shown: str):
    assert typed_decimal(raw) == shown


@pytest.mark.parametrize("raw", ["2d6+8", "d3", 1e-05, True, None])
def test_dice_and_exponents_are_not_typed_decimals(raw: object):
    assert typed_decimal(raw) is None
