"""The book's figures: one shared style, Catalan labels, Catalan tick formats.

Numerics live in the widget modules; each ``plot_*`` function here takes a
readout and returns a matplotlib ``Figure`` (never shown, never saved here).
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")  # the book renders figures through IPython's display, never a window

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.ticker import FuncFormatter, LogLocator  # noqa: E402

from . import fmt  # noqa: E402

STYLE = {
    "figure.figsize": (6.4, 3.6),
    "figure.dpi": 100,
    "savefig.dpi": 150,
    "font.size": 10,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "legend.frameon": False,
    "svg.hashsalt": "chapter09",     # stable ids inside SVG files
    "svg.fonttype": "path",
    "pdf.fonttype": 42,
}
BLUE, ORANGE, GREY, GREEN = "#1f77b4", "#d95f02", "#666666", "#1b9e77"


def use_book_style(formats: tuple[str, ...] = ("svg",)) -> None:
    """Apply the style, and make the notebook kernel emit the given image formats.

    SVG files carry no date (``metadata={'Date': None}``) and fixed ids, so two
    builds write the same bytes.
    """
    plt.rcParams.update(STYLE)
    try:
        from matplotlib_inline.backend_inline import set_matplotlib_formats
    except ImportError:  # outside a notebook kernel nothing more is needed
        return
    set_matplotlib_formats(*formats, bbox_inches="tight", metadata={"Date": None})


def catalan_ticks(ax, axis: str = "both", digits: int | None = None) -> None:
    """Decimal-comma tick labels on the linear axes of ``ax``."""
    def label(x, _pos):
        if digits is not None:
            return fmt.decimal(x, digits)
        # the fewest decimals (up to 3) that write the tick exactly enough
        for d in range(4):
            if abs(round(x, d) - x) < 1e-9:
                return fmt.decimal(x, d)
        return fmt.decimal(x, 3)

    for name in ("x", "y") if axis == "both" else (axis,):
        a = getattr(ax, f"{name}axis")
        if a.get_scale() == "linear":
            a.set_major_formatter(FuncFormatter(label))


def _power_ticks(ax) -> None:
    """Log-scale y ticks as ``10⁻⁵`` (one every few decades so they never crowd)."""
    ax.yaxis.set_major_locator(LogLocator(base=10, numticks=6))
    ax.yaxis.set_major_formatter(FuncFormatter(
        lambda y, _pos: "1" if y == 1 else "10" + fmt.power_of_ten(y, 0).split("·10")[-1]))


# --- widget 1 --------------------------------------------------------------------------

def plot_rnn_gradient(r, ax=None, title: str | None = None) -> Figure:
    """Gradient norm against steps back (log scale), with the predicted straight line."""
    fig, ax = _figure(ax)
    k = r.steps_back
    ax.semilogy(k, np.exp(r.log_grad_norms), "o-", ms=3, lw=1, color=BLUE,
                label=f"mesurat (pendent {fmt.decimal(r.measured_slope)})")
    ax.semilogy(k, np.exp(r.log_grad_norms[0] + r.predicted_slope * k), "--", color=ORANGE,
                label=f"previst, ln(ρ·tanh′) = {fmt.decimal(r.predicted_slope)}")
    ax.set_xlabel("passos enrere $k$")
    ax.set_ylabel(r"$\|\partial L/\partial \mathbf{h}_{T-k}\|$")
    _power_ticks(ax)
    catalan_ticks(ax, "x")
    ax.legend(loc="best", fontsize=8)
    if title:
        ax.set_title(title, fontsize=9)
    return fig


def plot_rnn_settings(results: list, titles: list[str]) -> Figure:
    """Several settings of widget 1 side by side, on a shared y axis."""
    fig, axes = plt.subplots(1, len(results), figsize=(3.0 * len(results), 3.2), sharey=True)
    for r, t, ax in zip(results, titles, np.atleast_1d(axes)):
        plot_rnn_gradient(r, ax=ax, title=t)
    for ax in np.atleast_1d(axes)[1:]:
        ax.set_ylabel("")
    fig.tight_layout()
    return fig


def plot_slope_sweep(sweeps: list, labels: list[str]) -> Figure:
    """Measured (solid) and predicted (dashed) slope against the radius ρ of W_hh."""
    fig, ax = _figure(None)
    for sw, label, color in zip(sweeps, labels, (BLUE, GREEN, ORANGE)):
        ax.plot(sw.spectral_radius, sw.measured_slope, "-", color=color, label=f"{label}: mesurat")
        ax.plot(sw.spectral_radius, sw.predicted_slope, "--", color=color, lw=1,
                label=f"{label}: previst")
    ax.axhline(0, color=GREY, lw=0.8)
    ax.axvline(1, color=GREY, lw=0.8, ls=":")
    ax.set_ylim(bottom=max(ax.get_ylim()[0], -1.5))  # the sign change is the story, not the far left
    ax.set_xlabel("radi espectral ρ de $W_{hh}$")
    ax.set_ylabel("pendent per pas")
    catalan_ticks(ax)
    ax.legend(fontsize=8, loc="lower right")
    return fig


def _figure(ax):
    if ax is not None:
        return ax.figure, ax
    fig, ax = plt.subplots()
    return fig, ax
