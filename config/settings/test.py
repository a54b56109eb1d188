"""Fast settings for the test suite (the test runner swaps in in-memory email itself)."""

from config.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# Each test run gets its own cache (log-in failure counts live there), never a shared Redis.
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# SQLite tests use a file, as production does, not a shared in-memory database: only a
# file has WAL and real locking, which the concurrent-save tests need to be honest.
# One per process, so parallel test runs on one machine never share it.
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    import os
    import tempfile

    DATABASES["default"]["TEST"] = {  # noqa: F405
        "NAME": os.path.join(tempfile.gettempdir(), f"muster-test-{os.getpid()}.sqlite3")
    }
