"""What the army commands (reprice, redraw) work on: every army, or the one `--army` names."""

from __future__ import annotations

from django.core.management.base import CommandError
from django.db.models import QuerySet


def chosen(armies: QuerySet, army: int | None) -> QuerySet:
    """`armies` in id order, or only the army with id `army`; a CommandError if none has it."""
    armies = armies.order_by("pk")
    if army is None:
        return armies
    armies = armies.filter(pk=army)
    if not armies.exists():
        raise CommandError(f"No army with id {army}.")
    return armies
