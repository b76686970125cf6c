"""The book's figure style: one look for every figure, Catalan tick formats, shared axes helpers.

Each page's figures are drawn in ``chapter09/pages/<widget>.py`` with these; their
``plot_*`` functions take a readout and return a matplotlib ``Figure`` (never shown,
never saved there).
"""

from __future__ import annotations

import copy
import io
import itertools
import os
import re

import matplotlib

matplotlib.use("Agg")  # the book renders figures through IPython's display, never a window

from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import FixedLocator, FuncFormatter, LogLocator, MaxNLocator, NullFormatter

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
        shell.display_formatter.formatters["image/svg+xml"].for_type(Figure, as_svg)


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


def as_svg(fig: Figure) -> str:
    """The figure as the book writes it: an SVG, cut to its drawing, with short numbers."""
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


# --- the same figure drawn for a phone ------------------------------------------------------------
# A phone's column is 358 CSS px on a 390 px screen.  A figure shown smaller than its own size
# shrinks its text under SMALL, so a phone gets a drawing of its own, at the same text sizes: the
# panels of a row stacked into a column, every legend under its panel, each panel's plotting area
# PANEL_HEIGHT high (a map: as high as its cells are wide), the whole at most NARROW_MAX wide.
NARROW_WIDTH = 3.5  # inches (336 CSS px): the figure's width before its labels are counted
NARROW_MAX = 340  # CSS px (1/96 in) the drawing may take, labels and legends included
PANEL_HEIGHT = 2.1  # inches
COLORBAR_HEIGHT = 0.12  # inches


def narrow(fig: Figure) -> Figure:
    """A copy of ``fig`` laid out for a phone (``fig`` itself is untouched): the same artists, with
    the same data, in a figure at most ``NARROW_MAX`` CSS px wide once cropped to what it draws."""
    fig = copy.deepcopy(fig)
    fig.set_layout_engine(None)
    panels, heights = _stack(fig)
    rows = panels + _colorbars_below(fig, panels)
    heights += [COLORBAR_HEIGHT] * (len(rows) - len(panels))
    grid = fig.add_gridspec(len(rows), 1, height_ratios=heights)
    for i, ax in enumerate(rows):
        ax.set_subplotspec(grid[i, 0])
    fig.set_size_inches(NARROW_WIDTH, sum(heights) + len(rows))
    for legend in [*fig.legends, *(ax.get_legend() for ax in panels)]:
        if legend is not None:
            legend.set_in_layout(False)  # where it stands now is no place for it: it moves below
    fig.set_layout_engine("constrained")
    renderer = FigureCanvasAgg(fig).get_renderer()
    fig.draw_without_rendering()
    for ax in panels:
        _legend_below(ax, renderer)
    _figure_legends_below(fig)
    pad = 2 * matplotlib.rcParams["savefig.pad_inches"]  # the SVG's margin (bbox_inches="tight")
    for _ in range(8):  # text is sized in points, panels in inches: the sizes settle in a few rounds
        fig.draw_without_rendering()
        for ax in panels:
            _thin_crowded_ticks(ax, renderer)
        w, h = fig.get_size_inches()
        cells = [ax.get_position(original=True) for ax in rows]
        around = h * (1 - sum(c.height for c in cells))  # titles, axes' labels, legends: inches of text
        over = max(fig.get_tightbbox(renderer).width + pad - NARROW_MAX / 96, 0)  # a label or legend sticks out
        wanted, width = list(heights), max(w - over, NARROW_WIDTH / 2)  # (one that the page could not fit: half)
        for i, ax in enumerate(panels):  # a map keeps its cells square: the column narrows to its width
            if ax.get_aspect() != "auto":
                (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
                ratio = abs(y1 - y0) / abs(x1 - x0) * float(ax.get_aspect())
                wanted[i] = min(heights[i], cells[i].width * w * ratio)
                width = min(width, w - (cells[i].width * w - wanted[i] / ratio))
        if abs(width - w) < 0.005 and abs(sum(wanted) + around - h) < 0.005:
            break
        grid.set_height_ratios(wanted)
        fig.set_size_inches(width, sum(wanted) + around)
    return fig


def reading_order(fig: Figure) -> list:
    """The figure's visible axes that are not colorbars, in reading order (by rows, then columns)."""
    panels = [ax for ax in fig.axes if ax.get_visible() and not hasattr(ax, "_colorbar")]

    def place(ax):
        spec = ax.get_subplotspec()
        position = ax.get_position()
        return (spec.rowspan.start, spec.colspan.start) if spec is not None else (-position.y1, position.x0)

    return sorted(panels, key=place)


def _stack(fig: Figure) -> tuple[list, list[float]]:
    """The panels one under another, and the height in inches each one's plotting area gets
    (PANEL_HEIGHT; a column keeps its rows' proportions).  A panel without a y label takes its row's
    (a shared axis named once, on the left); tick labels a shared axis hid are shown again."""
    panels = reading_order(fig)
    grids = {ax.get_subplotspec().get_gridspec() for ax in panels if ax.get_subplotspec() is not None}
    grid = next(iter(grids)) if len(grids) == 1 else None
    if grid is not None and grid.ncols == 1 and grid.nrows == len(panels):  # a column already
        ratios = grid.get_height_ratios() or [1] * len(panels)
        return panels, [PANEL_HEIGHT * r * len(ratios) / sum(ratios) for r in ratios]
    named = {}
    for ax in panels:
        spec = ax.get_subplotspec()
        row = spec.rowspan.start if spec is not None else None
        if ax.get_ylabel():
            named.setdefault(row, ax.yaxis.label)
        elif row in named:
            ax.set_ylabel(named[row].get_text(), fontsize=named[row].get_fontsize())
        ax.tick_params(which="both", labelleft=True, labelbottom=True)
    return panels, [PANEL_HEIGHT] * len(panels)


def _colorbars_below(fig: Figure, panels: list) -> list:
    """Each colorbar drawn again, horizontal, in a row of its own under the panels (beside a column
    of maps it would run the column's height): the same colours, scale, label and tick format."""
    rows = []
    for cax in [ax for ax in fig.axes if hasattr(ax, "_colorbar")]:
        old = cax._colorbar
        label, formatter, ticks = old.ax.get_ylabel() or old.ax.get_xlabel(), old.formatter, old.get_ticks()
        fig.delaxes(cax)
        for ax in panels:  # constrained layout would keep room for it beside the maps
            ax._colorbars = [c for c in getattr(ax, "_colorbars", []) if c is not cax]
        rows.append(fig.add_subplot(111))  # placed by narrow(), under the panels
        new = fig.colorbar(old.mappable, cax=rows[-1], orientation="horizontal")
        new.set_label(label)
        new.set_ticks(ticks)  # the wide drawing's: a shorter bar's own could fall between the formatter's digits
        new.formatter = formatter
    return rows


def _figure_legends_below(fig: Figure) -> None:
    """A legend of the whole figure in one column under all its panels."""
    renderer = FigureCanvasAgg(fig).get_renderer()
    for old in list(fig.legends):
        size = old.get_texts()[0].get_fontsize() if old.get_texts() else SMALL
        handles, labels = old.legend_handles, [_wrapped(t.get_text(), size, renderer) for t in old.get_texts()]
        fig.legends.remove(old)  # not old.remove(): a deep copy's legend still holds its original's list
        fig.legend(handles, labels, loc="outside lower center", fontsize=size)


def _legend_below(ax, renderer) -> None:
    """The panel's legend in one column under it, clear of its x axis' ticks and label."""
    old = ax.get_legend()
    if old is None:
        return
    size = old.get_texts()[0].get_fontsize() if old.get_texts() else SMALL
    handles, labels = old.legend_handles, [_wrapped(t.get_text(), size, renderer) for t in old.get_texts()]
    old.set_visible(False)
    axis = ax.get_tightbbox(renderer, bbox_extra_artists=[])
    below = (ax.bbox.y0 - axis.y0) * 72 / ax.figure.dpi  # points from the frame to the x label's foot
    old.remove()
    pad = below / size + 0.5  # in font sizes, as Legend counts it
    ax.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0), borderaxespad=pad, fontsize=size)


def _wrapped(label: str, size: float, renderer) -> str:
    """A legend's label in lines that fit a phone's drawing beside the legend's mark (a formula
    between $ signs is never broken)."""
    room = (
        NARROW_MAX / 96 - 2 * matplotlib.rcParams["savefig.pad_inches"]
    ) * renderer.dpi - 4 * size * renderer.dpi / 72
    font = matplotlib.font_manager.FontProperties(size=size)
    lines = []
    for word in re.findall(r"(?:\$[^$]*\$|\S)+", label):
        joined = f"{lines[-1]} {word}" if lines else word
        if lines and renderer.get_text_width_height_descent(joined, font, ismath="$" in joined)[0] <= room:
            lines[-1] = joined
        else:
            lines.append(word)
    return "\n".join(lines) if lines else label


def _thin_crowded_ticks(ax, renderer) -> None:
    """Fixed tick labels that touch one another (16 channels in a phone's width) keep one in two
    (and in two again, the next round, if they still touch)."""
    for axis in (ax.xaxis, ax.yaxis):
        if not isinstance(axis.get_major_locator(), FixedLocator):
            continue
        ticks = [t for t in axis.get_major_ticks() if t.label1.get_visible() and t.label1.get_text()]
        boxes = sorted((t.label1.get_window_extent(renderer) for t in ticks), key=lambda b: (b.x0, b.y0))
        gap = 2 * ax.figure.dpi / 72  # 2 pt between labels
        pairs = itertools.pairwise(boxes)
        if any((b.x0 < a.x1 + gap) if axis is ax.xaxis else (b.y0 < a.y1 + gap) for a, b in pairs):
            locations, labels = axis.get_majorticklocs(), [t.get_text() for t in axis.get_majorticklabels()]
            axis.set_ticks(locations[::2], labels[::2])
