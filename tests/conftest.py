"""Shared test settings and fixtures: hypothesis runs derandomized, so a CI run is
repeatable; one Playwright and one Debian chromium serve every browser test; ``--fuzz``
runs the fuzz suite (test_fuzz.py) with ten times its cases, and the session ends with
the count of cases each boundary ran."""

import os

import fuzzing
import pytest
from chromium import launch_chromium
from hypothesis import HealthCheck, settings

settings.register_profile(
    "solwidget",
    derandomize=True,
    deadline=None,
    max_examples=40,
    suppress_health_check=[HealthCheck.too_slow],
)
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


def pytest_addoption(parser):
    parser.addoption(
        "--fuzz", action="store_true", help="run the fuzz suite (tests/test_fuzz.py) with ten times its cases"
    )


def pytest_configure(config):
    if config.getoption("--fuzz"):
        fuzzing.SCALE = 10


def pytest_terminal_summary(terminalreporter):
    if fuzzing.CASES:
        terminalreporter.section("fuzz cases by boundary")
        for boundary, count in sorted(fuzzing.CASES.items()):
            terminalreporter.write_line(f"{boundary:<28} {count:>7,}")
        terminalreporter.write_line(f"{'all boundaries':<28} {sum(fuzzing.CASES.values()):>7,}")
