"""The pieces every system's cards are made of: tick boxes on a printed card, the army
panel a roster prints under its header, and a counter a table-mode card taps. Each
system's module under rules/systems/ builds its cards from these; the apps draw them."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from points.messages import Text, gettext_noop

# A fact that is so or not, said in the reader's language where shown (the `say` filter);
# as a str, the English "yes" and "no" the text exports print.
YES = Text(gettext_noop("yes"))
NO = Text(gettext_noop("no"))

# Tick boxes on one card; past this a unit tracks losses on the back of the sheet.
MAX_BOXES = 120


@dataclass(frozen=True)
class Boxes:
    """Tick boxes grouped per model (HIT points, men, force points...)."""

    label: str
    groups: tuple[range, ...]
    mark: int = 0  # the group (from 1) where something happens, e.g. the break point
    note: str = ""  # what to do for the boxes left off
    mark_label: str = ""


def tick_boxes(
    label: str, per_model: int, models: int, mark: int = 0, mark_label: str = ""
) -> Boxes:
    shown = min(models, MAX_BOXES // per_model) if per_model else 0
    left_off = models - shown
    note = (
        Text(gettext_noop("%(n)s more: keep count on the back of the sheet"), n=left_off)
        if left_off
        else ""
    )
    groups = tuple(range(per_model) for _ in range(shown))
    return Boxes(label, groups, mark, note, mark_label)


# ---------------------------------------------------------------- the roster's army panel


@dataclass(frozen=True)
class ArmyPanel:
    """Army-wide facts printed under the header: purchases, allowances, morale."""

    facts: tuple[tuple[str, str], ...] = ()
    lines: tuple[tuple[str, Fraction | str, str], ...] = ()  # label, points, note
    boxes: tuple[Boxes, ...] = ()


def no_panel(priced: object) -> ArmyPanel:
    """A roster that prints no army-wide facts."""
    return ArmyPanel()


# ---------------------------------------------------------------- a table-mode card


def counter(key: str, label: str, most: int, per: int = 0, left: str = "") -> dict:
    """One thing a card counts up from 0: `per` groups its tick boxes (HIT per model),
    `left` names what remains ("men left") when the card shows that instead."""
    return {"key": key, "label": label, "max": max(most, 0), "per": per, "left": left}
