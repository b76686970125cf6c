"""The widgets' controls, precomputed: every position of every control.

The HTML book has no kernel.  Each widget page's module (``chapter09.pages``) runs
the widget's own functions over a grid of control values that contains the
defaults and every value the text names, through :func:`spec` here, and returns a
JSON-able specification: the controls, and for each combination of their
positions the readout (Catalan strings from ``fmt``, exactly what the book would
print) and the data of the plot.  A small script in the page
(``book/_static/ch09-widgets.js``) only looks the current combination up and
draws it; it computes nothing.

A state is keyed by the positions of the controls joined with ``-`` ("3-0").
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

from . import _check, fmt

__all__ = ["MAX_STATES", "Control", "control", "plot_values", "spec"]

MAX_STATES = 10_000  # combinations of control positions one widget precomputes


@dataclass(frozen=True)
class Control:
    name: str
    label: str
    values: tuple
    labels: tuple
    initial: int

    def as_dict(self) -> dict:
        return {
            "name": self.name,
            "label": self.label,
            "values": [_plain(v) for v in self.values],
            "labels": list(self.labels),
            "initial": self.initial,
        }


def _plain(value):
    """A control's value as JSON writes it (numpy scalars become Python numbers)."""
    return value.item() if isinstance(value, np.generic) else value


def control(name: str, label: str, values, initial, formatter) -> Control:
    """A control: its name, its label, the values it takes, the initial one, and each value's label
    (``formatter(value)``, a str)."""
    _check.text("name", name), _check.text("label", label), _check.function("formatter", formatter)
    values = tuple(_check.count("values", values, MAX_STATES))
    matches = [i for i, v in enumerate(values) if _same(v, initial)]
    if not matches:
        raise ValueError(f"initial must be one of the values of {name}, got {_check._short(initial)}")
    labels = tuple(formatter(v) for v in values)
    if not all(isinstance(t, str) for t in labels):
        raise ValueError(f"formatter must return a str for each value, got {labels!r:.80}")
    return Control(name, label, values, labels, matches[0])


def _same(a, b) -> bool:
    """``a == b`` for a control's values (numbers, text, flags), False for what cannot be compared so."""
    try:
        return bool(a == b) and type(a == b) is not np.ndarray
    except (TypeError, ValueError):
        return False


def spec(widget: str, controls: list[Control], state, readout_labels: dict) -> dict:
    """Run ``state(*values)`` at every combination of control positions."""
    _check.text("widget", widget), _check.function("state", state)
    if not isinstance(controls, list) or not all(isinstance(c, Control) for c in controls):
        raise _check.WrongType("controls", controls, "a list of Control")
    if not isinstance(readout_labels, dict):
        raise _check.WrongType("readout_labels", readout_labels, "a dict")
    _check.size("controls", math.prod(len(c.values) for c in controls), MAX_STATES, "the combinations of positions")
    states = {}
    for positions in itertools.product(*(range(len(c.values)) for c in controls)):
        values = [c.values[i] for c, i in zip(controls, positions)]
        states["-".join(map(str, positions))] = state(*values)
    return {
        "widget": widget,
        **_typeset({"controls": [c.as_dict() for c in controls], "readout_labels": readout_labels, "states": states}),
    }


def _typeset(data):
    """Every word of a widget (labels, readouts, legends) with Catalan typography (``fmt.typographic``)."""
    if isinstance(data, str):
        return fmt.typographic(data)
    if isinstance(data, dict):
        return {k: _typeset(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_typeset(v) for v in data]
    return data


def plot_values(a, digits: int = 4) -> list:
    """Numbers for a widget's plot (the readout keeps its exact strings), to ``digits`` significant digits.

    Parameters
    ----------
    a : array_like of float, shape (n,), finite
        The values to plot.
    digits : int, 1 … 17
        Significant digits kept.

    Returns
    -------
    list of float
        The values, rounded, for the widget's JSON.
    """
    a, digits = _check.array("a", a, ndim=1), _check.integer("digits", digits, 1, 17)
    return [float(f"{x:.{digits}g}") for x in a]
