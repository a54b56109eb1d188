"""The request every page gets: Django's, with django-htmx's `request.htmx` (HtmxMiddleware).

Views annotate their request with it, so `request.htmx` is typed wherever a page asks
whether htmx sent it. It lives here because every web app may import accounts, and
accounts imports none of them.
"""

from __future__ import annotations

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails
