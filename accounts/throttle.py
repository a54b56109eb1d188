"""Throttling: repeated wrong passwords lock the name (and, later, the address) out, and
one address may price only so many armies a minute (armies/api.py), and one account may
import and copy only so many units an hour (armies/services.py: spend, full, refund).

Counts live in the database (accounts.models.Strikes), which every app server shares
whether or not Redis is set, and which a restart does not wipe. A count starts with the
first strike and lasts its window; for log-ins, the failure that reaches the limit locks
for LOCKOUT_SECONDS from then. While locked, passwords are not even checked, so guessing
cannot go on. An attempt is counted before its password is checked (take_attempt), so
attempts sent at once cannot all slip in under the limit.
"""

from __future__ import annotations

import hashlib
import math
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext_lazy

from accounts.models import Strikes

WINDOW_SECONDS = 15 * 60
LOCKOUT_SECONDS = 15 * 60
FAILURES_PER_USERNAME = 5
# An address may be a club or a school behind one NAT: let it make more mistakes than
# one name may, while still stopping one machine from spraying guesses over many names.
FAILURES_PER_ADDRESS = 20

MESSAGE = gettext_lazy(
    "Too many failed log-in attempts. For your safety, logging in is paused for "
    "%(minutes)d minutes: try again later, or reset your password."
)


def _name_key(username: str) -> str:
    # Hashed: a key must not carry what was typed (any length, spaces, unicode).
    name = hashlib.sha256(username.strip().casefold().encode()).hexdigest()
    return f"login-failures:name:{name}"


def _keys(request: HttpRequest, username: str) -> dict[str, int]:
    return {
        _name_key(username): FAILURES_PER_USERNAME,
        f"login-failures:addr:{client_address(request)}": FAILURES_PER_ADDRESS,
    }


def client_address(request: HttpRequest) -> str:
    """The client's IP: behind the trusted load balancer, the address it appended last."""
    if getattr(settings, "SECURE_PROXY_SSL_HEADER", None):
        # Only the last X-Forwarded-For entry is written by our proxy; earlier ones are
        # whatever the client sent and cannot be trusted.
        forwarded = request.headers.get("X-Forwarded-For", "").split(",")[-1].strip()
        if forwarded:
            return forwarded[:64]
    return request.META.get("REMOTE_ADDR", "")[:64]


def _count_row(key: str, window: int, now) -> Strikes:
    """The live count for `key`, locked until the transaction ends (a new one if it ran out)."""
    # Locked, so two requests at once cannot both read 4 and write 5.
    found = Strikes.objects.select_for_update().filter(key=key).first()
    if found is None or found.expires <= now:
        if found is not None:
            found.delete()
        # A new count: a good moment to forget every count that has run out.
        Strikes.objects.filter(expires__lte=now).delete()
        found, created = Strikes.objects.get_or_create(
            key=key, defaults={"expires": now + timedelta(seconds=window)}
        )
        if not created:  # another request started it first: wait for it as above
            found = Strikes.objects.select_for_update().get(pk=found.pk)
    return found


def strike(key: str, limit: int, window: int, lockout: int | None = None) -> Strikes:
    """Count one more strike against `key`. A count lasts `window` seconds from its first
    strike; the strike that reaches `limit` makes it last `lockout` seconds from then."""
    now = timezone.now()
    with transaction.atomic():
        found = _count_row(key, window, now)
        found.count += 1
        if found.count == limit and lockout is not None:
            found.expires = now + timedelta(seconds=lockout)
        found.save(update_fields=["count", "expires"])
    return found


def spend(key: str, amount: int, budget: int, window: int) -> Strikes | None:
    """Take `amount` from `key`'s budget for `window` seconds: None when it fitted (and is
    now spent), else the count that is full, for retry_after (nothing is taken then)."""
    now = timezone.now()
    with transaction.atomic():
        found = _count_row(key, window, now)
        if found.count + amount > budget:
            return found
        found.count += amount
        found.save(update_fields=["count"])
    return None


def full(key: str, budget: int) -> Strikes | None:
    """`key`'s live count when it has spent all of `budget`, else None (a read: nothing is
    counted), to refuse early what spend() would refuse."""
    return Strikes.objects.filter(key=key, count__gte=budget, expires__gt=timezone.now()).first()


def refund(key: str, amount: int) -> None:
    """Give back `amount` spent on `key` (a change that did not happen after all). One
    UPDATE, exact under concurrency; a count that ran out meanwhile is left as it is."""
    Strikes.objects.filter(key=key, count__gte=amount, expires__gt=timezone.now()).update(
        count=F("count") - amount
    )


def retry_after(found: Strikes) -> int:
    """Whole seconds until `found` runs out: a Retry-After header's value."""
    return max(1, math.ceil((found.expires - timezone.now()).total_seconds()))


def locked(request: HttpRequest, username: str) -> bool:
    limits = _keys(request, username)
    counts = dict(
        Strikes.objects.filter(key__in=limits, expires__gt=timezone.now()).values_list(
            "key", "count"
        )
    )
    return any(counts.get(key, 0) >= limit for key, limit in limits.items())


def take_attempt(request: HttpRequest, username: str) -> bool:
    """Count a log-in attempt against its name and address before its password is checked,
    and say whether it may be checked. Counted first, each under its row's lock, so log-ins
    racing on several workers never get more checks than one after another would: the
    attempt past a limit is refused, whatever its password. A right password gives its
    count back (give_back)."""
    counts = [
        strike(key, limit, WINDOW_SECONDS, LOCKOUT_SECONDS).count <= limit
        for key, limit in _keys(request, username).items()
    ]
    return all(counts)


def give_back(request: HttpRequest, username: str) -> None:
    """Take back the attempt take_attempt counted, for a log-in that was not a wrong
    password. One UPDATE each, so it is exact under concurrency too."""
    Strikes.objects.filter(key__in=_keys(request, username), count__gt=0).update(
        count=F("count") - 1
    )


def clear(username: str) -> None:
    # Only the name's count: clearing the address's would let someone with an account
    # of their own reset it between guesses at someone else's.
    Strikes.objects.filter(key=_name_key(username)).delete()
