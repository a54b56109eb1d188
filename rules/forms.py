"""The table calculators' forms: read from the query string, so every result is a link."""

from __future__ import annotations

from django import forms

from points import d10, gem

WHOLE = "Type a whole number."
INPUT = {"class": "form-control form-control-sm", "inputmode": "numeric"}
MAX_ATT = 100  # dice thrown at once; far beyond any figure's ATT
MODIFIER_RANGE = (-10, 10)  # target-number modifiers on a d10 test
SKILL_LOW, SKILL_HIGH = d10.SKILL_RANGE


def _whole(label: str, low: int, high: int, help_text: str = "") -> forms.IntegerField:
    message = f"{label} runs from {low} to {high}."
    return forms.IntegerField(
        label=label,
        required=False,
        min_value=low,
        max_value=high,
        help_text=help_text,
        error_messages={"invalid": WHOLE, "min_value": message, "max_value": message},
        widget=forms.NumberInput(attrs={**INPUT, "min": low, "max": high}),
    )


def _unit_choice(label: str, blank: str, choices: list) -> forms.TypedChoiceField:
    return forms.TypedChoiceField(
        label=label,
        required=False,
        coerce=int,
        empty_value=None,
        choices=[("", blank), *choices],
        # One message for a unit that does not exist and one that is someone else's.
        error_messages={"invalid_choice": "Pick one of your own GEM units."},
        widget=forms.Select(attrs={"class": "form-select form-select-sm"}),
    )


class Table1Form(forms.Form):
    """An attacker and a target, each one of the player's GEM units or typed in.

    `units` is the player's own GEM units as [(army name, [(unit id, unit name)])]: only
    those ids are accepted, so another player's unit id is an invalid choice like any other.
    """

    off = _whole("OFF", 1, gem.TABLE_SIZE, "used when no attacker is picked")
    att = _whole("ATT", 1, MAX_ATT, "dice rolled; 1 if left empty")
    modifiers = forms.MultipleChoiceField(
        label="Missile modifiers",
        required=False,
        choices=[
            (m.slug, f"{m.label} ({m.roll:+d})".replace("-", "−")) for m in gem.MISSILE_MODIFIERS
        ],
        widget=forms.CheckboxSelectMultiple(attrs={"class": "form-check-input"}),
    )

    def __init__(self, *args, units: list | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        units = units or []
        self.fields["attacker"] = _unit_choice("Attacker", "— type OFF and ATT —", units)
        self.fields["target"] = _unit_choice("Target", "— type DEF —", units)
        # "def" is a Python keyword, so this field is added by name for a readable URL.
        self.fields["def"] = _whole("DEF", 1, gem.TABLE_SIZE, "used when no target is picked")
        self.order_fields(["attacker", "off", "att", "target", "def", "modifiers"])

    def clean_modifiers(self) -> list[str]:
        chosen = self.cleaned_data["modifiers"]
        try:
            gem.missile_modifier(chosen)
        except ValueError as e:
            raise forms.ValidationError(f"{str(e).capitalize()}.") from e
        return chosen


class D10ChancesForm(forms.Form):
    """One stat and its modifier; optionally an opposing stat for a contested roll."""

    stat = _whole("Stat", SKILL_LOW, SKILL_HIGH)
    modifier = _whole("Modifier", *MODIFIER_RANGE, "added to the target: +2 harder, −1 easier")
    opponent = _whole("Opposing stat", SKILL_LOW, SKILL_HIGH, "for a contested roll")
    opponent_modifier = _whole("Opposing modifier", *MODIFIER_RANGE)
