"""WCAG 2.2 AA, measured by axe-core in Chromium on every page of the built book, in light
and dark mode, on a desktop and on a phone: no critical and no serious violation.

axe-core comes from npm, pinned in tools/axe/package.json and package-lock.json; the
first run installs it there (`npm ci`), and the test says so.  It is injected into each
page from disk: nothing leaves the machine.
"""

from __future__ import annotations

import subprocess

import pytest

from conftest import ROOT

pytestmark = pytest.mark.book
AXE = ROOT / "tools" / "axe"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
SCHEMES = ["light", "dark"]
WIDTHS = [390, 1280]  # loaded on a phone, then widened to a desktop
# After a resize the page settles on which regions are Tab stops: pydata-sphinx-theme's code, outputs and
# tables 300 ms later (tabIndex 0 where they overflow, −1 where not), the book's wide figures and display
# equations at the next frame (ch09-widgets.js: a tabindex while they overflow).  The test waits for that
# state, not for a time.
SETTLED = """() => {
  const theme = [...document.querySelectorAll(
      "pre, .nboutput > .output_area, .cell_output > .output, .jp-RenderedHTMLCommon, .pst-scrollable-table-container")]
    .every((el) => el.tabIndex === (el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight ? 0 : -1));
  const book = [...document.querySelectorAll(".bd-article div.math, .bd-article figure")]
    .every((box) => box.scrollWidth > box.clientWidth + 1
      ? box.hasAttribute("tabindex") : !("ch09Scroll" in box.dataset));
  return theme && book;
}"""
HANG = 120_000  # ms: the cap on every wait for a condition on a page, against a hang (a busy machine is slower)
# Rules left out, each on one page only and for a cause outside the book, named here (none now).
DISABLED: dict[str, dict[str, str]] = {}


@pytest.fixture(scope="module")
def axe_script():
    script = AXE / "node_modules" / "axe-core" / "axe.min.js"
    if not script.exists():
        print("installing axe-core from npm into tools/axe (npm ci)")
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=AXE, check=True, timeout=600)
    return script


def pages(built_book):
    return [p.stem for p in sorted(built_book.glob("*.html")) if p.stem not in ("genindex", "search")]


@pytest.mark.parametrize("scheme", SCHEMES)
def test_no_serious_or_critical_wcag_violation(browser, built_book, axe_script, scheme):
    """Each page loaded once per colour scheme, on a phone, and measured there and again once the
    viewport is widened in place, as when a reader widens the window (what only overflowed on the
    phone must stop being a Tab stop)."""
    found = []
    for name in pages(built_book):
        page = browser.new_page(viewport={"width": WIDTHS[0], "height": 900}, color_scheme=scheme)
        page.set_default_timeout(HANG)
        page.add_init_script(f"localStorage.setItem('mode', '{scheme}'); localStorage.setItem('theme', '{scheme}');")
        page.goto((built_book / f"{name}.html").as_uri())
        page.wait_for_load_state("load")
        page.add_script_tag(path=str(axe_script))
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 900})
            page.wait_for_function(SETTLED)
            violations = page.evaluate(
                """([tags, disabled]) => axe.run(document, {runOnly: {type: 'tag', values: tags},
                     rules: Object.fromEntries(disabled.map((r) => [r, {enabled: false}]))})
                   .then((r) => r.violations.filter((v) => ['critical', 'serious'].includes(v.impact))
                   .map((v) => `${v.id} (${v.impact}): `
                        + v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')))""",
                [TAGS, list(DISABLED.get(name, {}))],
            )
            found += [f"{name}, {width} px: {v}" for v in violations]
        page.close()
    assert not found, f"{scheme}:\n" + "\n".join(found)
