"""The HTML book in a real browser (Debian's Chromium driven by Playwright), offline.

Each page loads from file:// with every request that would leave the build
blocked; every formula is drawn (MathML, no script); a first visit loads at most
``FIRST_VISIT`` bytes; the console stays free of errors; moving a control to a value the
text names shows what chapter09 computes for it.
"""

from __future__ import annotations

import pytest

from chapter09 import attention as w4
from chapter09 import fmt
from chapter09.pages import attention, bottleneck, cost, gates, lstm_gradient, rnn_gradient
from chapter09.widgets import CLAIMS_PAGE, WIDGETS

import first_visit  # tools/first_visit.py (conftest puts tools/ on the path)

HANG = 120_000  # ms: the cap on every wait for a condition on a page, against a hang (a busy machine is slower)
PAGES = ["index", *(w.page for w in WIDGETS), CLAIMS_PAGE, "bibliografia"]
WIDGET_PAGE = {f"w{w.number}": w.page for w in WIDGETS}


@pytest.fixture()
def open_page(browser, built_book, tmp_path):
    pages = []

    def load(name):
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.set_default_timeout(HANG)
        page.errors, page.outside = [], []
        page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        page.route(
            "**/*",
            lambda route: (
                route.continue_()
                if route.request.url.startswith("file://")
                else (page.outside.append(route.request.url), route.abort())
            ),
        )
        page.goto((built_book / f"{name}.html").as_uri())
        page.wait_for_load_state("load")
        pages.append(page)
        return page

    yield load
    for page in pages:
        page.close()


@pytest.mark.parametrize("name", PAGES)
def test_page_is_offline_typeset_and_error_free(open_page, name, tmp_path):
    page = open_page(name)
    formulas = page.locator(".math math")
    assert formulas.count() == page.locator(".math").count(), "a formula left as TeX"
    drawn = formulas.evaluate_all("(ms) => ms.filter((m) => m.getBoundingClientRect().width > 0).length")
    assert drawn == formulas.count(), "a formula the browser does not draw"
    page.screenshot(path=str(tmp_path / f"{name}.png"), full_page=True)
    assert page.outside == [], f"requests leaving the build: {page.outside}"
    assert page.errors == [], f"console errors: {page.errors}"


@pytest.mark.parametrize("name", PAGES)
def test_a_first_visit_loads_at_most_a_megabyte(browser, built_book, name):
    sizes = first_visit.loaded(browser, built_book / f"{name}.html")
    total = sum(sizes.values())
    assert total <= first_visit.LIMIT, f"{name}: {total:_} bytes ({first_visit.heaviest(sizes)})"


def readout(locator, key):
    return locator.locator(f"td[data-readout={key}]").inner_text()


@pytest.fixture()
def widget_on(open_page):
    def get(name):
        return open_page(WIDGET_PAGE[name]).locator(f"#ch09-{name}")

    return get


def move(locator, name, label, spec):
    control = next(c for c in spec["controls"] if c["name"] == name)
    index = control["labels"].index(label)
    locator.locator(f"[data-control={name}]").evaluate(
        "(el, v) => { el.value = v; el.dispatchEvent(new Event(el.tagName === 'SELECT' ? 'change' : 'input')); }", index
    )


def test_widget_1_starts_as_the_prose_and_follows_the_text(widget_on):
    n, spec, w = rnn_gradient.readout().numbers, rnn_gradient.controls(), widget_on("w1")
    assert readout(w, "rho") == n["w1_rho"] and readout(w, "meas") == n["w1_meas"]
    move(w, "w_scale", n["w1_sat_w"], spec)  # "Posa l'escala de W_hh a 2"
    assert (readout(w, "rho"), readout(w, "product"), readout(w, "verdict")) == (
        n["w1_sat_rho"],
        n["w1_sat_product"],
        "s’esvaeix",
    )
    move(w, "input_scale", n["w1_small_x"], spec)  # "Baixa ara l'escala de l'entrada a 0,05"
    assert (readout(w, "meas"), readout(w, "verdict")) == (n["w1_small_meas"], "explota")


def test_widget_2_forget_values_of_the_text(widget_on):
    n, spec, w = lstm_gradient.readout().numbers, lstm_gradient.controls(), widget_on("w2")
    assert readout(w, "whole") == n["w2_f095_gated_whole"]
    move(w, "forget", n["w2_f090"], spec)  # "Baixa f a 0,9": the label is the value the text names
    assert readout(w, "whole") == n["w2_f090_gated_whole"]
    move(w, "forget", "1", spec)  # "posa-la a 1"
    assert readout(w, "whole") == n["w2_f100_gated_whole"]


def test_widget_3_starts_at_the_text_s_settings(widget_on):
    n, w = bottleneck.readout().numbers, widget_on("w3")
    assert (readout(w, "missing"), readout(w, "fraction")) == (n["w3_missing"], n["w3_fraction"])


def test_widget_4_temperatures_of_the_text(widget_on):
    spec, w = attention.controls(), widget_on("w4")
    for tau in (w4.COLD, w4.WARM):  # "Baixa la temperatura fins a 0,05", "Puja-la a 4"
        move(w, "tau", fmt.decimal(tau, 2 if tau < 1 else 0), spec)
        assert readout(w, "span") == attention.reading(tau)["span"]
        assert readout(w, "hull") == "0,0"


def test_widget_5_long_context(widget_on):
    n, spec, w = cost.readout().numbers, cost.controls(), widget_on("w5")
    assert (readout(w, "ratio"), readout(w, "kv"), readout(w, "state")) == (n["w5_ratio"], n["w6_kv"], n["w6_state"])
    move(w, "L", n["w6_L_long"], spec)  # "Puja L a 131.072"
    assert readout(w, "kv") == n["w6_kv_long"] and readout(w, "state") == n["w6_state"]


def test_widget_7_top_k_of_the_text(widget_on):
    n, spec, w = gates.readout().numbers, gates.controls(), widget_on("w7")
    # it opens where the text is: "Amb el top-k a 2 de 16"
    assert (readout(w, "off"), readout(w, "gap")) == (n["w7_switched_off"], n["w7_topk_gap"])
    move(w, "top_k", "16", spec)  # every channel through: the three routers agree
    assert readout(w, "gap") == "0,000"
    ticks = w.locator("svg text").all_text_contents()  # the bars go below 0
    assert any(t.startswith("−") for t in ticks) and not any(t.startswith("-") for t in ticks), ticks


def test_search_works_offline_in_catalan(open_page):
    page = open_page("search")
    page.goto(page.url + "?q=atenció")
    page.wait_for_selector("#search-results li")
    titles = page.locator("#search-results li").all_inner_texts()
    assert any("Els pesos de l’atenció" in t or "Els pesos de l'atenció" in t for t in titles)
    # Sphinx fetches each hit's page for a summary; from file:// Chromium refuses those fetches
    # (CORS) and says so on the console. Results still show; any other error fails.
    refused = ("Access to fetch at 'file://", "Failed to fetch", "net::ERR_FAILED")
    others = [e for e in page.errors if not any(r in e for r in refused)]
    assert others == [] and page.outside == []


def test_widget_1_raising_the_scale_flips_the_slope_after_the_radius_passes_one(widget_on):
    """ "puja l'escala de W_hh fins que el radi passi d'1": with the small input the gradient starts to
    explode just past ρ = 1, at the radius the page names, and never before ρ reaches 1."""
    n, spec, w = rnn_gradient.readout().numbers, rnn_gradient.controls(), widget_on("w1")
    move(w, "input_scale", n["w1_small_x"], spec)
    scales = next(c for c in spec["controls"] if c["name"] == "w_scale")["labels"]
    seen = []
    for label in scales:
        move(w, "w_scale", label, spec)
        seen.append((float(readout(w, "rho").replace(",", ".")), readout(w, "verdict")))
        if seen[-1][1] == "explota":
            break
    rho, verdict = seen[-1]
    assert verdict == "explota" and rho > 1, "the gradient never exploded"
    flip = float(n["w1_seed_flip_rho_small"].replace(",", "."))  # the page's finer sweep
    assert seen[-2][0] < flip <= rho, "the widget explodes at another radius than the page says"


# --- every reader: dark mode, phones, screen readers, keyboards, broken data ---------------------

CONTRAST = """(el) => {
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  let bg = null;
  for (let n = el; n && !bg; n = n.parentElement) {
    const c = rgb(getComputedStyle(n).backgroundColor);
    if (c.length === 3 || c[3] > 0) bg = c;
  }
  const fg = lum(rgb(getComputedStyle(el).color)), back = lum(bg || [255, 255, 255]);
  return (Math.max(fg, back) + 0.05) / (Math.min(fg, back) + 0.05);
}"""


@pytest.fixture()
def open_as(browser, built_book):
    pages = []

    def load(name, scheme="light", width=1280):
        page = browser.new_page(viewport={"width": width, "height": 900}, color_scheme=scheme)
        page.set_default_timeout(HANG)
        page.errors = []
        page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        page.add_init_script(f"localStorage.setItem('mode', '{scheme}'); localStorage.setItem('theme', '{scheme}');")
        page.goto((built_book / f"{name}.html").as_uri())
        page.wait_for_load_state("load")
        pages.append(page)
        return page

    yield load
    for page in pages:
        page.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("w", sorted(WIDGET_PAGE))
def test_widget_text_is_readable_in_both_themes(open_as, w, scheme):
    page = open_as(WIDGET_PAGE[w], scheme)
    root = page.locator(f"#ch09-{w}")
    for cell in root.locator("table.ch09-readout th, table.ch09-readout td, .ch09-control").all():
        assert cell.evaluate(CONTRAST) >= 4.5, f"{w} in {scheme}: {cell.inner_text()!r} below 4,5:1"
    frame = root.evaluate(
        "(r) => { const s = getComputedStyle(r.parentElement); return [s.backgroundColor, s.padding]; }"
    )
    assert frame == ["rgba(0, 0, 0, 0)", "0px"], f"{w} in {scheme}: the widget sits in a frame {frame}"


@pytest.mark.parametrize("w", sorted(WIDGET_PAGE))
def test_widget_speaks_to_screen_readers_and_keyboards(open_as, w):
    page = open_as(WIDGET_PAGE[w])
    root = page.locator(f"#ch09-{w}")
    plot = root.locator("svg.ch09-plot")
    assert plot.get_attribute("role") == "img"
    before = plot.get_attribute("aria-label")
    assert before and len(before) > 20, "the plot has no name"
    assert root.locator("table.ch09-readout").get_attribute("aria-live") == "polite"
    readout = dict(
        zip(
            root.locator("table.ch09-readout th").all_inner_texts(),
            root.locator("table.ch09-readout td").all_inner_texts(),
        )
    )
    assert all(f"{k}: {v}" in before for k, v in readout.items()), "the plot's description carries the readout"
    for slider in root.locator("input[type=range]").all():
        shown = slider.locator("xpath=following-sibling::output").inner_text()
        assert slider.get_attribute("aria-valuetext") == shown, "a slider announces its index, not its value"
        slider.focus()
        page.keyboard.press("ArrowLeft")
        shown = slider.locator("xpath=following-sibling::output").inner_text()
        assert slider.get_attribute("aria-valuetext") == shown
        assert plot.get_attribute("aria-label") != before, "the description does not follow the state"
    assert page.locator("math[tabindex], .math[tabindex]").count() == 0, "formulas are Tab stops"


@pytest.mark.parametrize("w", sorted(WIDGET_PAGE))
def test_widget_text_is_large_enough_on_a_phone(open_as, w):
    page = open_as(WIDGET_PAGE[w], "light", 390)
    heights = page.locator(f"#ch09-{w} svg text").evaluate_all(
        "(ts) => ts.filter((t) => t.textContent.trim()).map((t) => t.getBoundingClientRect().height)"
    )
    assert heights and min(heights) >= 11, f"{w}: text of {min(heights):.1f} px on a 390 px screen"
    for control in page.locator(f"#ch09-{w} input, #ch09-{w} select").all():
        assert control.bounding_box()["height"] >= 24, "a touch target below 24 px"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "the page scrolls sideways"


def test_the_heat_map_has_its_values_as_a_table(open_as):
    root = open_as(WIDGET_PAGE["w4"]).locator("#ch09-w4")
    root.locator("details.ch09-values-box summary").click()
    table = root.locator("table.ch09-values")
    assert table.locator("tbody tr").count() == w4.N and table.locator("tbody td").count() == w4.N**2


def test_a_widget_with_broken_data_leaves_the_others_working(open_as, built_book, tmp_path):
    html = (built_book / "04-atencio.html").read_text(encoding="utf-8")
    broken = (
        '<div class="ch09-widget" id="ch09-wx"><script type="application/json" class="ch09-data">'
        '{"widget": "wx", </script></div>'
    )
    html = html.replace('<div class="ch09-widget" id="ch09-w4">', broken + '<div class="ch09-widget" id="ch09-w4">', 1)
    page_file = built_book / "ch09-broken-test.html"  # beside the real page, for its relative links
    page_file.write_text(html, encoding="utf-8")
    try:
        page = open_as("ch09-broken-test")
        assert "no es pot mostrar" in page.locator("#ch09-wx").inner_text()
        assert page.locator("#ch09-w4 svg.ch09-plot rect").count() > 0, "the next widget stopped working"
        assert page.errors == [], page.errors
    finally:
        page_file.unlink()


def test_without_javascript_each_widget_shows_its_default_readout(built_book):
    from bs4 import BeautifulSoup

    for w, name in WIDGET_PAGE.items():
        soup = BeautifulSoup((built_book / f"{name}.html").read_text(encoding="utf-8"), "html.parser")
        static = soup.select_one(f"#ch09-{w} noscript")
        assert static is not None and "Lectura" in static.get_text(), w


FIGURES = """() => [...document.querySelectorAll('.bd-article figure:has(img)')].map((f) => {
  const img = f.querySelector('img'), shown = img.getBoundingClientRect(), box = f.getBoundingClientRect();
  const source = f.querySelector('picture > source');
  return {left: shown.left - box.left, right: box.right - shown.right, scale: shown.width / img.naturalWidth,
          width: Math.round(shown.width), box: Math.round(box.width), wide: img.currentSrc === img.src,
          narrow: source !== null && img.currentSrc === new URL(source.srcset, document.baseURI).href,
          hint: getComputedStyle(f, '::before').content};
})"""


def figures_as_shown(page) -> list[dict]:
    """Each figure of the page once its drawings are loaded: where its image stands in its box, at
    what scale of its own size, and which drawing the page chose (``wide``, ``narrow``)."""
    page.wait_for_function("[...document.images].every((i) => i.complete)")
    return page.evaluate(FIGURES)


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("name", PAGES)
def test_no_figure_is_wider_than_its_box_on_a_phone(open_as, name, scheme):
    """At 390 px each figure is whole inside its box and at its own size, so that its smallest text
    (8,5 pt) stays 11,3 px: the page serves the figure's narrow drawing (``_ext/glued.py``), nothing
    scrolls sideways and nothing says it does; a display equation too wide starts at its left edge."""
    page = open_as(name, scheme, 390)
    shown = figures_as_shown(page)
    for i, f in enumerate(shown, 1):
        where = f"{name} in {scheme}, figure {i} of the page"
        assert f["narrow"], f"{where}: a phone gets the wide drawing"
        assert f["left"] >= -0.5 and f["right"] >= -0.5, f"{where}: {f['width']} px in a box of {f['box']} px"
        assert f["scale"] >= 0.99, f"{where}: shrunk to {f['scale']:.2f} of its size"
        assert f["hint"] in ("none", "normal"), f"{where}: says {f['hint']}"
    if shown:
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, f"{name}: the page scrolls sideways"
    for box in page.locator(".bd-article div.math:has(math)").all():
        start = box.evaluate(
            "(b) => b.querySelector('math').getBoundingClientRect().left - b.getBoundingClientRect().left"
        )
        assert start >= -0.5, f"{name}: a formula starts {-start:.0f} px left of its box, where nothing scrolls to"


def test_a_wide_screen_and_paper_get_the_wide_drawing(open_as):
    """The narrow drawing is a phone's only: a laptop's screen shows each figure as drawn, and so
    does a page printed from a phone (as the PDF does)."""
    name = WIDGET_PAGE["w1"]
    assert all(f["wide"] for f in figures_as_shown(open_as(name, "light", 1280)))
    phone = open_as(name, "dark", 390)
    assert not any(f["wide"] for f in figures_as_shown(phone))
    phone.emulate_media(media="print")
    phone.wait_for_function("[...document.querySelectorAll('figure img')].some((i) => i.currentSrc === i.src)")
    shown = figures_as_shown(phone)
    assert shown and all(f["wide"] for f in shown), "printed from a phone, a figure keeps its narrow drawing"


def test_widgets_print_black_on_white_from_dark_mode(open_as):
    page = open_as(WIDGET_PAGE["w4"], "dark")
    page.emulate_media(media="print")
    for cell in page.locator("#ch09-w4 table.ch09-readout td").all():
        assert cell.evaluate("(e) => getComputedStyle(e).color") == "rgb(0, 0, 0)"
        assert cell.evaluate(CONTRAST) >= 4.5
