"""manage.py in a process of its own, as a deployment runs it."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.samples import ROOT

# Test-only switches a real deployment does not have.
TEST_ONLY = {"DJANGO_SETTINGS_MODULE", "DJANGO_ALLOW_ASYNC_UNSAFE"}


def manage(*args: str, timeout: int = 120, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in TEST_ONLY}
    clean.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
