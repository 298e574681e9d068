"""Debian's chromium, headless, driven by playwright: one browser for each process of the run, a fresh context
(its own cookies, storage and viewport) for each test.

Without /usr/bin/chromium (or playwright) the browser tests skip with the reason; with CI=true they fail
instead (.ci/run installs chromium). No browser is ever downloaded.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support.serving import CHROMIUM, FLAGS


def need_browser() -> None:
    """Skip (or, in CI, fail) the test when there is no chromium or no playwright to drive it."""
    missing = None
    if not Path(CHROMIUM).exists():
        missing = f"{CHROMIUM} not found (Debian's chromium package)"
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            missing = "playwright is not installed (pip install -e '.[test]')"
    if missing:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"browser tests cannot run in CI: {missing}")
        pytest.skip(f"browser tests skipped: {missing}")


@pytest.fixture(scope="session")
def chromium(tmp_path_factory):
    """The process's one headless chromium (a playwright ``Browser``), with a home folder of its own."""
    need_browser()
    from playwright.sync_api import sync_playwright

    home = tmp_path_factory.mktemp("chromium")
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / "c"), "XDG_CACHE_HOME": str(home / "k")}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True, env=env)
        yield browser
        browser.close()


@pytest.fixture
def browser(chromium):
    """A fresh browser context for one test (a laptop's 1280x900 unless a page sets its own size)."""
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    yield context
    context.close()


SCREENSHOTS = "REFEREE_TEST_SCREENSHOTS"


def screenshot(target, name: str, **options) -> None:
    """A picture of what a test saw (a page or one element), for a person to look at: written into the folder that
    $REFEREE_TEST_SCREENSHOTS names, when it names one. No check reads these pictures, and drawing a long page costs
    the browser more than the checks do, so by default nothing is drawn; a check that reads a picture (a QR code
    read back) takes its own screenshot."""
    folder = os.environ.get(SCREENSHOTS)
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        target.screenshot(path=str(Path(folder) / name), **options)


class Watched:
    """A page of a test's browser context whose console errors and failed requests are collected, at a size.

    A test that looks at pages at several sizes reuses the context's one page: a new page starts a renderer of
    its own, which costs the browser more than loading the page. Leaving hands the page back as it found it: its
    listeners and routes removed, nothing of this size's collection seen by the next."""

    def __init__(self, context, width=1280, height=900):
        open_pages = [p for p in context.pages if not p.is_closed()]
        self.page = open_pages[0] if open_pages else context.new_page()
        self.page.set_viewport_size({"width": width, "height": height})
        self.errors, self.failed = [], []
        self._routed = False
        self._listeners = {
            "console": lambda m: self.errors.append(m.text) if m.type == "error" else None,
            "pageerror": lambda e: self.errors.append(str(e)),
            "requestfailed": lambda r: (  # a freshness poll cut short by leaving the page is no failure
                None if r.url.endswith("/head") and r.failure == "net::ERR_ABORTED" else self.failed.append(r.url)
            ),
            "response": lambda r: (
                self.failed.append(f"{r.status} {r.url}")
                if r.status >= 400 and r.request.resource_type != "document"
                else None
            ),
        }
        for event, listener in self._listeners.items():
            self.page.on(event, listener)

    def offline(self) -> list[str]:
        """Let only file:// requests through, as a page opened from a USB stick with no network; the list of
        every URL the page asks for."""
        asked: list[str] = []
        self._routed = True
        self.page.route(
            "**/*",
            lambda route: (
                asked.append(route.request.url),
                route.continue_() if route.request.url.startswith("file://") else route.abort(),
            ),
        )
        return asked

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.page.is_closed():
            return
        if self._routed:
            self.page.unroute_all(behavior="ignoreErrors")
        self.page.goto("about:blank")  # the next size starts from no page, as a new one would
        for event, listener in self._listeners.items():
            self.page.remove_listener(event, listener)
