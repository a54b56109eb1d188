"""How a system's unit editor is described: its fields, repeating rows and groups, as
data. Each system's module under rules/systems/ holds its Layout; the editor's form
(armies/forms.py, armies/profiles.py) reads one and builds the form from it."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from points.fields import MAX_NAME, fmt


@dataclass(frozen=True)
class Field:
    """One editor field: `key` in the profile, how it is typed, and how it is shown."""

    key: str
    label: str
    kind: str  # stat | choice | bool | int | text | lines | multi
    choices: tuple[tuple[str, str], ...] = ()
    help: str = ""
    group: str = "main"  # main | vehicle | options
    most: int = MAX_NAME  # characters a text box takes; the engine checks each value's own
    # The unit types/kinds (Layout.switch) the field is for: `only` those, or all but `not_for`.
    only: tuple[str, ...] = ()
    not_for: tuple[str, ...] = ()

    def applies(self, switch: str | None) -> bool:
        if self.only:
            return switch in self.only
        return switch not in self.not_for


@dataclass(frozen=True)
class Rows:
    """A repeating group in the profile (GEM melee and missile weapons, homebrew traits)."""

    key: str
    label: str
    fields: tuple[Field, ...]
    most: int  # rows the editor offers: as many as the file format allows
    not_for: tuple[str, ...] = ()  # unit types/kinds that cannot have any

    def applies(self, switch: str | None) -> bool:
        return switch not in self.not_for


@dataclass(frozen=True)
class Layout:
    fields: tuple[Field, ...]
    rows: tuple[Rows, ...] = ()
    groups: dict[str, str] = field(default_factory=dict)
    # The field that says what a unit is (GEM type, VSGMR and G.O.M.S. kind): which other
    # fields the editor shows follows from it (Field.applies).
    switch: str = ""


def pairs(values) -> tuple[tuple[str, str], ...]:
    return tuple((v, v.replace("-", " ").capitalize()) for v in values)


def stat_span(low: Fraction | int, high: Fraction | int) -> str:
    """A stat's allowed values as the editor shows them: 1–10, −20 to 20."""
    if low < 0:
        return f"{fmt(Fraction(low)).replace('-', '−')} to {fmt(Fraction(high))}"
    return f"{fmt(Fraction(low))}–{fmt(Fraction(high))}"


def help_text(*parts: str, only: str = "") -> str:
    return ", ".join(part for part in parts if part) + (f" ({only})" if only else "")


VEHICLE = ("vehicle",)  # the unit type/kind (GEM, G.O.M.S.) a vehicle's own fields are for
