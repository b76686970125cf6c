"""The book's figures: one shared style, Catalan labels, Catalan tick formats.

Numerics live in the widget modules; each ``plot_*`` function here takes a
readout and returns a matplotlib ``Figure`` (never shown, never saved here).
"""

from __future__ import annotations

import os

import matplotlib

matplotlib.use("Agg")  # the book renders figures through IPython's display, never a window

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter  # noqa: E402

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


FORMATS = ("svg", "pdf")
FORMATS_VARIABLE = "CHAPTER09_FIGURE_FORMATS"


def use_book_style(formats: tuple[str, ...] | None = None) -> None:
    """Apply the style, and make the notebook kernel emit the given image formats.

    SVG for the HTML book, PDF (vector) for the LaTeX one.  A book build asks its
    kernels for its builder's format alone, through ``CHAPTER09_FIGURE_FORMATS``
    (each figure is drawn once, not twice); elsewhere both are emitted.  Both carry
    the date of ``SOURCE_DATE_EPOCH`` instead of the clock (set here, in the kernel
    only), and SVG ids are salted with a constant, so two builds write the same bytes.
    """
    if formats is None:
        formats = tuple(filter(None, os.environ.get(FORMATS_VARIABLE, ",".join(FORMATS)).split(",")))
    if not formats or not set(formats) <= set(FORMATS):
        raise ValueError(f"formats must be one or more of {', '.join(FORMATS)}, got {formats!r}")
    os.environ.setdefault("SOURCE_DATE_EPOCH", "0")
    plt.rcParams.update(STYLE)
    try:
        from matplotlib_inline.backend_inline import set_matplotlib_formats
    except ImportError:  # outside a notebook kernel nothing more is needed
        return
    set_matplotlib_formats(*formats, bbox_inches="tight")


def catalan_ticks(ax, axis: str = "both") -> None:
    """Decimal-comma tick labels on the linear axes of ``ax``."""
    def label(x, _pos):
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


# --- widget 2 --------------------------------------------------------------------------

def plot_gradient_paths(rnn_readout, lstm_readout) -> Figure:
    """ln-norm of the gradient against steps back: the RNN, the LSTM's cell path and the whole."""
    fig, ax = _figure(None)
    k = lstm_readout.steps_back
    f = lstm_readout.forget
    ax.semilogy(rnn_readout.steps_back, np.exp(rnn_readout.log_grad_norms), "-", color=GREY,
                label="RNN, $\\partial L/\\partial \\mathbf{h}$")
    ax.semilogy(k, np.exp(lstm_readout.log_whole), "-", color=BLUE,
                label="LSTM, tot el gradient $\\partial L/\\partial \\mathbf{c}$")
    ax.semilogy(k, np.exp(lstm_readout.log_cell), "--", color=GREEN, label="LSTM, només el camí de la cel·la")
    ax.semilogy(k, np.exp(lstm_readout.log_cell[0]) * f**k, ":", color=ORANGE,
                label=f"$f^k$ amb f = {fmt.decimal(f)}")
    ax.set_xlabel("passos enrere $k$")
    ax.set_ylabel("norma del gradient")
    _power_ticks(ax)
    catalan_ticks(ax, "x")
    ax.legend(fontsize=8, loc="lower left")
    return fig


# --- widget 3 --------------------------------------------------------------------------

def plot_reconstructible(points, default_length: int) -> Figure:
    """Largest reconstructible fraction against the sentence length L (log scale)."""
    fig, ax = _figure(None)
    L = np.array([p[0] for p in points])
    frac = np.array([float(p[1]) for p in points])
    ax.semilogy(L, frac, "o-", color=BLUE, ms=4)
    i = int(np.nonzero(L == default_length)[0][0])
    ax.semilogy([L[i]], [frac[i]], "o", ms=9, mfc="none", color=ORANGE,
                label=f"L = {fmt.integer(int(L[i]))}: {fmt.percent(frac[i], 6)}")
    ax.set_xlabel("longitud de la frase $L$ (paraules)")
    ax.set_ylabel("fracció reconstruïble màxima")
    _power_ticks(ax)
    catalan_ticks(ax, "x")
    ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
    ax.legend(fontsize=8)
    return fig


def plot_code_sharing(pigeonhole) -> Figure:
    """How many codes hold 1, 2, 3, … sentences in the enumerated tiny case."""
    fig, ax = _figure(None)
    share, count = zip(*pigeonhole.sentences_per_code)
    ax.bar([str(s) for s in share], count, color=BLUE)
    ax.set_xlabel("frases que comparteixen un mateix codi")
    ax.set_ylabel("nombre de codis")
    catalan_ticks(ax, "y")
    return fig


# --- widget 4 --------------------------------------------------------------------------

def plot_attention(readouts: list, titles: list[str]) -> Figure:
    """Heat maps of α (rows: decoder steps t, columns: source words j), one per temperature."""
    fig, axes = plt.subplots(1, len(readouts), figsize=(3.0 * len(readouts), 3.0))
    for a, title, ax in zip(readouts, titles, np.atleast_1d(axes)):
        im = ax.imshow(a.alpha, vmin=0, vmax=1, cmap="Blues")
        ticks = np.arange(a.n)
        ax.set_xticks(ticks, [str(j + 1) for j in ticks])
        ax.set_yticks(ticks, [str(t + 1) for t in ticks])
        ax.set_xlabel("paraula d'entrada $j$")
        ax.set_title(title, fontsize=9)
        ax.grid(False)
    np.atleast_1d(axes)[0].set_ylabel("pas de sortida $t$")
    cbar = fig.colorbar(im, ax=list(np.atleast_1d(axes)), shrink=0.8)
    cbar.ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _p: fmt.decimal(y, 1)))
    cbar.set_label("$\\alpha_{tj}$")
    return fig


def plot_span(temperatures, spans, n: int, marks: dict) -> Figure:
    """Mean effective span against the temperature (log scale), with the text's temperatures."""
    fig, ax = _figure(None)
    ax.semilogx(temperatures, spans, "-", color=BLUE)
    for level in (1, n):
        ax.axhline(level, color=GREY, lw=0.8, ls=":")
    for tau, span in marks.items():
        ax.semilogx([tau], [span], "o", color=ORANGE)
        ax.annotate(f"τ = {fmt.decimal(tau, 2 if tau < 1 else 0)}: {fmt.decimal(span, 3)}",
                    (tau, span), textcoords="offset points", fontsize=8,
                    xytext=(8, 6) if span < n / 2 else (8, -14))
    ax.set_xlabel("temperatura τ")
    ax.set_ylabel("abast efectiu mitjà")
    ax.xaxis.set_major_formatter(FuncFormatter(
        lambda x, _p: "1" if x == 1 else "10" + fmt.power_of_ten(x, 0).split("·10")[-1]))
    catalan_ticks(ax, "y")
    return fig


# --- widgets 5 and 6 ---------------------------------------------------------------------

def _log_log_ticks(ax) -> None:
    power = FuncFormatter(lambda v, _p: "1" if v == 1 else "10" + fmt.power_of_ten(v, 0).split("·10")[-1])
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_locator(LogLocator(base=10, numticks=8))
        axis.set_major_formatter(power)
        # minor marks at 2 and 5 of each decade, unlabelled: matplotlib's default puts eight
        # a decade over up to ten decades, which crowds the axis and triples the drawing time
        axis.set_minor_locator(LogLocator(base=10, subs=(2.0, 5.0), numticks=8))
        axis.set_minor_formatter(NullFormatter())


def plot_cost(sweep, length: int) -> Figure:
    """FLOPs per layer against L (log–log): the two Transformer terms, their sum, the RNN."""
    fig, ax = _figure(None)
    L = sweep.lengths
    ax.loglog(L, sweep.projection, "--", color=BLUE, label="projeccions, $8Ld^2$")
    ax.loglog(L, sweep.attention, ":", color=BLUE, label="atenció, $4L^2d$")
    ax.loglog(L, sweep.projection + sweep.attention, "-", color=BLUE, label="Transformer")
    ax.loglog(L, sweep.rnn, "-", color=ORANGE, label="RNN, $4Ld^2$")
    cross = sweep.crossing
    ax.loglog([cross], [8 * cross * sweep.d**2], "o", color=GREY,
              label=f"creuament a L = {fmt.decimal(cross, 0)}")
    ax.axvline(length, color=GREY, lw=0.8, ls=":")
    ax.set_xlabel("longitud de la seqüència $L$ (tokens)")
    ax.set_ylabel("FLOP per capa")
    _log_log_ticks(ax)
    ax.legend(fontsize=8)
    return fig


def plot_memory(tokens, kv_cache_bytes, state_bytes: float) -> Figure:
    """Bytes kept to generate the next token, against tokens generated (log–log)."""
    fig, ax = _figure(None)
    ax.loglog(tokens, kv_cache_bytes, "-", color=BLUE, label="Transformer: KV-cache")
    ax.loglog(tokens, np.full(len(tokens), state_bytes), "-", color=ORANGE, label="RNN: estat")
    ax.set_xlabel("tokens generats $L$")
    ax.set_ylabel("bytes")
    _log_log_ticks(ax)
    ax.legend(fontsize=8)
    return fig


# --- widget 7 ------------------------------------------------------------------------------

def plot_gates(reference, routed, top_k: int) -> Figure:
    """σ(a)⊙b per channel, and what the top-k router keeps of it."""
    fig, ax = _figure(None)
    j = np.arange(len(reference))
    ax.bar(j - 0.2, reference, width=0.4, color=BLUE, label="σ(a)⊙b (porta, LSTM, SwiGLU)")
    ax.bar(j + 0.2, routed, width=0.4, color=ORANGE, label=f"router top-{top_k}")
    ax.axhline(0, color=GREY, lw=0.8)
    ax.set_xticks(j, [str(i + 1) for i in j])
    ax.set_xlabel("canal")
    ax.set_ylabel("sortida")
    catalan_ticks(ax, "y")
    ax.legend(fontsize=8)
    return fig
