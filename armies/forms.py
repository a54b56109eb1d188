from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from types import SimpleNamespace

from crispy_forms.bootstrap import StrictButton
from crispy_forms.helper import FormHelper
from crispy_forms.layout import Div, Fieldset
from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext, gettext_lazy, ngettext

import points
from armies import profiles
from armies.models import Army, LibraryEntry
from points import d10, goms
from points.armyfile import MAX_FILE_BYTES, MAX_POINTS_LIMIT, MAX_QUANTITY
from points.fields import MAX_NAME, text
from points.numbers import ascii_int, decimal_places
from rules.forms import NotedFieldset, fields_helper
from rules.layout import Field, Layout
from rules.systems import SYSTEM_PAGES, Preset, system_of_kind
from rules.words import say, say_error

MAX_IMPORT_BYTES = MAX_FILE_BYTES
PASTE_TOO_LARGE = gettext_lazy("The pasted army is larger than 1 MB, the most an army file may be.")


def one_line(value: str) -> None:
    """Names obey the file format's rule (the engine's), so every stored army loads. Too
    long a name is the length check's to say, once (NAME_MESSAGES)."""
    if len(value) > MAX_NAME:
        return
    try:
        text(value, "")
    except points.ArmyFileError as exc:
        raise forms.ValidationError(say(exc.message)) from exc


def _presets(system: str) -> Mapping[str, Preset]:
    pages = SYSTEM_PAGES.get(system)
    return pages.presets if pages is not None else {}


def preset_range(system: str, preset: str) -> Preset | None:
    return _presets(system).get(preset)


def preset_choices(system: str) -> list[tuple[str, str]]:
    presets = _presets(system)
    return [
        ("", gettext("None")),
        *(
            (key, gettext("{name}: {points} points").format(name=p.name, points=p.points))
            for key, p in presets.items()
        ),
    ]


def preset_limit(system: str, preset: str) -> int | None:
    """The points limit a preset stands for: the top of a scenario's suggested range."""
    found = preset_range(system, preset)
    return None if found is None else found.high


# Each message says what to type instead, once (SPEC 5: a clear message beside the field).
NAME_MESSAGES = {
    "required": gettext_lazy("Type a name."),
    "max_length": gettext_lazy(
        "Keep it to %(limit_value)d characters or fewer (this has %(show_value)d)."
    ),
}
LIMIT_NUMBER = format_lazy(
    gettext_lazy(
        "Type a number from 0 to {most} with at most one decimal place "
        "(such as 350 or 12.5), or leave it empty for no limit."
    ),
    most=f"{MAX_POINTS_LIMIT:,}",
)
LIMIT_MESSAGES = {
    "invalid": LIMIT_NUMBER,
    "max_digits": LIMIT_NUMBER,
    "max_whole_digits": LIMIT_NUMBER,
    "max_value": LIMIT_NUMBER,
    "min_value": LIMIT_NUMBER,
    "max_decimal_places": gettext_lazy("Type at most one decimal place, such as 12.5."),
}
QUANTITY_MESSAGES = {
    "required": format_lazy(gettext_lazy("Type how many, from 1 to {most}."), most=MAX_QUANTITY),
    "invalid": format_lazy(
        gettext_lazy("Type a whole number from 1 to {most}."), most=MAX_QUANTITY
    ),
    "min_value": gettext_lazy("Type 1 or more: to remove the unit, delete it from the list."),
    "max_value": gettext_lazy("Type at most %(limit_value)s."),
}


class ArmyForm(forms.ModelForm):
    class Meta:
        model = Army
        fields = ["name", "system", "preset", "points_limit", "notes"]
        # A text box, not type=number: a browser sends nothing for "12e" in a number box,
        # so the army would be made with no limit and no word; as text it gets its message.
        widgets = {
            "notes": forms.Textarea(attrs={"rows": 3}),
            "points_limit": forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"}),
        }
        error_messages = {"name": NAME_MESSAGES, "points_limit": LIMIT_MESSAGES}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        system = self.data.get("system") or self.initial.get("system") or self.instance.system
        self.fields["name"].validators.append(one_line)
        if self.instance.pk:
            # A unit's stat line belongs to its system: changing it would orphan every unit.
            del self.fields["system"]
        else:
            self.fields["system"].choices = [(k, s.name) for k, s in points.SYSTEMS.items()]
        choices = []
        for key in points.SYSTEMS:
            choices += [
                (f"{key}|" + v if v else "", f"{points.SYSTEMS[key].label}: {label}")
                for v, label in preset_choices(key)[1:]
            ]
        self.fields["preset"] = forms.ChoiceField(
            choices=preset_choices(system)
            if self.instance.pk
            else [("", gettext("None")), *choices],
            required=False,
            help_text=gettext("A scenario or game size sets the points limit for you."),
        )
        if not self.instance.pk:
            self.fields["preset"].initial = ""

    def clean(self):
        data = super().clean()
        system = data.get("system") or self.instance.system
        preset = data.get("preset") or ""
        if "|" in preset:
            preset_system, _, preset = preset.partition("|")
            if preset_system != system:
                self.add_error("preset", gettext("That preset belongs to another system."))
                return data
        data["preset"] = preset
        limit = preset_limit(system, preset)
        if limit is not None and data.get("points_limit") is None:
            data["points_limit"] = limit
        return data


class ArmyOptionsForm(forms.Form):
    """G.O.M.S. army-level purchases."""

    rerolls = forms.IntegerField(
        min_value=0,
        max_value=goms.MAX_OPTION,
        initial=0,
        required=False,
        label=gettext_lazy("Rerolls"),
    )
    setup_extensions = forms.IntegerField(
        min_value=0,
        max_value=goms.MAX_OPTION,
        initial=0,
        required=False,
        label=gettext_lazy("Set-up zone extensions"),
        help_text=format_lazy(
            gettext_lazy('+{inches}" each, at most {most}'),
            inches=goms.SETUP_EXTENSION_INCHES,
            most=goms.MAX_SETUP_EXTENSIONS,
        ),
    )
    dug_in = forms.BooleanField(required=False, label=gettext_lazy("Dug in"))

    def options(self) -> dict:
        out = {}
        for key in ("rerolls", "setup_extensions"):
            if self.cleaned_data.get(key):
                out[key] = self.cleaned_data[key]
        if self.cleaned_data.get("dug_in"):
            out["dug_in"] = True
        return out


class ImportForm(forms.Form):
    file = forms.FileField(
        required=False,
        label=gettext_lazy("File"),
        help_text=gettext_lazy("A muster-army/1 JSON file."),
    )
    text = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 8, "class": "font-monospace"}),
        label=gettext_lazy("…or paste the JSON"),
    )

    def __init__(self, *args, too_large: bool = False, refused: str = "", **kwargs):
        # too_large: the post was refused unread (armies/middleware.py), so it holds nothing.
        # refused: why the account may not import now (services.ImportLimit): the file is
        # not read, and the message goes beside it.
        super().__init__(*args, **kwargs)
        self.too_large, self.refused = too_large, refused

    def clean(self):
        data = super().clean()
        if self.too_large:
            self.add_error("text", PASTE_TOO_LARGE)
            return data
        upload = data.get("file")
        if self.refused:
            self.refuse(self.refused)
            return data
        if upload:
            if upload.size > MAX_IMPORT_BYTES:
                raise forms.ValidationError(gettext("The file is larger than 1 MB."))
            try:
                text = upload.read().decode("utf-8")
            except UnicodeDecodeError:
                self.add_error("file", gettext("The file is not UTF-8 text."))
                return data
        else:
            text = data.get("text") or ""
            if len(text.encode()) > MAX_IMPORT_BYTES:
                self.add_error("text", PASTE_TOO_LARGE)
                return data
        if not text.strip():
            raise forms.ValidationError(gettext("Choose a file or paste an army."))
        field = "file" if upload else "text"
        try:
            data["army"] = points.loads(text)
        except points.ArmyFileError as exc:
            self.add_error(field, say_error(exc))
            return data
        # Read (and checked) by the engine above; kept as written so the army is stored as
        # imported, defaults said aloud and empty lists included (SPEC 4).
        data["profiles"] = [unit["profile"] for unit in json.loads(text)["units"]]
        # The file format allows more decimals than the army's stored limit keeps: refuse
        # rather than silently round 12.25 to 12.2 (import then export must round-trip).
        limit = data["army"].points_limit
        places = Army._meta.get_field("points_limit").decimal_places
        if limit is not None and (decimal_places(limit) or 0) > places:
            del data["army"]
            self.add_error(
                field,
                # Translators: points_limit is the army file's own key and stays as written.
                ngettext(
                    "points_limit: must have at most {places} decimal place",
                    "points_limit: must have at most {places} decimal places",
                    places,
                ).format(places=places),
            )
        return data

    def refuse(self, message: str) -> None:
        """Refuse the import beside what was posted: the file, else the pasted text (kept)."""
        self.add_error("file" if self.cleaned_data.get("file") else "text", message)


class FeedbackForm(forms.Form):
    """A form whose errors show in {% feedback %} boxes, the form-wide ones in fb-all."""

    @property
    def non_field_errors_box(self):
        return SimpleNamespace(html_name="all", errors=self.non_field_errors())


class UnitForm(FeedbackForm):
    """One unit's name, quantity and stat line, laid out per system (see profiles.py).

    Its fields follow the system's layout, so they are built per form from it."""

    def __init__(self, system: str, *args, unit=None, **kwargs):
        # Own ids, so the army settings form on the same page can keep id_name.
        kwargs.setdefault("auto_id", "unit-%s")
        self.system = system
        self.pages = SYSTEM_PAGES[system]
        self.layout = profiles.system_layout(system)
        # What the unit holds now: a value the player leaves alone is saved as it was.
        self.stored: dict | None = unit.profile if unit is not None else None
        row_initial: dict[str, list[dict]] = {}
        if unit is not None and not kwargs.get("initial"):
            initial, row_initial = profiles.form_initial(system, unit.profile)
            kwargs["initial"] = {"name": unit.name, "quantity": unit.quantity, **initial}
        super().__init__(*args, **kwargs)
        self.fields["name"], self.fields["quantity"] = _name_field(), _quantity_field()
        # Only the fields of what the unit is (its type or kind, as posted or stored), and
        # any it holds a value for (a stored unit's own values are always shown).
        self.switch_value = self._switch_value()
        self.shown = [f for f in self.layout.fields if self._shows(f)]
        for f in self.shown:
            self.fields[f.key] = _django_field(f)
        self.cells: dict[str, str] = {}
        if self.pages.weapon_table:
            # One a line as before, with the set's weapon table to add from under it.
            self.fields["weapons"].widget = TableLines(
                self.pages.weapon_table, attrs=self.fields["weapons"].widget.attrs
            )
        named = self.pages.named_weapons
        self.row_counts: dict[str, int] = {}
        for group in self.layout.rows:
            if not group.applies(self.switch_value) and not row_initial.get(group.key):
                self.row_counts[group.key] = 0
                continue
            stored = row_initial.get(group.key, [])
            posted = _posted_rows(self.data, group.key, group.most) if self.is_bound else 0
            # A fresh form gets a blank row to add one more; a posted one already has it.
            extra = 0 if self.is_bound else 1
            count = min(group.most, max(len(stored), posted) + extra)
            self.row_counts[group.key] = count
            for i in range(count):
                for f in group.fields:
                    name = f"{group.key}-{i}-{f.key}"
                    # Every row repeats "Name", "OFF"…: say which row for screen readers.
                    label = gettext("{group} row {n}: {field}").format(
                        group=group.label, n=i + 1, field=f.label
                    )
                    self.fields[name] = field = _django_field(f, compact=True)
                    field.widget.attrs["aria-label"] = label
                    self.cells[name] = _CELLS.get(f.kind, "stat")
                    if named and (group.key, f.key) == (named[0], "name"):
                        # Pick a known weapon by name (its stats follow), or type your own.
                        listed = (f"{system}-weapons", named[1])
                        field.widget = ListedInput(listed, first=i == 0)
                        field.widget.attrs.update(
                            {"class": "form-control form-control-sm", "aria-label": label}
                        )
                    if i < len(stored):
                        self.initial[name] = stored[i].get(f.key)
        for name, field in self.fields.items():
            # A select with no empty choice shows, and posts, its first option when
            # nothing is stored: start it there, so changed_data agrees with the page.
            if type(field) is forms.ChoiceField:
                values = [value for value, _ in field.choices]
                if self.get_initial_for_field(field, name) not in values:
                    self.initial[name] = values[0]
        self.profile: dict = {}

    def _shows(self, f: Field) -> bool:
        """Whether the editor has field `f`: when it applies to the unit's type or kind;
        else only while the unit holds a value for it, stored or posted, so the engine's
        refusal shows beside it. The player who just picked another type in this editor
        (its shown_for) leaves the old type's fields behind."""
        if f.applies(self.switch_value):
            return True
        drawn_for = self.data.get("shown_for") if self.is_bound else None
        if drawn_for is not None and drawn_for != (self.switch_value or ""):
            return False
        kept = self.stored or {}
        if f.key in kept and kept.get(self.layout.switch) == self.switch_value:
            return True
        return self.is_bound and self.data.get(f.key) not in (None, "")

    def _switch_value(self) -> str | None:
        """The type or kind the editor shows fields for: as posted when it is one of the
        choices (the player just picked it), else as stored, else the first choice."""
        key = self.layout.switch
        if not key:
            return None
        choices = [v for v, _ in next(f for f in self.layout.fields if f.key == key).choices]
        for found in (
            self.data.get(key) if self.is_bound else None,
            self.initial.get(key),
            (self.stored or {}).get(key),
        ):
            if found in choices:
                return found
        return choices[0]

    @property
    def switch(self):
        """The type/kind field, drawn on its own above the others."""
        key = self.layout.switch
        return self[key] if key in self.fields else None

    def clean(self):
        data = super().clean()
        rows = {
            group.key: [
                {f.key: data.get(f"{group.key}-{i}-{f.key}") for f in group.fields}
                for i in range(self.row_counts[group.key])
            ]
            for group in self.layout.rows
        }
        self.profile, paths = profiles.profile_from_form(self.system, {**data, **rows}, self.stored)
        added = self.data.get(TableLines.ADD) if self.pages.weapon_table else None
        if added in {name for name, _ in self.pages.weapon_table}:  # picked without JavaScript
            self.profile["weapons"] = [*self.profile.get("weapons", []), added]
        for field, message in profiles.engine_errors(self.system, self.profile, paths).items():
            if field == "__all__" or field not in self.fields:
                self.add_error(None, message)
            elif field not in self.errors:
                self.add_error(field, message)
        return data

    @property
    def helper(self) -> FormHelper:
        """How crispy lays the editor out ({% crispy editor %} in builder.html): name and
        quantity, the type or kind with its Show button, a fieldset per group, then each
        repeating group's rows. Every field draws with armies/_field.html, beside the box
        its messages show in (fb-<name>, swapped in by each save)."""
        return editor_helper(
            [self._head(), *self._switch_row()],
            self.groups(),
            self.row_groups(),
            "armies/crispy/rows.html",
        )

    def _head(self) -> Div:
        return Div(
            Div("name", css_class="col-8"), Div("quantity", css_class="col-4"), css_class=ROW
        )

    def _switch_row(self) -> list[Div]:
        if self.switch is None:
            return []
        # Changing the type redraws the editor (builder.js, which hides the button);
        # without JavaScript the button does.
        show = StrictButton(
            gettext("Show its fields"),
            type="submit",
            name="show",
            value="1",
            css_class="btn-sm btn-outline-secondary editor-switch-button",
        )
        return [
            Div(
                Div(self.layout.switch, css_class="col-8"),
                Div(show, css_class="col-4"),
                css_class=f"{ROW} align-items-end",
            )
        ]

    # Template helpers: the fields of one group, and the rows of a repeating group.
    def group(self, name: str):
        return [self[f.key] for f in self.shown if f.group == name and f.key != self.layout.switch]

    def groups(self):
        groups = ((label, self.group(key)) for key, label in _groups(self.layout).items())
        return [(label, fields) for label, fields in groups if fields]

    def row_groups(self):
        return [
            (
                group,
                [
                    [
                        (self[name], self.cells[name])
                        for name in (f"{group.key}-{i}-{f.key}" for f in group.fields)
                    ]
                    for i in range(self.row_counts[group.key])
                ],
            )
            for group in self.layout.rows
            if self.row_counts[group.key]
        ]


class TableLines(forms.Textarea):
    """A one-a-line box (d10 weapons) with a select of the set's table under it. With
    JavaScript (static/js/lists.js) a pick is added to the box as a line and saved; without,
    the pick is posted as `weapons-add` and UnitForm adds it when the unit is saved."""

    ADD = "weapons-add"
    template_name = "armies/widgets/table_lines.html"

    def __init__(self, table: tuple[tuple[str, str], ...], attrs=None):
        super().__init__({**(attrs or {}), "rows": 3})
        self.table = table

    def get_context(self, name, value, attrs):
        context = super().get_context(name, value, attrs)
        box_id = context["widget"]["attrs"].get("id") or name
        return {**context, "box_id": box_id, "add": self.ADD, "table": self.table}


class ListedInput(forms.TextInput):
    """A text box with a list of known values to pick from (<datalist>), typing still free.
    Every row's box uses one list, drawn beside the first row's box (`first`)."""

    template_name = "armies/widgets/listed_input.html"

    def __init__(self, listed: tuple[str, tuple], first: bool, attrs=None):
        list_id, self.options = listed
        super().__init__({**(attrs or {}), "list": list_id, "autocomplete": "off"})
        self.first = first

    def get_context(self, name, value, attrs):
        context = super().get_context(name, value, attrs)
        if not self.first:
            return context
        return {**context, "list_id": self.attrs["list"], "options": _weapon_options(self.options)}


def _weapon_options(weapons: tuple[dict, ...]) -> list[dict[str, str]]:
    """Each known weapon's numbers as its <option> carries them (lists.js fills a row's
    boxes from them), with the defaults a weapon file leaves out."""
    return [
        {
            "name": w["name"],
            "off": str(w["off"]),
            "att": str(w.get("att", 1)),
            "range": str(w["range"]),
            "radius": str(w.get("radius", 0)),
            "fire": w.get("fire", "every-turn"),
            "heavy": "1" if w.get("heavy") else "",
            "label": _weapon_label(w),
        }
        for w in weapons
    ]


def _weapon_label(w: dict) -> str:
    radius = f", radius {w['radius']}″" if w.get("radius") else ""
    fire = w.get("fire", "every-turn").replace("-", " ")
    heavy = ", heavy" if w.get("heavy") else ""
    stats = f"OFF {w['off']}, ATT {w.get('att', 1)}, range {w['range']}″"
    return f"{stats}{radius}, fires {fire}{heavy}"


def _groups(layout: Layout) -> dict[str, str]:
    keys = dict.fromkeys(f.group for f in layout.fields)
    return {k: layout.groups.get(k, "Profile" if k == "main" else k.capitalize()) for k in keys}


# How a weapon or homebrew row lays out each of its fields (muster.css, .weapon-cell-*).
_CELLS = {"text": "name", "choice": "wide", "bool": "check"}


def _posted_rows(data, key: str, most: int) -> int:
    prefix = f"{key}-"
    seen = set()
    for name in data:
        if name.startswith(prefix):
            index = ascii_int(name[len(prefix) :].split("-", 1)[0], 3)
            if index is not None and index < most:
                seen.add(index)
    return max(seen) + 1 if seen else 0


def _name_field() -> forms.CharField:
    # No text box strips what is typed: " Bob " is the name the player gave (SPEC 4).
    return forms.CharField(
        max_length=MAX_NAME,
        strip=False,
        validators=[one_line],
        error_messages=NAME_MESSAGES,
        widget=forms.TextInput(attrs={"class": "form-control form-control-sm"}),
    )


def _quantity_field() -> forms.IntegerField:
    return forms.IntegerField(
        min_value=1,
        max_value=MAX_QUANTITY,
        initial=1,
        error_messages=QUANTITY_MESSAGES,
        widget=forms.NumberInput(attrs={"class": "form-control form-control-sm"}),
    )


def _django_field(f: Field, compact: bool = False) -> forms.Field:
    attrs = {"class": "form-control form-control-sm", "autocomplete": "off"}
    if f.kind == "bool":
        return forms.BooleanField(label=f.label, required=False, help_text=f.help)
    if f.kind == "multi":
        return forms.MultipleChoiceField(
            label=f.label,
            choices=f.choices,
            required=False,
            widget=forms.CheckboxSelectMultiple(attrs={"class": "form-check-input"}),
        )
    if f.kind == "choice":
        return forms.ChoiceField(
            label=f.label,
            choices=f.choices,
            required=False,
            help_text=f.help,
            widget=forms.Select(attrs={"class": "form-select form-select-sm"}),
        )
    max_length = f.most if f.kind in ("text", "lines") else 64
    if f.kind in ("stat", "int"):
        attrs["inputmode"] = "decimal" if f.kind == "stat" else "numeric"
        attrs["spellcheck"] = "false"
    if f.kind == "lines":
        widget: forms.Widget = forms.Textarea(attrs={**attrs, "rows": 3})
    else:
        widget = forms.TextInput(attrs=attrs)
    return forms.CharField(
        label=f.label,
        required=False,
        max_length=max_length,
        strip=False,
        help_text="" if compact else f.help,
        widget=widget,
    )


def dumps_army(doc: dict) -> str:
    """The export file: the army as stored, so what was imported or typed comes back as it
    was written (SPEC 4), checked by the engine's reader first so export and load agree."""
    points.load(doc)
    return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"


class LibraryFigureForm(UnitForm):
    """A homebrew figure: a unit's stat line without a quantity."""

    def __init__(self, system: str, *args, entry=None, **kwargs):
        unit = SimpleNamespace(name=entry.name, quantity=1, profile=entry.data) if entry else None
        if entry is None and not kwargs.get("initial"):
            # A new figure starts where a new unit does (a GEM one on a 25mm base, not on
            # the first base listed).
            default = SYSTEM_PAGES[system].default_profile
            kwargs["initial"] = profiles.form_initial(system, default)[0]
        super().__init__(system, *args, unit=unit, **kwargs)
        del self.fields["quantity"]

    @property
    def helper(self) -> FormHelper:
        """The editor's layout without quantity; another type or kind brings its own
        fields once saved (or refused for what it lacks)."""
        head: list = ["name"]
        if self.switch is not None:
            head.append(Div(Div(self.layout.switch, css_class="col-8 col-sm-4"), css_class=ROW))
        return editor_helper(
            head, self.groups(), self.row_groups(), "armies/crispy/plain_rows.html"
        )


@dataclass(frozen=True)
class Part:
    """A kind of library weapon or trait (its system's entry names the kind), the list a
    unit's profile keeps it in, the editor rows it is typed in, and the smallest profile
    that can carry it (the engine checks a part inside one, so the rules for it live in
    one place)."""

    kind: str
    profile_key: str
    rows_key: str
    wrapper: Mapping[str, object]

    @property
    def system(self) -> str:
        system = system_of_kind(self.kind)
        assert system is not None, f"no system keeps library {self.kind}s"
        return system

    @property
    def fields(self) -> tuple[Field, ...]:
        return next(
            r for r in profiles.system_layout(self.system).rows if r.key == self.rows_key
        ).fields


PARTS: dict[str, Part] = {
    LibraryEntry.Kind.WEAPON: Part(
        LibraryEntry.Kind.WEAPON,
        "missile",
        "missile",
        {"type": "skirmisher", "base": "25mm", "off": 1, "def": 1},
    ),
    LibraryEntry.Kind.TRAIT: Part(
        LibraryEntry.Kind.TRAIT, "traits", "homebrew", {"kind": "guy", "flavor": "troop"}
    ),
}


ROW = "row g-2 mb-2"


def editor_helper(head: list, groups: list, row_groups: list, rows_template: str) -> FormHelper:
    """A crispy helper for a unit or library editor: `head` first, then a fieldset per
    group of fields (a grid; a set of checkboxes takes the whole width), then a fieldset
    per repeating group, each row a line of cells (muster.css, .weapon-cell-*). Only the
    fields: the page draws the <form>, its token, its buttons and the form-wide box."""
    grids = [
        NotedFieldset(
            label,
            Div(
                *(Div(field.name, css_class=_cell_class(field)) for field in fields),
                css_class="row g-2",
            ),
            css_class="mb-3",
        )
        for label, fields in groups
    ]
    repeats = [
        Fieldset(
            group.label,
            *(
                Div(
                    *(
                        Div(field.name, css_class=f"weapon-cell weapon-cell-{cell}")
                        for field, cell in row
                    ),
                    css_class="weapon-row mb-2",
                    data_testid="weapon-row",
                )
                for row in rows
            ),
            template=rows_template,
        )
        for group, rows in row_groups
    ]
    return fields_helper(*head, *grids, *repeats)


def _cell_class(field) -> str:
    wide = getattr(field.field.widget, "allow_multiple_selected", False)  # a set of checkboxes
    return "col-12" if wide else "col-6 col-sm-4"


class LibraryEntryForm(FeedbackForm):
    """A library entry of one line of fields (a weapon, a trait): no groups, every field,
    the name first, in one grid."""

    def groups(self):
        return []

    @property
    def helper(self) -> FormHelper:
        cells = (Div(name, css_class="col-6 col-sm-4") for name in self.fields)
        return fields_helper(Div(*cells, css_class="row g-2"))


class LibraryPartForm(LibraryEntryForm):
    """A homebrew GEM missile weapon or VSGMR trait."""

    def __init__(self, kind: str, *args, entry=None, **kwargs):
        self.part = PARTS[kind]
        self.part_fields = self.part.fields
        self.stored: dict | None = entry.data if entry is not None else None
        if entry is not None and not kwargs.get("initial"):
            kwargs["initial"] = {"name": entry.name, **{k: str(v) for k, v in entry.data.items()}}
        super().__init__(*args, **kwargs)
        for f in self.part_fields:
            self.fields[f.key] = _django_field(f)
        self.fields["name"].required = True
        self.fields["name"].validators.append(one_line)
        self.data_dict: dict = {}

    def clean(self):
        data = super().clean()
        part = profiles.row_entry(self.part_fields, data, self.stored)
        key = self.part.profile_key
        profile = {**self.part.wrapper, key: [part]}
        paths = {f"{key}[0].{f.key}": f.key for f in self.part_fields}
        for field, message in profiles.engine_errors(self.part.system, profile, paths).items():
            self.add_error(field if field in self.fields else None, message)
        self.data_dict = {k: v for k, v in part.items() if k != "name"}
        return data


D10_WEAPON_LINE = ("range", "rof", "damage", "traits")


def _small_text(label: str, most: int, required: bool = True, help_text: str = ""):
    return forms.CharField(
        label=label,
        max_length=most,
        required=required,
        help_text=help_text,
        validators=[one_line],
        widget=forms.TextInput(attrs={"class": "form-control form-control-sm"}),
    )


class LibraryD10WeaponForm(LibraryEntryForm):
    """A homebrew weapon for the d10 set: its name, which is what a unit's weapons list
    carries, and its line of the weapon table (range, rate of fire, damage, traits)."""

    def __init__(self, *args, entry=None, **kwargs):
        if entry is not None and not kwargs.get("initial"):
            kwargs["initial"] = {"name": entry.name, **entry.data}
        super().__init__(*args, **kwargs)
        self.fields["name"] = forms.CharField(
            max_length=d10.MAX_WEAPON_NAME,
            strip=False,
            validators=[one_line],
            widget=forms.TextInput(attrs={"class": "form-control form-control-sm"}),
        )
        self.fields["range"] = _small_text(
            gettext("Range"), 20, help_text=gettext("inches, e.g. 24 or 12/24")
        )
        self.fields["rof"] = _small_text(
            gettext("Rate of fire"), 20, help_text=gettext("e.g. 2/1 (3 auto)")
        )
        self.fields["damage"] = _small_text(gettext("Damage"), 20)
        self.fields["traits"] = _small_text(
            gettext("Traits"), 100, required=False, help_text=gettext("e.g. auto, bulky")
        )
        self.data_dict: dict = {}

    def clean_name(self) -> str:
        name = self.cleaned_data["name"]
        if d10.table_weapon(name) is not None:
            raise forms.ValidationError(
                gettext(
                    "The set's weapon table has a weapon of this name, and a unit carrying it "
                    "gets that row: give yours a name of its own."
                )
            )
        return name

    def clean(self):
        data = super().clean()
        self.data_dict = {key: data[key] for key in D10_WEAPON_LINE if data.get(key)}
        return data
