"""Cache-Control for pages no cache may keep.

A page drawn for someone signed in shows their armies and carries their CSRF token: no
shared cache may keep it, and no browser should keep it on disk for the next person at
the computer (`private, no-store`). A share page (/s/<token>/...) is public, but only
while its link lives: stored nowhere (`no-store`), revoking the link ends it at once.
A response that already says how to cache it (never_cache, WhiteNoise's static files)
keeps what it says.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth import SESSION_KEY
from django.http import HttpRequest, HttpResponse

SHARE_PREFIX = "/s/"  # config/urls.py: every share page lives under it


class CacheControlMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.has_header("Cache-Control"):
            return response
        if request.path_info.startswith(SHARE_PREFIX):
            response["Cache-Control"] = "no-store"
        elif _drawn_for_someone_signed_in(request):
            response["Cache-Control"] = "private, no-store"
        return response


def _drawn_for_someone_signed_in(request: HttpRequest) -> bool:
    # A view that never read the session (the pricing API) drew nothing of anyone's;
    # asking here would read it for nothing (and add Vary: Cookie).
    session = getattr(request, "session", None)
    return session is not None and session.accessed and SESSION_KEY in session
