"""The table calculators' forms: read from the query string, so every result is a link."""

from __future__ import annotations

from crispy_forms.helper import FormHelper
from crispy_forms.layout import HTML, Div, Field, Fieldset, Layout
from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from points import d10, fights, gem
from points.fields import MAX_NAME
from rules.systems import SYSTEM_PAGES
from rules.words import said, say

WHOLE = _("Type a whole number.")
INPUT = {"class": "form-control form-control-sm", "inputmode": "numeric"}
MAX_ATT = 100  # dice thrown at once; far beyond any figure's ATT
MODIFIER_RANGE = (-10, 10)  # target-number modifiers on a d10 test
SKILL_LOW, SKILL_HIGH = d10.SKILL_RANGE


class NotedFieldset(Fieldset):
    """A group of fields under a legend, with an optional note in small print beside it
    ("Contested by (optional)"), drawn by templates/crispy/fieldset.html."""

    def __init__(self, legend: str, *fields, note: str = "", **kwargs) -> None:
        super().__init__(legend, *fields, template="crispy/fieldset.html", **kwargs)
        self.note = note


def fields_helper(*layout) -> FormHelper:
    """A crispy helper that lays out only a form's fields, each drawn by
    armies/_field.html with its message box beside it; the page draws the <form>, its
    buttons and any form-wide messages."""
    helper = FormHelper()
    helper.form_tag = False
    helper.disable_csrf = True
    helper.form_show_errors = False  # each field's messages show in its own box
    helper.include_media = False
    helper.field_template = "armies/_field.html"
    helper.layout = Layout(*layout)
    return helper


def _pair(*names: str) -> Div:
    return Div(*(Div(name, css_class="col-6") for name in names), css_class="row g-2")


def _whole(label: str, low: int, high: int, help_text: str = "") -> forms.IntegerField:
    message = format_lazy(_("{label} runs from {low} to {high}."), label=label, low=low, high=high)
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
        error_messages={"invalid_choice": _("Pick one of your own GEM units.")},
        widget=forms.Select(attrs={"class": "form-select form-select-sm"}),
    )


class Table1Form(forms.Form):
    """An attacker and a target, each one of the player's GEM units or typed in.

    `units` is the player's own GEM units as [(army name, [(unit id, unit name)])]: only
    those ids are accepted, so another player's unit id is an invalid choice like any other.
    """

    off = _whole("OFF", 1, gem.TABLE_SIZE, _("used when no attacker is picked"))
    att = _whole("ATT", 1, MAX_ATT, _("dice rolled; 1 if left empty"))
    modifiers = forms.MultipleChoiceField(
        label=_("Missile modifiers"),
        required=False,
        choices=[
            (m.slug, format_lazy("{} ({})", said(m.label), f"{m.roll:+d}".replace("-", "−")))
            for m in gem.MISSILE_MODIFIERS
        ],
        widget=forms.CheckboxSelectMultiple(attrs={"class": "form-check-input"}),
    )

    def __init__(self, *args, units: list | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        units = units or []
        self.fields["attacker"] = _unit_choice(_("Attacker"), _("— type OFF and ATT —"), units)
        self.fields["target"] = _unit_choice(_("Target"), _("— type DEF —"), units)
        # "def" is a Python keyword, so this field is added by name for a readable URL.
        self.fields["def"] = _whole("DEF", 1, gem.TABLE_SIZE, _("used when no target is picked"))
        self.order_fields(["attacker", "off", "att", "target", "def", "modifiers"])
        self.has_units = bool(units)

    @property
    def sides_helper(self) -> FormHelper:
        """The attacker and the target, each picked from the player's own GEM units (when
        there are any, or a refused pick to show) or typed in."""

        def side(legend: str, picker: str, *typed: str) -> NotedFieldset:
            cells = (
                [Div(picker, css_class="col-12")] if self.has_units or self[picker].errors else []
            )
            cells += [Div(name, css_class="col-6") for name in typed]
            return NotedFieldset(legend, Div(*cells, css_class="row g-2"), css_class="col-md-6")

        sides = (side(_("Attacker"), "attacker", "off", "att"), side(_("Target"), "target", "def"))
        return fields_helper(Div(*sides, css_class="row g-3"))

    @property
    def modifiers_helper(self) -> FormHelper:
        """The missile modifiers, drawn after the page's note on the pickers."""
        note = _("added to each die a missile weapon rolls")
        return fields_helper(
            NotedFieldset(_("Missile modifiers"), "modifiers", note=note, css_class="mt-3")
        )

    def clean_modifiers(self) -> list[str]:
        chosen = self.cleaned_data["modifiers"]
        try:
            gem.missile_modifier(chosen)
        except ValueError as e:
            raise forms.ValidationError(f"{str(e).capitalize()}.") from e
        return chosen


class D10ChancesForm(forms.Form):
    """One stat and its modifier; optionally an opposing stat for a contested roll."""

    stat = _whole(_("Stat"), SKILL_LOW, SKILL_HIGH)
    modifier = _whole(
        _("Modifier"), *MODIFIER_RANGE, _("added to the target: +2 harder, −1 easier")
    )
    opponent = _whole(_("Opposing stat"), SKILL_LOW, SKILL_HIGH, _("for a contested roll"))
    opponent_modifier = _whole(_("Opposing modifier"), *MODIFIER_RANGE)

    @property
    def helper(self) -> FormHelper:
        return fields_helper(
            Div(
                NotedFieldset(
                    _("The roll (the active model)"),
                    _pair("stat", "modifier"),
                    css_class="col-md-6",
                ),
                NotedFieldset(
                    _("Contested by"),
                    _pair("opponent", "opponent_modifier"),
                    note=_("optional"),
                    css_class="col-md-6",
                ),
                css_class="row g-3",
            )
        )


MAX_PROFILE_TEXT = 4000  # a typed profile as JSON; a real one is a few hundred characters
MAX_QUANTITY = 1000
SIDE_NAMES = {"a": _("Side A"), "b": _("Side B")}
# d10's choice of who acts first (fights.FIRSTS), as the calculator offers it.
# The kinds of fight (fights.FIGHTS) as the calculator offers them.
FIGHT_WORDS = {"hand-to-hand": _("Hand to hand"), "distance": _("Distance")}
FIRST_WORDS = {"either": _("Either, each half the time"), **SIDE_NAMES}
OPPONENT_PROMPT = format_lazy(
    '<div class="col-12"><p class="alert alert-info py-2 mb-0" data-testid="pick-opponent">'
    "{said}</p></div>",
    said=_(
        "Side A is filled in: now pick the opponent here, from one of the lists or a typed "
        'profile, then "Work it out".'
    ),
)


def _quantity_help(system: str) -> str:
    """Beside the quantity box: what the fight reads it as (SPEC 3.8's readings)."""
    pages = SYSTEM_PAGES.get(system)
    return (pages.quantity_help if pages is not None else "") or _("models; 1 if empty")


class FightForm(forms.Form):
    """Two sides and the fight's conditions, read from the query string (SPEC 3.8).

    Each side comes from one of: the player's own unit (`a_unit`), a share link and the
    unit's number in it (`a_share`, `a_pick`), a sample army's unit (`a_catalog`), or a
    typed profile (`a_profile`, JSON as in the army file), first found first used.
    """

    def __init__(
        self,
        *args,
        system: str,
        units: list | None = None,
        catalog: list | None = None,
        **kwargs,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.system = system
        self.has_units = bool(units)
        select = {"class": "form-select form-select-sm"}
        text_input = {"class": "form-control form-control-sm"}
        # Only the conditions this system's fight reads (as the fight API takes them).
        asks = fights.REQUEST_KEYS.get(system, ())
        fight_kinds = fights.FIGHTS if "fight" in asks else ()
        modifiers = _modifier_choices(system, fight_kinds)
        ranks = any(slug == "rank-deeper" for slug, _, _ in fights.describe_modifiers(system, ""))
        if fight_kinds:
            self.fields["fight"] = forms.ChoiceField(
                label=_("Fight"),
                required=False,
                choices=[(f, FIGHT_WORDS.get(f, f)) for f in fight_kinds],
                widget=forms.RadioSelect(attrs={"class": "form-check-input"}),
            )
        if "first" in asks:
            self.fields["first"] = forms.ChoiceField(
                label=_("Who acts first"),
                required=False,
                choices=[(f, FIRST_WORDS[f]) for f in fights.FIRSTS],
                help_text=_("shoots first, or wins a tied close fight"),
                widget=forms.RadioSelect(attrs={"class": "form-check-input"}),
            )
        for side, label in SIDE_NAMES.items():
            self.fields[f"{side}_unit"] = forms.TypedChoiceField(
                label=format_lazy(_("{side}: one of your units"), side=label),
                required=False,
                coerce=int,
                empty_value=None,
                choices=[("", "—"), *(units or [])],
                error_messages={"invalid_choice": _("Pick one of your own units of this system.")},
                widget=forms.Select(attrs=select),
            )
            self.fields[f"{side}_share"] = forms.CharField(
                label=_("or a share link"),
                required=False,
                max_length=300,
                widget=forms.TextInput(attrs={**text_input, "placeholder": "https://…/s/…/"}),
            )
            self.fields[f"{side}_pick"] = _whole(
                _("unit number in it"), 1, MAX_QUANTITY, _("1 = the first")
            )
            self.fields[f"{side}_catalog"] = forms.ChoiceField(
                label=_("or a sample army's unit"),
                required=False,
                choices=[("", "—"), *(catalog or [])],
                error_messages={"invalid_choice": _("Pick one of the listed sample units.")},
                widget=forms.Select(attrs=select),
            )
            self.fields[f"{side}_name"] = forms.CharField(
                label=_("Name"),
                required=False,
                max_length=MAX_NAME,
                widget=forms.TextInput(attrs=text_input),
            )
            self.fields[f"{side}_profile"] = forms.CharField(
                label=_("or type a profile (JSON, as in the army file)"),
                required=False,
                max_length=MAX_PROFILE_TEXT,
                widget=forms.Textarea(attrs={**text_input, "rows": 2, "spellcheck": "false"}),
            )
            self.fields[f"{side}_quantity"] = _whole(
                _("Quantity"), 1, MAX_QUANTITY, _quantity_help(system)
            )
            if "cover" in asks:
                self.fields[f"{side}_cover"] = forms.BooleanField(
                    label=_("In cover"), required=False, widget=forms.CheckboxInput()
                )
            if "modifiers" in asks:
                choices = [
                    (slug, f"{text} ({n:+d})".replace("-", "−")) for slug, text, n in modifiers
                ]
                self.fields[f"{side}_mod"] = forms.MultipleChoiceField(
                    label=_("Conditions"),
                    required=False,
                    choices=choices,
                    widget=forms.CheckboxSelectMultiple(attrs={"class": "form-check-input"}),
                )
            if ranks:
                self.fields[f"{side}_ranks"] = _whole(
                    _("Ranks deeper"), 0, fights.MAX_RANKS, _("+2 each")
                )
            if "frontage" in asks:
                self.fields[f"{side}_frontage"] = _whole(
                    _("Frontage"), 1, MAX_QUANTITY, _("models attacking; all if empty")
                )

    SOURCES = ("unit", "share", "pick", "catalog", "name", "profile", "quantity")
    # Where a side's unit comes from, as laid out: each field's width in the grid (of 12).
    SOURCE_LAYOUT = (
        ("unit", 12),
        ("share", 8),
        ("pick", 4),
        ("catalog", 12),
        ("profile", 12),
        ("name", 8),
        ("quantity", 4),
    )

    @property
    def helper(self) -> FormHelper:
        """The kind of fight (when the system has more than one), then the two sides: where
        each side's unit comes from (its own-unit picker when the player has units, or
        picked one that is refused), then its conditions."""
        kind = [
            Field(name, template="rules/_fight_kind.html")
            for name in ("fight", "first")
            if name in self.fields
        ]
        sides = []
        for side in self.sides:
            shown = [
                (name, width)
                for name, width in self.SOURCE_LAYOUT
                if name != "unit" or self.has_units or side["source"]["unit"].errors
            ]
            cells = [
                Div(f"{side['key']}_{name}", css_class=f"col-{width}") for name, width in shown
            ]
            cells += [Div(field.name, css_class="col-12") for field in side["conditions"]]
            if side["key"] == "b" and self.opponent_missing:
                # "Odds against…" fills side A: say to pick B, and take the keyboard there.
                self.fields[f"b_{shown[0][0]}"].widget.attrs["autofocus"] = True
                cells.insert(0, HTML(OPPONENT_PROMPT))
            sides.append(
                NotedFieldset(
                    side["legend"],
                    Div(*cells, css_class="row g-2"),
                    css_class="col-md-6",
                    data_testid=f"side-{side['key']}",
                )
            )
        return fields_helper(*kind, Div(*sides, css_class="row g-3"))

    @property
    def sides(self) -> list[dict[str, object]]:
        """Each side's fields for the page: where the unit comes from, then its conditions."""
        out = []
        for side, legend in SIDE_NAMES.items():
            names = [n for n in self.fields if n.startswith(f"{side}_")]
            out.append(
                {
                    "key": side,
                    "legend": legend,
                    "source": {
                        n.split("_", 1)[1]: self[n]
                        for n in names
                        if n.split("_", 1)[1] in self.SOURCES
                    },
                    "conditions": [
                        self[n] for n in names if n.split("_", 1)[1] not in self.SOURCES
                    ],
                }
            )
        return out

    SIDE_SOURCES = ("unit", "share", "catalog", "profile")

    @property
    def opponent_missing(self) -> bool:
        """Side A is filled in (an "Odds against…" link) and side B is not yet."""
        data = getattr(self, "cleaned_data", None) or {}
        filled = {k for k in SIDE_NAMES if any(data.get(f"{k}_{n}") for n in self.SIDE_SOURCES)}
        return filled == {"a"}

    def modifiers(self, side: str) -> tuple[str, ...]:
        # Only those of the kind of fight asked for: one list serves both kinds.
        allowed = {slug for slug, _, _ in fights.describe_modifiers(self.system, self.fight_kind)}
        chosen = [slug for slug in self.cleaned_data.get(f"{side}_mod") or [] if slug in allowed]
        ranks = self.cleaned_data.get(f"{side}_ranks") or 0
        return (*chosen, *(["rank-deeper"] * ranks))

    @property
    def fight_kind(self) -> str:
        return self.cleaned_data.get("fight") or "hand-to-hand"

    @property
    def first(self) -> str:
        """d10: who acts first; each side half the time unless the player picks one."""
        return self.cleaned_data.get("first") or "either"


def _modifier_choices(system: str, kinds: tuple[str, ...]) -> tuple[tuple[str, str, int], ...]:
    """The conditions a side may tick. A repeatable one (GEM's ranks) is a number instead."""
    if not kinds:
        found = fights.describe_modifiers(system, "")
        return tuple((slug, say(text), n) for slug, text, n in found if slug != "rank-deeper")
    # One list for both kinds of fight (d10's); each says which it counts in.
    close = {m[0] for m in fights.describe_modifiers(system, "hand-to-hand")}
    shooting = {m[0] for m in fights.describe_modifiers(system, "distance")}
    seen: dict[str, tuple[str, str, int]] = {}
    for fight in kinds:
        for slug, text, n in fights.describe_modifiers(system, fight):
            where = "both" if slug in close & shooting else "close" if slug in close else "shooting"
            seen.setdefault(slug, (slug, f"{say(text)}, {where}", n))
    return tuple(seen.values())
