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


@pytest.fixture(scope="session")
def docs_server(lite_site, tmp_path_factory):
    """The documentation site (mkdocs build, which copies in the lessons' site as lite/),
    served on loopback."""
    import os
    import subprocess
    import sys

    site = tmp_path_factory.mktemp("docs") / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--quiet",
            "--config-file",
            str(ROOT / "mkdocs.yml"),
            "--site-dir",
            str(site),
        ],
        cwd=ROOT,
        check=True,
        timeout=600,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    with StaticServer(site) as server:
        yield server
