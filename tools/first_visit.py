"""What a reader's browser loads on a first visit of a page: every file it fetches (page,
styles, scripts, fonts, figures), counted by its bytes on disk, uncompressed, once the page
has settled.  The browser test holds each page to ``LIMIT``; ``make bench`` prints them all."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlparse

LIMIT = 1_000_000  # bytes


def loaded(browser, page_file: Path) -> dict[str, int]:
    """The files Chromium fetched for ``page_file`` (a page of the built book), with their sizes."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    urls: set[str] = set()
    page.on("requestfinished", lambda request: urls.add(request.url.split("?")[0].split("#")[0]))
    page.goto(page_file.as_uri())
    page.wait_for_load_state("networkidle")
    page.close()
    files = (Path(unquote(urlparse(url).path)) for url in urls if url.startswith("file://"))
    return {file.name: file.stat().st_size for file in files}


def heaviest(sizes: dict[str, int], n: int = 4) -> str:
    """The ``n`` largest files, for a message: ``pydata-sphinx-theme.css 311_174, …``."""
    return ", ".join(f"{name} {size:_}" for name, size in sorted(sizes.items(), key=lambda x: -x[1])[:n])
