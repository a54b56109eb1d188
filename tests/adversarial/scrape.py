"""Read a rendered form the way a browser does: its controls and what it would submit.

The fuzz and XSS tests post what the page actually offers, so a field added to a form or
a template is covered without anyone updating a list.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser


@dataclass
class Control:
    tag: str  # input | select | textarea
    type: str  # text, hidden, number, checkbox, select-one, select-multiple, textarea...
    name: str
    value: str = ""
    checked: bool = False
    options: list[tuple[str, bool]] = field(default_factory=list)  # (value, selected)

    @property
    def typed(self) -> bool:
        """Free text the player types (as opposed to a box, a list or a hidden value)."""
        return self.type in {"text", "number", "textarea", "email", "search"}


class _FormParser(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms: list[tuple[str, list[Control]]] = []  # (id, controls), in page order
        self.depth = 0  # > 0 inside a form
        self.controls: list[Control] = []
        self._select: Control | None = None
        self._option: tuple[str, bool] | None = None
        self._option_text = ""
        self._textarea: Control | None = None

    def handle_starttag(self, tag, attrs):
        a = {k: (v if v is not None else "") for k, v in attrs}
        if tag == "form":
            if not self.depth:
                self.controls = []
                self.forms.append((a.get("id", ""), self.controls))
            self.depth += 1
            return
        if not self.depth:
            return
        if tag == "input" and "name" in a:
            kind = a.get("type", "text").lower()
            if kind in {"submit", "button", "reset", "image", "file"}:
                return
            value = a.get("value", "on" if kind in {"checkbox", "radio"} else "")
            self.controls.append(Control("input", kind, a["name"], value, "checked" in a))
        elif tag == "select" and "name" in a:
            kind = "select-multiple" if "multiple" in a else "select-one"
            self._select = Control("select", kind, a["name"])
            self.controls.append(self._select)
        elif tag == "option" and self._select is not None:
            self._option = (a.get("value"), "selected" in a)
            self._option_text = ""
        elif tag == "textarea" and "name" in a:
            self._textarea = Control("textarea", "textarea", a["name"])
            self.controls.append(self._textarea)

    def handle_data(self, data):
        if self._textarea is not None:
            self._textarea.value += data
        if self._option is not None:
            self._option_text += data

    def handle_endtag(self, tag):
        if tag == "form" and self.depth:
            self.depth -= 1
        elif tag == "option" and self._option is not None:
            value, selected = self._option
            self._select.options.append((self._option_text if value is None else value, selected))
            self._option = None
        elif tag == "select":
            self._select = None
        elif tag == "textarea" and self._textarea is not None:
            # A browser drops one newline right after <textarea>.
            self._textarea.value = self._textarea.value.removeprefix("\n")
            self._textarea = None


def controls(html: str, form_id: str | None = None, *, having: str = "") -> list[Control]:
    """The named controls of the form with this id, or of the first with a `having` field."""
    parser = _FormParser()
    parser.feed(html)
    parser.close()
    for found_id, found in parser.forms:
        if form_id is not None and found_id == form_id:
            return found
        if form_id is None and any(c.name == having for c in found):
            return found
    raise LookupError(f"no form {form_id or 'with ' + having} in the page")


def submitted(found: list[Control]) -> dict[str, list[str]]:
    """What submitting the form unchanged would send."""
    data: dict[str, list[str]] = {}
    for c in found:
        if c.type in {"checkbox", "radio"}:
            if c.checked:
                data.setdefault(c.name, []).append(c.value)
        elif c.type == "select-multiple":
            data.setdefault(c.name, []).extend(v for v, chosen in c.options if chosen)
        elif c.type == "select-one" and c.options:
            chosen = [v for v, selected in c.options if selected] or [c.options[0][0]]
            data.setdefault(c.name, []).append(chosen[-1])
        elif c.type == "select-one":
            continue
        else:
            data.setdefault(c.name, []).append(c.value)
    return data
