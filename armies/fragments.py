"""Drawn HTML remembered per process, so a page shows an unchanged army without loading,
pricing or drawing its units again.

Two kinds of keys:

- **By army version** (`army_key`): an army's `version` moves on every change to what
  its pages show (Army.bump_version: unit saves, adds, moves, deletes, settings). A part
  drawn for version N is therefore right for as long as N is current, and never served
  once it is not. Writers keep to one rule: change, then bump, or both in one
  transaction, never bump then change in two (a reader in between would remember the old
  content under the new version). The key also holds the army's creation time, so a
  database reset that hands out the same id and version again cannot meet an old entry.
- **By what is drawn** (unit rows and roster cards, see templatetags/muster.py): the
  key holds the engine's priced unit, which the engine hands back for the same unit.

Bounded by size (characters of HTML): the least recently used entries go first. Off
under DEBUG, where templates change under a running server. Per process: each worker
draws a part once per version.

A full page can take its large parts as bytes (`Splice`): a 200-unit roster is ~650 KB,
and as text it would be copied into each enclosing template's output and encoded to
UTF-8 again on every view, which cost about as much as the rest of the page.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import get_script_prefix

MAX_CHARS = 64 * 2**20  # of HTML per process (mostly ASCII): ~100 views of 200-unit armies


class Memo:
    """Values kept per process, the least recently used dropped first once the sum of
    their len() passes `max_size`: characters of HTML here, units in armies/models.py."""

    def __init__(self, max_size: int = MAX_CHARS):
        self.max_size = max_size
        self.size = 0
        self._kept: OrderedDict[Hashable, tuple[object, str | bytes | tuple]] = OrderedDict()
        self._lock = threading.Lock()  # for threaded servers; sync workers never wait

    def get_or_draw[T: (str, bytes, tuple)](
        self, key: Hashable, draw: Callable[[], T], anchor: object = None
    ) -> T:
        """The value kept for `key`, else draw() kept. `anchor` is an object the value was
        drawn from: kept alive with it, and the entry counts only while it is the same
        object (keys that hold an id() need this)."""
        if settings.DEBUG:
            return draw()
        with self._lock:
            seen = self._kept.get(key)
            if seen is not None and seen[0] is anchor:
                self._kept.move_to_end(key)
                return seen[1]  # type: ignore[return-value]
        html = draw()
        with self._lock:
            old = self._kept.pop(key, None)
            if old is not None:
                self.size -= len(old[1])
            self._kept[key] = (anchor, html)
            self.size += len(html)
            while self.size > self.max_size and self._kept:
                _, (_, dropped) = self._kept.popitem(last=False)
                self.size -= len(dropped)
        return html

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self.size = 0

    def __len__(self) -> int:
        return len(self._kept)


drawn = Memo()


def version_key(army) -> tuple:
    """What identifies an army's content: see the module docstring."""
    return (army.pk, army.created, army.version)


def army_key(army) -> tuple:
    """version_key, and the script prefix for the links inside drawn HTML (a process may
    serve under more than one)."""
    return (get_script_prefix(), *version_key(army))


# A remembered part may hold forms. It is drawn once for every request that shows it, so
# it is drawn with this in place of the CSRF token, and each response puts its own token
# there (with_csrf, Splice.marker). Random per process: nothing a player types can be it.
CSRF_STAND_IN = f"csrf-stand-in-{secrets.token_hex(16)}"
CSRF_STAND_IN_BYTES = CSRF_STAND_IN.encode()


def csrf_text(token: object) -> str:
    """The token a response's forms carry, from a template's `csrf_token` (lazy)."""
    text = str(token) if token else ""
    return "" if text == "NOTPROVIDED" else text


def with_csrf(html: str, csrf: Callable[[], str]) -> str:
    return html.replace(CSRF_STAND_IN, csrf()) if CSRF_STAND_IN in html else html


class Splice:
    """Remembered parts set into a page's bytes after it is rendered.

    The template gets a marker in place of each part (`marker`) and `into` swaps the
    part's UTF-8 bytes in, in one pass. Markers hold a token random per page, so nothing
    a player typed (and it is escaped anyway) can stand for one.
    """

    def __init__(self) -> None:
        self._token = secrets.token_hex(8)
        self._parts: list[bytes] = []

    def marker(self, part: bytes, csrf: Callable[[], str] = str) -> str:
        """Where `part` goes; its CSRF stand-in, if any, becomes csrf() (csrf_text)."""
        if CSRF_STAND_IN_BYTES in part:
            part = part.replace(CSRF_STAND_IN_BYTES, csrf().encode())
        self._parts.append(part)
        return f"<!--{self._token}:{len(self._parts) - 1}-->"

    def into(self, response: HttpResponse) -> HttpResponse:
        if not self._parts:
            return response
        # Split on the token alone: a pattern made for each page's token would be compiled
        # for each page. Every piece after the first starts "<number>-->".
        first, *rest = response.content.split(b"<!--" + self._token.encode() + b":")
        pieces = [first]
        for piece in rest:
            number, _, after = piece.partition(b"-->")
            pieces += [self._parts[int(number)], after]
        response.content = b"".join(pieces)
        return response


def render_page(request: HttpRequest, template: str, context: dict) -> HttpResponse:
    """render(), with the page's remembered parts set in as bytes (see Splice)."""
    splice = Splice()
    return splice.into(render(request, template, {**context, "splice": splice}))
