"""Muster as an installable app that keeps working at the table (SPEC 5, "Offline at the
table"): the web app manifest, the service worker and the page shown for a page the
device does not keep.

The service worker is served at the site's root (/sw.js), so its scope covers every page;
its code lives in static/js/sw.js like the rest of the site's JavaScript. It keeps only
pages the player opened (table mode, roster, share page, the army list) and the static
files they loaded: see the file's header.
"""

from __future__ import annotations

from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.http import require_GET

from accounts.http import HtmxHttpRequest

THEME_COLOUR = "#1f3b5c"  # the icon's ground (static/icons/muster.svg)
SERVICE_WORKER = "js/sw.js"


@require_GET
def manifest(request: HtmxHttpRequest) -> HttpResponse:
    # The icon is drawn edge to edge, its mark well inside the middle: safe to mask.
    icons = [
        {
            "src": static(f"icons/muster-{size}.png"),
            "sizes": f"{size}x{size}",
            "type": "image/png",
            "purpose": "any maskable",
        }
        for size in (192, 512)
    ]
    found = {
        "name": "Muster",
        "short_name": "Muster",
        "description": "Army lists priced with the working shown, and table mode for the game.",
        "id": "/armies/",
        "start_url": reverse("armies:list"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": THEME_COLOUR,
        "icons": icons,
    }
    response = JsonResponse(found, content_type="application/manifest+json")
    response["Cache-Control"] = "public, max-age=3600"
    return response


@require_GET
def service_worker(request: HtmxHttpRequest) -> HttpResponse:
    """The worker's code from static/ (collected or not), at the root: a worker controls
    only pages under the folder it is served from."""
    path = finders.find(SERVICE_WORKER)
    if path:
        with open(path, "rb") as source:
            code = source.read()
    else:  # pragma: no cover - a deployment serving collected files only
        with staticfiles_storage.open(SERVICE_WORKER) as source:
            code = source.read()
    response = HttpResponse(code, content_type="text/javascript; charset=utf-8")
    # Browsers check for a new worker at each visit; never let a cache hold an old one.
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def offline_page(request: HtmxHttpRequest) -> HttpResponse:
    """Shown by the worker, without a network, for a page this device does not keep:
    lists the pages it does keep (static/js/offline.js fills the list)."""
    return render(request, "offline.html")
