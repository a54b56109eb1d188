"""Every route in the URLconf, and how to fill its arguments from one player's world.

The IDOR and CSRF tests walk the URLconf instead of a hand-written list, so a new route
is tested the day it appears, or fails the suite until someone says how to fill it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone

from armies import services
from armies.models import Army, Tag
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


def _game(w: World):
    """The gem army's current table-mode game, started if it has none."""
    from table import table

    return w.army.games.filter(ended__isnull=True).first() or table.new_game(w.army, None)


def _play(action: str) -> Fill:
    def fill(w: World) -> tuple[dict, dict]:
        game = _game(w)
        data = {"version": str(game.version)}
        if action == "tap":
            data["tap"] = "vp.mine:1"
        return {"pk": w.army.pk}, data

    return fill


def _fair_roll(w: World) -> tuple[dict, dict]:
    """A fair roll of the G.O.M.S. army waiting for the opponent's seed."""
    import hashlib

    from table.models import AcquisitionRecord

    army = w.armies["goms"]
    record = army.acquisitions.filter(opponent_seed="").exclude(owner_seed="").first()
    if record is None:
        record = AcquisitionRecord.objects.create(
            army=army,
            owner_seed="ab" * 32,
            committed=hashlib.sha256(("ab" * 32).encode()).hexdigest(),
            units=[["Unit", "infantry", 2]],
            rerolls=2,
        )
    return {"token": army.share_token, "record_pk": record.pk}, {"seed": "opponent"}


def _trashed_army(w: World) -> tuple[dict, dict]:
    army = services.create_army(w.owner, name="In the trash", system="gem")
    services.trash_army(army.owner, army.pk)
    return {"pk": army.pk}, {}


def _trashed_unit(w: World) -> tuple[dict, dict]:
    (unit,) = services.add_units(w.army, [services.UnitSpec("In the trash", 1, w.unit.profile)])
    services.trash_unit(w.army, unit.pk, None)
    return {"pk": w.army.pk, "unit_pk": unit.pk}, {}


def _archived_army(w: World) -> tuple[dict, dict]:
    army = services.create_army(w.owner, name="In the archive", system="gem")
    Army.objects.filter(pk=army.pk).update(archived_at=timezone.now())
    return {"pk": army.pk}, {"back": ""}


def _tagged_army(w: World) -> tuple[dict, dict]:
    tag = Tag.objects.create(owner=w.owner, name="painted")
    w.army.tags.add(tag)
    return {"pk": w.army.pk}, {"tag": "painted", "back": ""}


# Routes that name one player's army, unit or library entry by id: anyone else gets 404.
OWNED: dict[str, Fill] = {
    "armies:builder": lambda w: ({"pk": w.army.pk}, {}),
    "armies:export": lambda w: ({"pk": w.army.pk}, {}),
    "sharing:export-txt": lambda w: ({"pk": w.army.pk}, {}),
    "sharing:export-md": lambda w: ({"pk": w.army.pk}, {}),
    "sharing:export-bbcode": lambda w: ({"pk": w.army.pk}, {}),
    "armies:settings": lambda w: (
        {"pk": w.army.pk},
        {"name": "Hijacked", "points_limit": "1", "notes": "", "version": str(w.army.version)},
    ),
    "sharing:roster": lambda w: ({"pk": w.army.pk}, {}),
    "sharing:cards": lambda w: ({"pk": w.army.pk}, {}),
    "odds:unit-fight": lambda w: ({"pk": w.army.pk, "unit_pk": w.unit.pk}, {}),
    "armies:accept-rules": lambda w: ({"pk": w.army.pk}, {"version": str(w.army.version)}),
    "sharing:share-on": lambda w: ({"pk": w.army.pk}, {}),
    "sharing:share-off": lambda w: ({"pk": w.army.pk}, {}),
    "armies:delete": lambda w: ({"pk": w.army.pk}, {}),
    "armies:archive": lambda w: ({"pk": w.army.pk}, {"back": ""}),
    "armies:unarchive": _archived_army,
    "armies:tag-add": lambda w: ({"pk": w.army.pk}, {"new_tag": "Hijacked", "back": ""}),
    "armies:tag-remove": _tagged_army,
    "armies:unit-add": lambda w: ({"pk": w.army.pk}, {}),
    "armies:unit-pick": lambda w: ({"pk": w.army.pk}, {"choice": "blank"}),
    "armies:unit-add-library": lambda w: ({"pk": w.army.pk}, {"entry": w.figures["gem"].pk}),
    "armies:unit-add-part": lambda w: (
        {"pk": w.army.pk, "unit_pk": w.unit.pk},
        {"entry": w.weapon.pk},
    ),
    "armies:unit-update": lambda w: ({"pk": w.army.pk, "unit_pk": w.unit.pk}, _unit_form(w)),
    "armies:unit-breakdown": lambda w: ({"pk": w.army.pk, "unit_pk": w.unit.pk}, {}),
    "armies:unit-preview": lambda w: ({"pk": w.army.pk, "unit_pk": w.unit.pk}, _unit_form(w)),
    "armies:unit-duplicate": lambda w: ({"pk": w.army.pk, "unit_pk": w.unit.pk}, {}),
    "armies:unit-move": lambda w: (
        {"pk": w.army.pk, "unit_pk": w.unit.pk},
        {"direction": "down"},
    ),
    "armies:unit-delete": lambda w: ({"pk": w.army.pk, "unit_pk": w.unit.pk}, {}),
    "armies:unit-quantity": lambda w: ({"pk": w.army.pk, "unit_pk": w.unit.pk}, {"step": "1"}),
    "table:acquisition": lambda w: ({"pk": w.armies["goms"].pk}, {}),
    "table:acquisition-roll": lambda w: ({"pk": w.armies["goms"].pk}, {}),
    "table:acquisition-reroll": lambda w: ({"pk": w.armies["goms"].pk}, {"die": "1"}),
    "table:acquisition-finish": lambda w: ({"pk": w.armies["goms"].pk}, {}),
    "table:play": lambda w: ({"pk": w.army.pk}, {}),
    "table:play-page": lambda w: ({"pk": w.army.pk, "page": 2}, {}),
    "table:play-tap": _play("tap"),
    "table:play-undo": _play("undo"),
    "table:play-new": _play("new"),
    "table:play-game": lambda w: ({"pk": w.army.pk, "number": _game(w).number}, {}),
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
    "sharing:shared": (
        "the share token is the key; the page is read-only",
        lambda w: ({"token": w.army.share_token}, {}),
    ),
    "sharing:shared-roster": (
        "the share token is the key; the page is read-only",
        lambda w: ({"token": w.army.share_token}, {}),
    ),
    **{
        f"sharing:shared-{kind}": (
            "the share token is the key; a text export is read-only",
            lambda w: ({"token": w.army.share_token}, {}),
        )
        for kind in ("txt", "md", "bbcode")
    },
    "sharing:shared-cards": (
        "the share token is the key; the cards are read-only",
        lambda w: ({"token": w.army.share_token}, {}),
    ),
    "odds:shared-unit-fight": (
        "the share token is the key; only a unit of the shared army is sent on to the "
        "public fight calculator",
        lambda w: ({"token": w.army.share_token, "unit_pk": w.unit.pk}, {}),
    ),
    "sharing:blank-cards": (
        "empty cards of a system, the same for everyone",
        lambda w: ({"system": "gem"}, {}),
    ),
    "sharing:quick-reference": (
        "a system's rules in brief, the same for everyone",
        lambda w: ({"system": "vsgmr"}, {}),
    ),
    "table:shared-play": (
        "the share token is the key; the opponent's table-mode page is read-only",
        lambda w: ({"token": w.army.share_token}, {}),
    ),
    "table:shared-play-page": (
        "the share token is the key; a page of the opponent's read-only table mode",
        lambda w: ({"token": w.army.share_token, "page": 2}, {}),
    ),
    "table:shared-play-game": (
        "the share token is the key; an earlier game, read-only",
        lambda w: ({"token": w.army.share_token, "number": _game(w).number}, {}),
    ),
    "table:shared-roll": (
        "the share token is the key; the latest acquisition roll, read-only",
        lambda w: ({"token": w.armies["goms"].share_token}, {}),
    ),
    "table:shared-roll-record": (
        "the share token is the key; one acquisition roll of that army, read-only",
        _fair_roll,
    ),
    "table:shared-roll-seed": (
        "the opponent's seed for a fair roll: taken once, through the share token, "
        "without an account; it can't change units, prices or a roll already made",
        _fair_roll,
    ),
    "sharing:fork": (
        "copies a shared army into the visitor's own armies, never changes it",
        lambda w: ({"token": w.army.share_token}, {}),
    ),
    "rules:system": ("the public rules summaries", lambda w: ({"system": "gem"}, {})),
    "odds:fight": (
        "the public fight odds calculator; a unit id in its query is offered only to its owner",
        lambda w: ({"system": "gem"}, {}),
    ),
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
