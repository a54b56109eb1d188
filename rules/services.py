"""Writes to the catalog: a sample army is priced as it is stored (SPEC 7)."""

from __future__ import annotations

from rules.models import SampleArmy, price_sample


def save_sample(sample: SampleArmy) -> None:
    """Store `sample` with the total and figure count of the army it now holds."""
    sample.total, sample.figures = price_sample(sample.army)
    sample.save()
