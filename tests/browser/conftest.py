"""Playwright driving Debian's chromium against pytest-django's live_server."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser():
    chromium = shutil.which("chromium")
    if chromium is None:
        message = "chromium is not installed (as root: apt-get install -y chromium)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{message}: CI needs the browser tests")
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=chromium,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser, live_server):
    context = browser.new_context(base_url=live_server.url)
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    # A CSP violation or script error is a bug: collect them and fail the test.
    page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert errors == [], f"browser console errors: {errors}"


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
