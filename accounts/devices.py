"""Whom a page was drawn for, as the device that keeps it offline sees it (SPEC 5,
"Offline at the table"; issue #45).

Muster's service worker (static/js/sw.js) keeps some pages on the phone. Those copies
belong to one signed-in account: every HTML answer says which (the `X-Muster-Account`
header, and `data-account` on the page's <html>), and the worker drops every copy the
moment an answer names another account, or nobody. The tag is opaque: an HMAC of the
user's id under SECRET_KEY, never the user name, so a page's headers tell nothing about
who is signed in to anyone who does not already know.
"""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.crypto import salted_hmac
from django.utils.functional import lazy

HEADER = "X-Muster-Account"
SIGNED_OUT = "anon"  # the tag of a page drawn for nobody signed in


def device_account(request: HttpRequest) -> str:
    """The tag of the account `request` is signed in as, or SIGNED_OUT."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return SIGNED_OUT
    return salted_hmac("muster.devices.account", str(user.pk), algorithm="sha256").hexdigest()[:32]


def account_tag(request: HttpRequest) -> dict[str, object]:
    """Template context: `device_account` for base.html's <html data-account>, worked
    out only where a template shows it (an htmx fragment does not)."""
    return {"device_account": lazy(device_account, str)(request)}
