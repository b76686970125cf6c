"""What a reader's browser loads on a first visit of a page: every file it fetches (page,
styles, scripts, fonts, figures), counted by its bytes on disk, uncompressed, once the page
has settled: loaded, its fonts ready, its images decoded (conditions, not a quiet time on the
network that a busy machine can miss).  The browser test holds each page to ``LIMIT``;
``make bench`` prints them all."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlparse

LIMIT = 1_000_000  # bytes
HANG = 120_000  # ms: the cap on each wait, against a hang (a busy machine is slower)


def loaded(browser, page_file: Path) -> dict[str, int]:
    """The files Chromium fetched for ``page_file`` (a page of the built book), with their sizes."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.set_default_timeout(HANG)
    urls: set[str] = set()
    page.on("request", lambda request: urls.add(request.url.split("?")[0].split("#")[0]))
    page.goto(page_file.as_uri())  # returns once loaded: the page, its styles, scripts and images
    page.evaluate("document.fonts.ready.then(() => true)")  # the fonts its text is set in
    page.wait_for_function("[...document.images].every((i) => i.complete)")  # each figure's chosen drawing
    page.close()
    files = (Path(unquote(urlparse(url).path)) for url in urls if url.startswith("file://"))
    return {file.name: file.stat().st_size for file in files if file.is_file()}


def heaviest(sizes: dict[str, int], n: int = 4) -> str:
    """The ``n`` largest files, for a message: ``pydata-sphinx-theme.css 311_174, …``."""
    return ", ".join(f"{name} {size:_}" for name, size in sorted(sizes.items(), key=lambda x: -x[1])[:n])
