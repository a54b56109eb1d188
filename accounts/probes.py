"""Health probes that address a node by its IP address.

Load balancers and orchestrators often probe each app server at its own address (an AWS
target group sends the node's IP as the Host), which ALLOWED_HOSTS rightly refuses: the
probe would get 400 and take every healthy node out of rotation. This middleware, first
in the chain, answers /healthz itself whenever the Host is one ALLOWED_HOSTS refuses (an
IP address or any other). Any other path, and /healthz with an allowed Host, goes
through the whole chain as before.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable

from django.core.cache import cache
from django.core.exceptions import DisallowedHost
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

HEALTHZ = "/healthz"  # config/urls.py routes it to healthz below


@require_GET
@never_cache
def healthz(request: HttpRequest) -> HttpResponse:
    # A load balancer takes this node out of rotation when its database is unreachable.
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception:
        return JsonResponse({"status": "unavailable", "database": "unreachable"}, status=503)
    # Without its cache a node still serves every page, only slower: still 200, so a
    # Redis shared by every node going away does not take them all out of rotation.
    if not _cache_answers():
        return JsonResponse({"status": "degraded", "cache": "unreachable"})
    return JsonResponse({"status": "ok", "cache": "ok"})


def _cache_answers() -> bool:
    # A round trip under a key of this probe's own: a failing cache answers a miss.
    key = f"healthz:{secrets.token_hex(8)}"
    cache.set(key, "ok", 10)
    found = cache.get(key)
    cache.delete(key)
    return found == "ok"


class HealthProbeMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info == HEALTHZ:
            try:
                request.get_host()
            except DisallowedHost:
                # The answer says ok or unavailable, nothing from the request.
                return healthz(request)
        return self.get_response(request)
