"""What a figure shows, as data: the lines the snapshot pins for every figure and widget plot.

A figure is pinned by what a reader sees in it, not by its pixels: for each panel its title,
its axes' names, scales, limits and tick labels, and every curve, bar, point cloud, image and
text drawn in it, each series by its name, its colour and style, its size and the digest of its
values to four significant digits (machine-independent: the book's numbers are the same bits
everywhere, and four digits are far from a rounding step).  A widget's plot is a dictionary
(``controls()``'s states): its labels and the digest of each state's series.

A figure's drawing for a phone (``plots.narrow``) lays the same panels out anew; without its layout
(``layout=False``: no axis names or ticks, no colorbars) it shows what the wide one shows.
"""

from __future__ import annotations

import hashlib
import json

import numpy as np
from matplotlib.colors import to_hex

DIGITS = 4  # significant digits of a pinned value


def values(a) -> str:
    """Numbers to ``DIGITS`` significant digits, joined: what a digest is taken of."""
    flat = np.asarray(np.ma.filled(np.ma.asarray(a, dtype=float), np.nan), dtype=float).ravel()
    return " ".join(f"{x:.{DIGITS}g}" for x in flat)


def digest(a) -> str:
    """Size, range and a short digest of the values ``a``: ``41 values, 0,01 … 3,2, #1a2b3c4d``."""
    text = values(a)
    flat = np.asarray(np.ma.filled(np.ma.asarray(a, dtype=float), np.nan), dtype=float).ravel()
    finite = flat[np.isfinite(flat)]
    span = f"{finite.min():.{DIGITS}g} … {finite.max():.{DIGITS}g}" if finite.size else "no finite value"
    return f"{flat.size} values, {span}, #{hashlib.sha256(text.encode()).hexdigest()[:10]}"


def _axis(ax, name: str, layout: bool = True) -> str:
    """One axis: its name, scale, limits and tick labels (without ``layout``: its scale and limits)."""
    low, high = getattr(ax, f"get_{name}lim")()
    scale = getattr(ax, f"get_{name}scale")()
    if not layout:
        return f"{name} {scale} [{low:.{DIGITS}g}, {high:.{DIGITS}g}]"
    ticks = [t.get_text() for t in getattr(ax, f"get_{name}ticklabels")() if t.get_text()]
    label = getattr(ax, f"get_{name}label")()
    return f"{name} {label!r} {scale} [{low:.{DIGITS}g}, {high:.{DIGITS}g}] ticks {ticks}"


def _name(artist) -> str:
    """An artist's name in the legend ('' for matplotlib's own names, ``_child3``: not in the legend)."""
    label = str(artist.get_label())
    return "" if label.startswith("_") else label


def _panel(ax, layout: bool = True) -> list[str]:
    """One panel: its title and axes, then what is drawn in it."""
    lines = [f"panel {ax.get_title()!r}", "  " + _axis(ax, "x", layout), "  " + _axis(ax, "y", layout)]
    for line in ax.lines:
        x, y = line.get_data()
        style = f"{to_hex(line.get_color())} {line.get_linestyle()} {line.get_marker()}"
        lines.append(f"  line {_name(line)!r} {style} x {digest(x)} y {digest(y)}")
    bars: dict[tuple, list] = {}  # bars (rectangles) by their name and colour: one line per series of bars
    for patch in ax.patches:
        key = (_name(patch), to_hex(patch.get_facecolor()))
        bars.setdefault(key, []).append(
            patch.get_extents().bounds
            if not hasattr(patch, "get_x")
            else (patch.get_x(), patch.get_y(), patch.get_width(), patch.get_height())
        )
    for (label, colour), boxes in bars.items():
        lines.append(f"  bars {label!r} {colour} (x, y, width, height) {digest(boxes)}")
    for collection in ax.collections:
        lines.append(f"  points {_name(collection)!r} {digest(collection.get_offsets())}")
        if collection.get_array() is not None:
            lines.append(f"    colours {digest(collection.get_array())}")
    for image in ax.images:
        lines.append(f"  image {image.get_cmap().name} extent {values(image.get_extent())} {digest(image.get_array())}")
    for text in ax.texts:
        lines.append(f"  text {text.get_text()!r} at {values(text.get_position())}")
    legend = ax.get_legend()
    if legend is not None:
        lines.append(f"  legend {_labels(legend, layout)}")
    return lines


def figure_lines(fig, layout: bool = True) -> list[str]:
    """Everything a figure shows, one line per thing drawn (the figure is drawn first: tick labels exist then);
    without ``layout``, what its panels draw only (no axis names or ticks, no colorbars)."""
    fig.canvas.draw()
    lines = [f"figure {fig.get_suptitle()!r} x {fig.get_supxlabel()!r} y {fig.get_supylabel()!r}"]
    for ax in fig.axes:
        if ax.get_visible() and (layout or not hasattr(ax, "_colorbar")):
            lines += _panel(ax, layout)
    return lines + [f"legend {_labels(legend, layout)}" for legend in fig.legends]


def _labels(legend, layout: bool = True) -> list[str]:
    """A legend's labels (without ``layout``, each on one line)."""
    return [t.get_text() if layout else " ".join(t.get_text().split()) for t in legend.get_texts()]


def plot_lines(spec: dict) -> dict[str, str]:
    """A widget's plot at every state: its labels and options once (``plot``), then each state's series."""
    plots = {key: state["plot"] for key, state in spec["states"].items()}
    first = next(iter(plots.values()))
    shared = {k: v for k, v in first.items() if k not in ("series", "z", "marker")}
    out = {"plot": json.dumps(shared, ensure_ascii=False, sort_keys=True)}
    for key, plot in plots.items():
        series = [
            " ".join(
                [repr(s.get("label", "")), str(s.get("color", "")), str(s.get("dash", ""))]
                + [f"{axis} {digest(s[axis])}" for axis in ("x", "y") if axis in s]
            )
            for s in plot.get("series", [])
        ]
        if "z" in plot:
            series.append(f"z {digest(plot['z'])}")
        if "marker" in plot:
            series.append(f"marker {json.dumps(plot['marker'], ensure_ascii=False, sort_keys=True)}")
        changed = {k: v for k, v in plot.items() if k in shared and v != shared[k]}
        out[f"plot {key}"] = " | ".join(series + ([json.dumps(changed, ensure_ascii=False)] if changed else []))
    return out
