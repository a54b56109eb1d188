"""The print set beside the roster sheet (SPEC 5): unit cards cut to size, blank cards to
fill in by hand, and a one-page quick reference per system, all with the page header and
page numbers of static/css/print-set.css.

Unit cards draw the roster's own cards (armies/unit_cards.py), so a card says exactly what the
roster says; the options kept in the URL (PrintOptions) show or hide parts of both.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.module_loading import import_string
from django.views.decorators.http import require_GET

import points
from armies.access import army_for_owner, private, shared_army_or_404
from armies.models import Army
from points import d10, gem, goms, vsgmr
from points.numbers import percent
from rules import pages
from rules.systems import SYSTEM_PAGES
from sharing import roster

# ---------------------------------------------------------------- unit cards


def render_cards(request: HttpRequest, army: Army, back_url: str) -> HttpResponse:
    state = roster.RosterState(army)
    options = roster.PrintOptions.of(request.GET)
    context = {
        "army": army,
        "state": state,
        **state.lazy(*roster.LAZY),
        "options": options,
        "back_url": back_url,
        "printed": timezone.localdate(),
        "system_template": army.system_pages.roster_card,
        "drawn_cards": state.drawn_cards,
        "header": f"{army.name} · unit cards",
    }
    return private(render(request, "sharing/cards.html", context))


@require_GET
@login_required
def army_cards(request: HttpRequest, pk: int) -> HttpResponse:
    army = army_for_owner(request, pk)
    return render_cards(request, army, army.get_absolute_url())


@require_GET
def shared_cards(request: HttpRequest, token: str) -> HttpResponse:
    army = shared_army_or_404(token)
    return render_cards(request, army, army.get_share_url())


# ---------------------------------------------------------------- blank cards

BLANK_CARDS = 9  # one page of poker cards


def _system(system: str):
    if system not in points.SYSTEMS:
        raise Http404("Muster has no such system.")
    return points.SYSTEMS[system]


@require_GET
def blank_cards(request: HttpRequest, system: str) -> HttpResponse:
    info = _system(system)
    page = SYSTEM_PAGES[system]
    context = {
        "system": system,
        "pages": page,
        "label": info.label,
        "cards": range(BLANK_CARDS),
        "header": f"Muster blank cards · {info.label}",
        **import_string(page.blank_choices)(),
    }
    return render(request, "sharing/cards_blank.html", context)


# What each system's blank card offers to circle (its sharing/blank_<key>.html).


def gem_blank() -> dict:
    return {
        "gem_stats": [key.upper() for key in gem.STATS],
        "gem_types": list(gem.TYPE_MOD),
        "gem_bases": list(gem.BASE_MOD),
    }


def vsgmr_blank() -> dict:
    return {"vsgmr_figures": ("troop", "hero", "mook", "cavalry", "vehicle")}


def goms_blank() -> dict:
    return {
        "goms_kinds": list(goms.KIND_NAMES.values()),
        "morale": [(goms.MORALE_NAMES[k], v) for k, v in goms.MORALE.items()],
    }


def d10_blank() -> dict:
    return {"d10_stats": ("CS", "WP", "SH", "CQC", "PH", "AG")}


# ---------------------------------------------------------------- quick reference


def gem_reference() -> dict:
    return {
        "table_1": pages.table_1(),
        "defs": gem.TABLE_RANGE,
        "base_mods": list(gem.BASE_MOD.items()),
        "type_mods": list(gem.TYPE_MOD.items()),
        "fire_divisors": [(f.replace("-", " "), d) for f, d in gem.FIRE_DIVISOR.items()],
        "heavy": gem.HEAVY_WEAPON,
        "area": gem.AREA_BONUS,
    }


def vsgmr_reference() -> dict:
    return {
        "figures": list(vsgmr.FIGURE_COST.items()),
        "distance": vsgmr.DISTANCE_ATTACK_COST,
        "automatic": vsgmr.AUTOMATIC_FIRE_COST,
        "guy_armour": vsgmr.GUY_ARMOR_COST,
        "mount_armour": vsgmr.MOUNT_ARMOR_COST,
        "trait_cost": vsgmr.TRAIT_COST,
        "traits": sorted(vsgmr.TRAITS.values(), key=lambda t: t.name),
        "powers": [
            (p.name, p.roll, [p.cost[t] for t in vsgmr.TIERS], p.guys_only)
            for p in vsgmr.SUPER_POWERS.values()
        ],
        "tier_dice": [vsgmr.TIER_DIE[t] for t in vsgmr.TIERS],
        "tiers": vsgmr.TIERS,
        "scenarios": [
            (name, [(side, low, high) for side, (low, high) in sides.items()])
            for name, sides in vsgmr.SCENARIOS.values()
        ],
        "balance": vsgmr.BALANCE_MARGIN,
    }


def goms_reference() -> dict:
    return {
        "unit_cost": goms.UNIT_COST,
        "reroll": goms.REROLL_COST,
        "extension": goms.SETUP_EXTENSION_COST,
        "extension_inches": goms.SETUP_EXTENSION_INCHES,
        "extensions_max": goms.MAX_SETUP_EXTENSIONS,
        "dug_in": goms.DUG_IN_COST,
        "sizes": list(goms.GAME_SIZES.items()),
        "morale": [(goms.MORALE_NAMES[k], v) for k, v in goms.MORALE.items()],
        "platoon": goms.PLATOON_SECTIONS,
        "per_company": goms.PLATOONS_PER_COMPANY_HQ,
        "acquisition": [(goms.ACQUISITION_NAMES[k], row) for k, row in goms.ACQUISITION.items()],
        "faces": range(1, 7),
    }


def d10_reference() -> dict:
    stats = range(d10.SKILL_RANGE[0], d10.SKILL_RANGE[1] + 1)
    return {
        "target": d10.TARGET_NUMBER,
        "chances": [(s, percent(d10.success_chance(s))) for s in stats],
        "weapons": d10.WEAPONS,
        "weapon_traits": d10.WEAPON_TRAITS,
        "model": d10.MODEL_POINTS,
        "leader": d10.LEADER_POINTS,
    }


@require_GET
def quick_reference(request: HttpRequest, system: str) -> HttpResponse:
    info = _system(system)
    context = {
        "system": system,
        "pages": SYSTEM_PAGES[system],
        "label": info.label,
        "version": info.version,
        "header": f"Muster quick reference · {info.label}",
        "ref": import_string(SYSTEM_PAGES[system].reference)(),
    }
    return render(request, "sharing/cards_reference.html", context)
