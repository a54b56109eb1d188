"""Redis as a cache that can fail: an unreachable or stuck Redis is a miss, not a 500.

Everything Muster caches can be drawn again from the database (SPEC 6: degraded, not
down), so when Redis errs or does not answer within its short socket timeout the page is
drawn without it. After a failure this process leaves Redis alone for RETRY_SECONDS, so
a page of many cached fragments waits for one timeout, not one per fragment; /healthz
reports the cache all the while (accounts/views.py).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache

log = logging.getLogger(__name__)

RETRY_SECONDS = 10.0


class ResilientRedisCache(RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._skip_until = 0.0  # monotonic time before which Redis is not asked

    def _try(self, call: Callable[[], Any], miss: Any) -> Any:
        if time.monotonic() < self._skip_until:
            return miss
        try:
            return call()
        except Exception as exc:  # redis' ConnectionError, TimeoutError, ResponseError…
            self._skip_until = time.monotonic() + RETRY_SECONDS
            log.warning("cache unavailable for %.0f s, drawing without it: %r", RETRY_SECONDS, exc)
            return miss

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._try(lambda: RedisCache.add(self, key, value, timeout, version), False)

    def get(self, key, default=None, version=None):
        return self._try(lambda: RedisCache.get(self, key, default, version), default)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        self._try(lambda: RedisCache.set(self, key, value, timeout, version), None)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._try(lambda: RedisCache.touch(self, key, timeout, version), False)

    def delete(self, key, version=None):
        return self._try(lambda: RedisCache.delete(self, key, version), False)

    def get_many(self, keys, version=None):
        return self._try(lambda: RedisCache.get_many(self, keys, version), {})

    def has_key(self, key, version=None):
        return self._try(lambda: RedisCache.has_key(self, key, version), False)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        # What could not be stored: everything, when Redis is away.
        return self._try(lambda: RedisCache.set_many(self, data, timeout, version), list(data))

    def delete_many(self, keys, version=None):
        self._try(lambda: RedisCache.delete_many(self, keys, version), None)

    def clear(self):
        return self._try(lambda: RedisCache.clear(self), False)
