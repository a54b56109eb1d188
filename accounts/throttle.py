"""Log-in throttling: repeated wrong passwords lock the name (and, later, the address) out.

Counters live in Django's cache (per-process memory in development, Redis in production,
so every app server sees the same counts). A counter starts with the first failure and
lasts WINDOW_SECONDS; the failure that reaches the limit locks for LOCKOUT_SECONDS from
then. While locked, passwords are not even checked, so guessing cannot go on.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

WINDOW_SECONDS = 15 * 60
LOCKOUT_SECONDS = 15 * 60
FAILURES_PER_USERNAME = 5
# An address may be a club or a school behind one NAT: let it make more mistakes than
# one name may, while still stopping one machine from spraying guesses over many names.
FAILURES_PER_ADDRESS = 20

MESSAGE = (
    "Too many failed log-in attempts. For your safety, logging in is paused for "
    f"{LOCKOUT_SECONDS // 60} minutes: try again later, or reset your password."
)


def _name_key(username: str) -> str:
    # Hashed: a cache key must not carry what was typed (any length, spaces, unicode).
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


def locked(request: HttpRequest, username: str) -> bool:
    limits = _keys(request, username)
    counts = cache.get_many(list(limits))
    return any(counts.get(key, 0) >= limit for key, limit in limits.items())


def record_failure(request: HttpRequest, username: str) -> None:
    for key, limit in _keys(request, username).items():
        cache.add(key, 0, WINDOW_SECONDS)
        try:
            count = cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, WINDOW_SECONDS)
            count = 1
        if count >= limit:
            cache.touch(key, LOCKOUT_SECONDS)


def clear(username: str) -> None:
    # Only the name's counter: clearing the address's would let someone with an account
    # of their own reset it between guesses at someone else's.
    cache.delete(_name_key(username))
