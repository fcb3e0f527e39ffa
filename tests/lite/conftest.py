"""Fixtures of the lite tests: the site built once a session from this checkout (again only
when what it is made from changed: lite/build_site.py), served on loopback, and browser
pages that reach nothing else (lite_harness.py)."""

from __future__ import annotations

import pytest

from lite_harness import ROOT, StaticServer, new_page, offline_context


@pytest.fixture(scope="session")
def lite_site():
    """build/lite, built from the checkout if it is missing or stale."""
    from lite import build_site

    return build_site.build(ROOT / "build" / "lite")


@pytest.fixture(scope="session")
def lite_server(lite_site, tmp_path_factory):
    """A static server whose /lite/ is the site."""
    root = tmp_path_factory.mktemp("served")
    (root / "lite").symlink_to(lite_site, target_is_directory=True)
    with StaticServer(root) as server:
        yield server


@pytest.fixture()
def offline(browser):
    """offline(base) -> a page that reaches only ``base``; after the test, no request may have
    gone anywhere else and the page may have logged no error."""
    opened = []

    def open_page(base: str):
        context = offline_context(browser, base)
        page = new_page(context)
        opened.append((context, page))
        return page

    yield open_page
    for context, page in opened:
        refused, errors = list(context.refused), list(page.errors)
        context.close()
        assert not refused, f"requests outside the site: {refused}"
        assert not errors, "the page logged errors:\n" + "\n".join(errors)
