"""Cache-Control for pages no cache may keep, and the language a visitor arrives in.

A page drawn for someone signed in shows their armies and carries their CSRF token: no
shared cache may keep it, and no browser should keep it on disk for the next person at
the computer (`private, no-store`). A share page (/s/<token>/...) is public, but only
while its link lives: stored nowhere (`no-store`), revoking the link ends it at once.
A response that already says how to cache it (never_cache, WhiteNoise's static files)
keeps what it says.

Every HTML answer also says whom it was drawn for (accounts/devices.py): the service
worker keeps a page offline for that account only.

English pages live at the unprefixed addresses, the other languages' under /de/, /fr/
(config/urls.py). A visitor who opens an unprefixed page while their browser or their
choice (the language cookie, which logging in sets from the account) asks for another
language is sent to that language's address; the API, which has no prefix, answers in it.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import translate_url
from django.utils import translation
from django.utils.cache import patch_vary_headers

from accounts.devices import HEADER, device_account

SHARE_PREFIX = "/s/"  # config/urls.py: every share page lives under it


class CacheControlMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.has_header("Cache-Control"):
            return response
        if unprefixed(request.path_info).startswith(SHARE_PREFIX):
            response["Cache-Control"] = "no-store"
        elif _drawn_for_someone_signed_in(request):
            response["Cache-Control"] = "private, no-store"
        return response


def unprefixed(path: str) -> str:
    """`path` without its language prefix: /de/s/<token>/ -> /s/<token>/."""
    language = translation.get_language_from_path(path)
    return path.removeprefix(f"/{language}") if language else path


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


class LanguageMiddleware:
    """After Django's LocaleMiddleware, which draws every unprefixed address in English: a
    visitor whose language cookie or browser asks for another of LANGUAGES is sent to the
    page's address in it (a page opened in a browser: GET, not htmx, asking for HTML);
    anything else unprefixed that has no such address (the API) answers in that language.
    A prefixed address is drawn in its own language, whatever the visitor's."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if translation.get_language_from_path(request.path_info):
            return self.get_response(request)
        wanted = translation.get_language_from_request(request)
        if wanted == settings.LANGUAGE_CODE:
            return self.get_response(request)
        here = request.get_full_path()
        there = translate_url(here, wanted)
        if there == here:  # no page in another language: the API
            translation.activate(wanted)
            request.LANGUAGE_CODE = wanted
            response = self.get_response(request)
        elif _opened_in_a_browser(request):
            response = HttpResponseRedirect(there)
        else:  # a form or an htmx request from an English page stays English
            response = self.get_response(request)
        patch_vary_headers(response, ("Accept-Language", "Cookie"))
        return response


def _opened_in_a_browser(request: HttpRequest) -> bool:
    # Not the service worker's own requests (its script, the pages it keeps: */*), whose
    # answers must not be redirects.
    return (
        request.method in ("GET", "HEAD")
        and "HX-Request" not in request.headers
        and "text/html" in request.headers.get("Accept", "")
    )
