"""The book's figure style: one look for every figure, Catalan tick formats, shared axes helpers.

Each page's figures are drawn in ``chapter09/pages/<widget>.py`` with these; their
``plot_*`` functions take a readout and return a matplotlib ``Figure`` (never shown,
never saved there).
"""

from __future__ import annotations

import io
import os
import re

import matplotlib

matplotlib.use("Agg")  # the book renders figures through IPython's display, never a window

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, LogLocator, MaxNLocator, NullFormatter

from . import fmt, validate

__all__ = [
    "BLUE",
    "GREEN",
    "GREY",
    "ORANGE",
    "SMALL",
    "STYLE",
    "catalan_ticks",
    "heat_maps",
    "log_log_ticks",
    "new_figure",
    "power_ticks",
    "typeset",
    "use_book_style",
]

# The smallest text of any figure (legends, notes): 8,5 pt is 11,3 CSS px at the figure's own
# size, which is how a phone shows it (ch09-widgets.css), and well above 7 pt in the PDF.
SMALL = 8.5

STYLE = {
    "figure.figsize": (6.4, 3.6),
    "figure.dpi": 100,
    "savefig.dpi": 150,
    "font.size": 10,
    "legend.fontsize": SMALL,
    "xtick.labelsize": 9,
    "ytick.labelsize": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "legend.frameon": False,
    "svg.hashsalt": "chapter09",  # stable ids inside SVG files
    "svg.fonttype": "path",
}
BLUE, ORANGE, GREY, GREEN = "#1f77b4", "#d95f02", "#666666", "#1b9e77"


def use_book_style() -> None:
    """Apply the style, and make the notebook kernel emit every figure as SVG.

    The HTML book shows the SVG; the PDF one converts it to vector PDF (``conf.py``), so one
    execution of a page serves both.  The SVG carries the date of ``SOURCE_DATE_EPOCH``
    instead of the clock (set here, in the kernel only), and its ids are salted with a
    constant, so two builds write the same bytes.
    """
    os.environ.setdefault("SOURCE_DATE_EPOCH", "0")
    matplotlib.rcParams.update(STYLE)
    try:
        from matplotlib_inline.backend_inline import set_matplotlib_formats
    except ImportError:  # outside a notebook kernel nothing more is needed
        return
    set_matplotlib_formats("svg", bbox_inches="tight")
    from IPython import get_ipython

    shell = get_ipython()
    if shell is not None:  # matplotlib-inline's SVG, with its coordinates to the hundredth of a point
        shell.display_formatter.formatters["image/svg+xml"].for_type(Figure, _svg)


# Coordinates in an SVG's geometry attributes (not its transforms, whose scales are exact)
GEOMETRY = re.compile(r'(\s(?:d|x|y|x1|x2|y1|y2|width|height|points)=")([^"]*)"')
LONG_DECIMAL = re.compile(r"-?\d+\.\d{3,}")


def compact_svg(svg: str) -> str:
    """``svg`` with every coordinate rounded to 0,01 pt (a 7.200th of an inch): matplotlib writes
    six decimals, and a curve of a few hundred points weighs three times what it shows.

    >>> compact_svg('<path d="M 62.05294 205.2828 L 1.5 -0.004" transform="scale(0.015625)"/>')
    '<path d="M 62.05 205.28 L 1.5 0" transform="scale(0.015625)"/>'
    """

    def rounded(number: re.Match) -> str:
        text = f"{float(number.group()):.2f}".rstrip("0").rstrip(".")
        return "0" if text == "-0" else text

    return GEOMETRY.sub(lambda m: m.group(1) + LONG_DECIMAL.sub(rounded, m.group(2)) + '"', svg)


def _svg(fig: Figure) -> str:
    out = io.StringIO()
    fig.savefig(out, format="svg", bbox_inches="tight")
    return compact_svg(out.getvalue())


def catalan_ticks(ax, axis: str = "both") -> None:
    """Decimal-comma tick labels on the linear axes of ``ax`` (``axis``: "both", "x" or "y")."""
    _axes(ax)
    if not isinstance(axis, str) or axis not in ("both", "x", "y"):
        raise ValueError(f"axis must be 'both', 'x' or 'y', got {validate.describe(axis)}")
    for name in ("x", "y") if axis == "both" else (axis,):
        a = getattr(ax, f"{name}axis")
        if a.get_scale() == "linear":
            a.set_major_formatter(FuncFormatter(lambda x, _pos: fmt.shortest(x)))


def power_ticks(ax) -> None:
    """Log-scale y ticks as ``10⁻⁵`` (one every few decades so they never crowd)."""
    _axes(ax)
    ax.yaxis.set_major_locator(LogLocator(base=10, numticks=6))
    ax.yaxis.set_major_formatter(
        FuncFormatter(lambda y, _pos: "1" if y == 1 else "10" + fmt.power_of_ten(y, 0).split("·10")[-1])
    )


def _axes(ax) -> Axes:
    return validate.instance("ax", ax, Axes)


def new_figure(ax=None):
    """A new figure with one set of axes, or the figure of ``ax`` when one is given."""
    if ax is not None:
        return _axes(ax).figure, ax
    fig = Figure()
    return fig, fig.subplots()


def log_log_ticks(ax) -> None:
    """Powers of ten on both axes of a log–log plot."""
    _axes(ax)
    power = FuncFormatter(lambda v, _p: "1" if v == 1 else "10" + fmt.power_of_ten(v, 0).split("·10")[-1])
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_locator(LogLocator(base=10, numticks=8))
        axis.set_major_formatter(power)
        # minor marks at 2 and 5 of each decade, unlabelled: matplotlib's default puts eight
        # a decade over up to ten decades, which crowds the axis and triples the drawing time
        axis.set_minor_locator(LogLocator(base=10, subs=(2.0, 5.0), numticks=8))
        axis.set_minor_formatter(NullFormatter())


def heat_maps(maps, xlabel: str, ylabel: str = "pas de sortida $t$") -> Figure:
    """Weights α side by side, one heat map per ``(alpha, title)`` of ``maps`` (rows: decoder steps
    t, columns: source positions j, both from 1), on one colour scale from 0 to 1."""
    fig = Figure(figsize=(3.0 * len(maps), 3.0))
    axes = fig.subplots(1, len(maps), squeeze=False)[0]
    for (alpha, title), ax in zip(maps, axes):
        im = ax.imshow(alpha, vmin=0, vmax=1, cmap="Blues")
        for axis, n in ((ax.xaxis, alpha.shape[1]), (ax.yaxis, alpha.shape[0])):
            axis.set_major_locator(MaxNLocator(nbins=8, integer=True))
            axis.set_major_formatter(FuncFormatter(lambda v, _p, n=n: str(int(v) + 1) if 0 <= v < n else ""))
        ax.set_xlabel(xlabel)
        ax.set_title(title, fontsize=9.5)
        ax.grid(False)
    axes[0].set_ylabel(ylabel)
    cbar = fig.colorbar(im, ax=list(axes), shrink=0.8)
    cbar.ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _p: fmt.decimal(y, 1)))
    cbar.set_label("$\\alpha_{tj}$")
    return fig


def typeset(figures):
    """Decorate a page's ``figures()``: every text of every figure (titles, labels, legends,
    annotations) with Catalan typography (``fmt.typographic``), whoever wrote it."""
    import functools

    from matplotlib.text import Text

    validate.function("figures", figures)

    @functools.wraps(figures)
    def typeset_figures(*args, **kwargs):
        drawn = figures(*args, **kwargs)
        for fig in drawn.values():
            for text in fig.findobj(Text):
                text.set_text(fmt.typographic(text.get_text()))
        return drawn

    return typeset_figures
