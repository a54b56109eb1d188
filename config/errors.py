"""A database that is down, stuck or locked answers 503 with a short page, never 500.

The middleware catches it in a view; handler500 (config/urls.py) catches it anywhere else
(another middleware, a template), where Django would otherwise answer its 500 page. The
page is drawn without the database, the session or the signed-in user.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable

from django.db import OperationalError
from django.http import HttpRequest, HttpResponse, HttpResponseNotFound, HttpResponseServerError
from django.template.loader import render_to_string

from config.middleware import SHARE_PREFIX, unprefixed

log = logging.getLogger(__name__)

RETRY_AFTER = 30  # seconds: a statement timeout, a lock or a failover usually passes by then


def database_unavailable(request: HttpRequest, exc: BaseException) -> HttpResponse:
    # Loud: a missing migration also raises OperationalError, and must not pass for a blip.
    log.error("database unavailable for %s %s: %r", request.method, request.path, exc)
    html = render_to_string("503.html", {"retry_after": RETRY_AFTER})
    response = HttpResponse(html, status=503)
    response["Retry-After"] = str(RETRY_AFTER)
    response["Cache-Control"] = "no-store"
    return response


class DatabaseUnavailableMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        if isinstance(exc, OperationalError):
            return database_unavailable(request, exc)
        return None


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: 503 when the error was the database's, else the 500 page, drawn as
    Django draws it: 500.html, without a context (nothing it needs can have failed)."""
    exc = sys.exc_info()[1]
    if isinstance(exc, OperationalError):
        return database_unavailable(request, exc)
    return HttpResponseServerError(render_to_string("500.html"))


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """handler404: Django's 404 page, which says what a dead link means when the address is
    a share link's (/s/..., in any language)."""
    shared = unprefixed(request.path_info).startswith(SHARE_PREFIX)
    html = render_to_string("404.html", {"request_path": request.path, "shared": shared}, request)
    return HttpResponseNotFound(html)
