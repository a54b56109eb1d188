"""Small steps many tests take: what a page posts, changing units as the editor does,
checking stored prices against the engine, requests sent at once, and the G.O.M.S. army
whose acquisition rolls the roll tests make."""

from __future__ import annotations

import threading
from collections.abc import Callable
from fractions import Fraction
from html.parser import HTMLParser
from typing import Any

from django.db import connection
from django.test import Client

import points
from armies import services
from armies.models import Army
from table.models import AcquisitionRecord
from tests.factories import ArmyFactory

# The header htmx adds to every request it sends: `client.post(url, data, headers=HX)`.
HX = {"HX-Request": "true"}


def as_page(army, data: dict | None = None) -> dict:
    """What a builder form posts: `data` with the army version its page was drawn at (now)."""
    return {"version": Army.all_objects.get(pk=army.pk).version, **(data or {})}


class _FormFields(HTMLParser):
    """What a browser would post from the form with id `form_id`: each named field's
    value, checked boxes and radios only, the selected options of each select."""

    def __init__(self, form_id: str) -> None:
        super().__init__()
        self.form_id, self.inside = form_id, False
        self.posted: list[tuple[str, str]] = []
        self._select: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.inside = a.get("id") == self.form_id
        if not self.inside or "disabled" in a:
            return
        name = a.get("name")
        if tag == "input" and name and a.get("type") not in ("submit", "button", "file"):
            if a.get("type") not in ("checkbox", "radio"):
                self.posted.append((name, a.get("value", "")))
            elif "checked" in a:
                self.posted.append((name, a.get("value", "on")))
        elif tag == "select":
            self._select = name
        elif tag == "option" and self._select and "selected" in a:
            self.posted.append((self._select, a.get("value", "")))
        elif tag == "textarea" and name:
            self._textarea = name
            self.posted.append((name, ""))

    def handle_data(self, data: str) -> None:
        if self._textarea:
            name, text = self.posted.pop()
            self.posted.append((name, text + data))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False
        elif tag == "select":
            self._select = None
        elif tag == "textarea":
            if self._textarea:  # a browser drops the one newline after <textarea>
                name, text = self.posted.pop()
                self.posted.append((name, text.removeprefix("\n")))
            self._textarea = None


def editor_post(client: Client, unit, typed: dict | None = None) -> dict:
    """What the unit editor posts when a player opens `unit` and types `typed` over its
    fields (a field set to None is emptied and left out, as an unticked box): the form as
    the builder draws it now, with the army version that page was drawn at."""
    page = client.get(f"/armies/{unit.army_id}/?unit={unit.pk}").content.decode()
    form = _FormFields("unit-form")
    form.feed(page)
    assert form.posted, "the builder drew no unit editor"
    values: dict[str, list[str]] = {}
    for name, value in form.posted:
        values.setdefault(name, []).append(value)
    body: dict[str, Any] = {k: v[0] if len(v) == 1 else v for k, v in values.items()}
    body.pop("csrfmiddlewaretoken", None)
    for name, value in (typed or {}).items():
        if value is None:
            body.pop(name, None)
        else:
            body[name] = value
    return body


def assert_stored_prices_match_the_engine(army) -> None:
    """What pages read (stored on write) is what the engine says of the army as stored."""
    army = Army.all_objects.get(pk=army.pk)
    fresh = points.price_army(points.load(army.to_file()))
    assert Fraction(army.total) == fresh.total
    assert army.legal == fresh.legal
    units = list(army.units.all())
    assert [Fraction(u.cost) for u in units] == [pu.cost for pu in fresh.units]
    stored = army.priced(units)
    for kind in ("errors", "warnings"):
        assert sorted((i.code, i.message) for i in getattr(stored, kind)) == sorted(
            (i.code, i.message) for i in getattr(fresh, kind)
        )


def rename_units(army, names: dict[str, str] | None = None, **changes) -> None:
    """Change units through the one write path, as the editor would: `names` maps old
    names to new ones (every unit when None); `changes` sets e.g. quantity on them."""
    army = Army.all_objects.get(pk=army.pk)
    for unit in army.units.all():
        if names is not None and unit.name not in names:
            continue
        name = names[unit.name] if names is not None else changes.pop("name", unit.name)
        quantity = changes.get("quantity", unit.quantity)
        spec = services.UnitSpec(name, quantity, unit.profile)
        services.save_unit(army, unit.pk, spec, None)


def at_once(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run each call in a thread of its own, released together (as requests reaching
    several app servers at once): what each returned, in the order given. A call that
    raises fails the test; each thread closes its own database connection."""
    barrier = threading.Barrier(len(calls), timeout=20)
    results: list[Any] = [None] * len(calls)
    errors: list[str] = []

    def run(i: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            results[i] = call()
        except Exception as exc:  # reported below, not lost in the thread
            errors.append(repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=pair) for pair in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert errors == []
    return results


# G.O.M.S. (SPEC 3.4): two rifle sections and a medium tank roll 3 acquisition dice.
RIFLES = {"kind": "rifle-section"}
TANK = {"kind": "vehicle", "vehicle_class": "medium"}


def goms_army(player, rerolls: int = 0, *, shared: bool = False) -> Army:
    """`player`'s G.O.M.S. army of 2 rifle sections (one unit) and a medium tank, with
    `rerolls` acquisition rerolls, shared when asked (as a fair roll needs)."""
    army = ArmyFactory(owner=player, system="goms", profiles=[RIFLES, TANK])
    rename_units(army, {"Unit 1": "Unit 1"}, quantity=2)
    if rerolls:
        services.save_settings(army, {"options": {"rerolls": rerolls}}, None)
    if shared:
        services.share_army(army)
    return Army.objects.get(pk=army.pk)


def roll_url(army: Army, action: str = "") -> str:
    """The owner's acquisition roll page, or one of its actions (roll, reroll, ...)."""
    return f"/armies/{army.pk}/acquisition/{action + '/' if action else ''}"


def start_fair(client, army: Army) -> AcquisitionRecord:
    """The owner starts a fair roll (committing to a seed): its record."""
    client.post(roll_url(army, "roll"), {"mode": "fair"})
    return army.acquisitions.first()  # the latest


def seed_url(army: Army, record: AcquisitionRecord) -> str:
    """Where the opponent, through the share link, adds their seed to a fair roll."""
    return f"/s/{army.share_token}/roll/{record.pk}/seed/"


def record_page(army: Army, record: AcquisitionRecord) -> str:
    """A roll's page as anyone with the share link sees it."""
    return Client().get(f"/s/{army.share_token}/roll/{record.pk}/").content.decode()
