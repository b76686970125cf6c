"""On a phone every figure is shown as drawn for it (``plots.narrow``, served by ``_ext/glued.py``):
no wider than a phone's column, its text at the book's sizes, the same data as the figure it
stands for, and that figure left as it was (the HTML book on a wide screen and the PDF show it)."""

from __future__ import annotations

import itertools
import re

import pytest
from matplotlib.figure import Figure
from matplotlib.text import Text

from chapter09 import plots
from chapter09.widgets import WIDGETS

import drawn  # tools/drawn.py (conftest puts tools/ on the path)

MODULES = sorted({w.module for w in WIDGETS})
WIDTH = re.compile(r'<svg[^>]*\swidth="([\d.]+)pt"')


def svg_width(fig) -> float:
    """The figure's width as the page shows it, in CSS px (the SVG's points, 96 px to 72 pt)."""
    return float(WIDTH.search(plots.as_svg(fig))[1]) * 4 / 3


def problems(wide, narrow) -> list[str]:
    """What keeps ``narrow`` from standing for ``wide`` on a phone (nothing: [])."""
    found = []
    if svg_width(narrow) > plots.NARROW_MAX + 0.5:
        found.append(f"{svg_width(narrow):.0f} px wide")
    small = sorted({t.get_fontsize() for t in narrow.findobj(Text) if t.get_visible() and t.get_text().strip()})
    if small and small[0] < plots.SMALL:
        found.append(f"text of {small[0]} pt")
    if drawn.figure_lines(narrow, layout=False) != drawn.figure_lines(wide, layout=False):
        found.append("other data")
    panels = sorted((ax.get_position() for ax in plots.reading_order(narrow)), key=lambda p: -p.y1)
    if any(below.y1 > above.y0 + 1e-6 for above, below in itertools.pairwise(panels)):
        found.append("panels side by side")
    return found


@pytest.fixture(scope="module", params=MODULES)
def figures(request):
    from chapter09.widgets import WIDGETS

    plots.use_book_style()
    module = next(w for w in WIDGETS if w.module == request.param).page_module()
    return module.figures()


@pytest.mark.slow  # every figure of the book drawn four times, in SVG: half a minute of CPU
def test_every_figure_has_a_drawing_for_a_phone(figures):
    for key, fig in figures.items():
        before = plots.as_svg(fig)
        assert problems(fig, plots.narrow(fig)) == [], key
        assert plots.as_svg(fig) == before, f"{key}: drawing it for a phone changed the figure itself"


def row_of_panels(label: str) -> Figure:
    """Three panels side by side sharing their y axis, named once, and a legend labelled ``label``."""
    fig = Figure(figsize=(9, 3))
    axes = fig.subplots(1, 3, sharey=True)
    for i, ax in enumerate(axes):
        ax.plot([0, 1, 2], [i, i + 1, i + 3], label=label)
        ax.set_title(f"panell {i + 1}")
    axes[0].set_ylabel("valor")
    axes[0].legend()
    return fig


def test_a_row_of_panels_becomes_a_column_with_its_legend_and_names():
    plots.use_book_style()
    label = "una sèrie amb un nom tan llarg que no cabria en una sola línia a la pantalla d’un telèfon"
    wide = row_of_panels(label)
    narrow = plots.narrow(wide)
    assert svg_width(wide) > 600 and problems(wide, narrow) == []
    assert [ax.get_ylabel() for ax in narrow.axes] == ["valor"] * 3  # each panel named on a phone
    assert all(t.get_visible() for ax in narrow.axes for t in ax.get_yticklabels())
    shown = narrow.axes[0].get_legend().get_texts()[0].get_text()
    assert "\n" in shown and " ".join(shown.split()) == label  # in lines, every word kept


def test_the_check_catches_a_drawing_that_does_not_stand_for_its_figure():
    plots.use_book_style()
    wide = row_of_panels("una sèrie")
    found = problems(wide, wide)  # the wide figure itself is no phone's drawing
    assert found[0].endswith("px wide") and found[-1] == "panels side by side", found
    other = plots.narrow(wide)
    other.axes[1].lines[0].set_ydata([0, 0, 0])
    assert problems(wide, other) == ["other data"]
    small = plots.narrow(wide)
    small.axes[0].set_title("panell 1", fontsize=6)
    assert problems(wide, small) == ["text of 6.0 pt"]
