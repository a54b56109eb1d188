"""Two answers given before or instead of a view's: a paste too large for Django to
read, answered beside the import form; and a share link that no longer works.

A paste too large:

Django refuses a form body whose fields pass DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB) the
first time anything reads it, and the first reader is the CSRF check, before any view
runs: the player saw Django's 400 page instead of the form. This middleware reads the
import page's post first and, when it is refused, shows the form again with the reason.
Nothing is written then, so there is nothing for a forged request to gain.

A share link that no longer works (armies.access.ShareLinkGone) is a 404 with a page of
its own, drawn here rather than by Django's 404 handler: under DEBUG (bin/serve) that
handler shows its debug page listing every URL pattern to the opponent holding the link.
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from armies.access import ShareLinkGone, private
from armies.forms import ImportForm


class ImportTooLargeMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "POST" and request.path_info == reverse("armies:import"):
            try:
                request.POST  # noqa: B018  (read now, so a refusal can be answered here)
            except RequestDataTooBig:
                if request.user.is_authenticated:
                    form = ImportForm({}, too_large=True)
                    return render(request, "armies/army_import.html", {"form": form}, status=413)
        return self.get_response(request)


class ShareLinkGoneMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        if isinstance(exc, ShareLinkGone):
            return private(render(request, "armies/share_gone.html", status=404))
        return None
