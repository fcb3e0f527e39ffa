"""Shared test settings: hypothesis runs derandomized, so a CI run is repeatable."""

import pytest
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
