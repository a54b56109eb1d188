"""Cache-Control for pages no cache may keep.

A page drawn for someone signed in shows their armies and carries their CSRF token: no
shared cache may keep it, and no browser should keep it on disk for the next person at
the computer (`private, no-store`). A share page (/s/<token>/...) is public, but only
while its link lives: stored nowhere (`no-store`), revoking the link ends it at once.
A response that already says how to cache it (never_cache, WhiteNoise's static files)
keeps what it says.

Every HTML answer also says whom it was drawn for (accounts/devices.py): the service
worker keeps a page offline for that account only.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth import SESSION_KEY
from django.http import HttpRequest, HttpResponse

from accounts.devices import HEADER, device_account

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


class AccountTagMiddleware:
    """`X-Muster-Account` on the HTML answers (accounts/devices.py): every page and form
    answer, and each htmx fragment drawn for someone (it read the session). A fragment
    that never read it (the pricing preview) and JSON answers (the API) say nothing: it
    would cost them a session read for nothing. So does a server error."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        # A server error (a database that does not answer) says nothing: asking whom it
        # was for would ask the database again.
        if response.status_code >= 500 or not response.get("Content-Type", "").startswith(
            "text/html"
        ):
            return response
        session = getattr(request, "session", None)
        if not getattr(request, "htmx", False) or (session is not None and session.accessed):
            response[HEADER] = device_account(request)
        return response
