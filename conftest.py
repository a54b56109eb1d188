"""Root fixtures shared by every test package."""

from __future__ import annotations

import os

# Playwright's sync API runs an event loop in the test thread; Django's ORM would
# otherwise refuse to run there. Only tests set this.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
