"""Shared test settings and fixtures: hypothesis runs derandomized, so a CI run is
repeatable; one Playwright and one Debian chromium serve every browser test."""

import os

import pytest
from chromium import launch_chromium
from hypothesis import HealthCheck, settings

settings.register_profile("solwidget", derandomize=True, deadline=None, max_examples=40,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("solwidget")


@pytest.fixture(scope="session")
def playwright_session():
    """The one Playwright of a test run: its sync API allows a single instance at a time, so
    the real-browser tests (tests/browser) and the front end's tests (tests/js) share it."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="session")
def browser(playwright_session):
    """Debian's chromium under Playwright; failing to launch fails under CI (the project
    installs it there) and skips elsewhere."""
    try:
        chromium = launch_chromium(playwright_session)
    except Exception as error:  # noqa: BLE001 - any launch failure means the same here
        message = f"cannot launch Debian's chromium: {error}"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(message)
        pytest.skip(message)
    yield chromium
    chromium.close()
