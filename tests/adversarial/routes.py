"""Every route in the URLconf, and how to fill its arguments from one player's world.

The IDOR and CSRF tests walk the URLconf instead of a hand-written list, so a new route
is tested the day it appears, or fails the suite until someone says how to fill it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.urls import URLPattern, URLResolver, get_resolver, reverse

from armies import services
from rules.models import SampleArmy
from tests.adversarial.conftest import World

# Staff-only (is_staff), and none of a player's armies or library entries is in it.
IGNORED_NAMESPACES = {"admin"}


@dataclass(frozen=True)
class Route:
    name: str  # with its namespace, e.g. "armies:unit-update"
    route: str  # e.g. "armies/<int:pk>/units/<int:unit_pk>/"
    kwargs: tuple[str, ...]
    callback: Callable

    @property
    def namespace(self) -> str:
        return self.name.partition(":")[0] if ":" in self.name else ""


def _arguments(pattern) -> tuple[str, ...]:
    converters = getattr(pattern, "converters", None)
    if converters:
        return tuple(converters)
    regex = getattr(pattern, "regex", None)
    return tuple(regex.groupindex) if regex is not None else ()


def all_routes(patterns=None, prefix: str = "", namespace: str = "", kwargs=()) -> list[Route]:
    found: list[Route] = []
    for entry in patterns if patterns is not None else get_resolver().url_patterns:
        route = prefix + str(entry.pattern)
        args = kwargs + _arguments(entry.pattern)
        if isinstance(entry, URLResolver):
            inner = ":".join(n for n in (namespace, entry.namespace or "") if n)
            found += all_routes(entry.url_patterns, route, inner, args)
        elif isinstance(entry, URLPattern):
            name = entry.name or route
            full = f"{namespace}:{name}" if namespace else name
            found.append(Route(full, route, args, entry.callback))
    return found


# How to reach something: URL kwargs and a POST body that would change it if allowed.
Fill = Callable[[World], tuple[dict, dict]]


def _unit_form(w: World) -> dict:
    return {
        "name": "Hijacked",
        "quantity": "3",
        "type": "skirmisher",
        "base": "25mm",
        "off": "5",
        "def": "5",
        "version": str(w.army.version),
    }


def _trashed_army(w: World) -> tuple[dict, dict]:
    army = services.create_army(w.owner, name="In the trash", system="gem")
    army.trash()
    return {"pk": army.pk}, {}


def _trashed_unit(w: World) -> tuple[dict, dict]:
    (unit,) = services.add_units(w.army, [services.UnitSpec("In the trash", 1, w.unit.profile)])
    services.trash_unit(w.army, unit.pk, None)
    return {"pk": w.army.pk, "unit_pk": unit.pk}, {}


# Routes that name one player's army, unit or library entry by id: anyone else gets 404.
OWNED: dict[str, Fill] = {
    "armies:builder": lambda w: ({"pk": w.army.pk}, {}),
    "armies:export": lambda w: ({"pk": w.army.pk}, {}),
    "armies:settings": lambda w: (
        {"pk": w.army.pk},
        {"name": "Hijacked", "points_limit": "1", "notes": "", "version": str(w.army.version)},
    ),
    "armies:roster": lambda w: ({"pk": w.army.pk}, {}),
    "armies:accept-rules": lambda w: ({"pk": w.army.pk}, {"version": str(w.army.version)}),
    "armies:share-on": lambda w: ({"pk": w.army.pk}, {}),
    "armies:share-off": lambda w: ({"pk": w.army.pk}, {}),
    "armies:delete": lambda w: ({"pk": w.army.pk}, {}),
    "armies:unit-add": lambda w: ({"pk": w.army.pk}, {}),
    "armies:unit-add-library": lambda w: ({"pk": w.army.pk}, {"entry": w.figures["gem"].pk}),
    "armies:unit-add-part": lambda w: (
        {"pk": w.army.pk, "unit_pk": w.unit.pk},
        {"entry": w.weapon.pk},
    ),
    "armies:unit-update": lambda w: ({"pk": w.army.pk, "unit_pk": w.unit.pk}, _unit_form(w)),
    "armies:unit-breakdown": lambda w: ({"pk": w.army.pk, "unit_pk": w.unit.pk}, {}),
    "armies:unit-duplicate": lambda w: ({"pk": w.army.pk, "unit_pk": w.unit.pk}, {}),
    "armies:unit-move": lambda w: (
        {"pk": w.army.pk, "unit_pk": w.unit.pk},
        {"direction": "down"},
    ),
    "armies:unit-delete": lambda w: ({"pk": w.army.pk, "unit_pk": w.unit.pk}, {}),
    "armies:acquisition": lambda w: ({"pk": w.armies["goms"].pk}, {}),
    "armies:acquisition-roll": lambda w: ({"pk": w.armies["goms"].pk}, {}),
    "armies:acquisition-reroll": lambda w: ({"pk": w.armies["goms"].pk}, {"die": "1"}),
    "armies:acquisition-finish": lambda w: ({"pk": w.armies["goms"].pk}, {}),
    "armies:restore": _trashed_army,
    "armies:unit-restore": _trashed_unit,
    "library:edit": lambda w: (
        {"pk": w.figures["gem"].pk},
        {"name": "Hijacked", "type": "skirmisher", "base": "25mm", "off": "5", "def": "5"},
    ),
    "library:delete": lambda w: ({"pk": w.weapon.pk}, {}),
}


def _sample(w: World) -> tuple[dict, dict]:
    return {"slug": SampleArmy.objects.order_by("pk").first().slug}, {}


# Routes whose arguments are not a player's ids, and why anyone may use them.
NOT_OWNED: dict[str, tuple[str, Fill]] = {
    "armies:from-sample": ("a built-in sample army, copied for whoever asks", _sample),
    "library:new": (
        "the kind of entry to create in one's own library",
        lambda w: ({"kind": "weapon"}, {"name": "Sling", "off": "3", "range": "12"}),
    ),
    "library:new-for-system": (
        "the kind and system of a figure to create in one's own library",
        lambda w: (
            {"kind": "figure", "system": "gem"},
            {"name": "Guard", "type": "skirmisher", "base": "25mm", "off": "3", "def": "3"},
        ),
    ),
    "shared": (
        "the share token is the key; the page is read-only",
        lambda w: ({"token": w.army.share_token}, {}),
    ),
    "shared-roster": (
        "the share token is the key; the page is read-only",
        lambda w: ({"token": w.army.share_token}, {}),
    ),
    "fork": (
        "copies a shared army into the visitor's own armies, never changes it",
        lambda w: ({"token": w.army.share_token}, {}),
    ),
    "rules:system": ("the public rules summaries", lambda w: ({"system": "gem"}, {})),
    "password_reset_confirm": (
        "a one-time token mailed to the account's owner",
        lambda w: ({"uidb64": "MQ", "token": "set-password"}, {}),
    ),
}


def fill(route: Route, world: World) -> tuple[str, dict]:
    """The URL of `route` in `world`, and a POST body for it."""
    if route.name in OWNED:
        kwargs, data = OWNED[route.name](world)
    elif route.name in NOT_OWNED:
        kwargs, data = NOT_OWNED[route.name][1](world)
    else:
        kwargs, data = {}, {}
    if route.kwargs and not kwargs:
        raise LookupError(f"no way to fill {route.name} ({route.route})")
    return reverse(route.name, kwargs=kwargs), data
