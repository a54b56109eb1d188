"""The write path's own arithmetic: totals stay exact however they are added."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from armies.services import exact_text, sum_costs

costs = st.fractions(min_value=0, max_value=10**30).map(lambda x: x.limit_denominator(10**6))


@given(st.lists(costs, max_size=50))
def test_stored_costs_add_up_to_the_exact_sum(values):
    # Stored as decimal text where they end ("6.5"), else "n/d": either way exact.
    assert sum_costs(exact_text(v) for v in values) == sum(values, Fraction(0))


def test_a_sum_too_long_for_decimals_is_still_exact():
    huge = "9" * 40 + ".5"  # 41 digits before the point: past Decimal's usual 28
    assert sum_costs([huge, huge, "0.1"]) == 2 * Fraction(huge) + Fraction(1, 10)
    assert sum_costs(["1/3", "2/3", "6.5"]) == Fraction(15, 2)
