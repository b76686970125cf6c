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

from . import fmt

__all__ = ["MAX_STATES", "Control", "control", "plot_values", "shared", "spec"]

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
    """A control: its name, its label, the values it takes, the initial one (one of them), and each
    value's label, ``formatter(value)``: the label is the value it runs, written as the prose writes it."""
    values = tuple(values)
    return Control(name, label, values, tuple(formatter(v) for v in values), values.index(initial))


def spec(widget: str, controls: list[Control], state, readout_labels: dict) -> dict:
    """Run ``state(*values)`` at every combination of control positions (at most ``MAX_STATES``)."""
    assert math.prod(len(c.values) for c in controls) <= MAX_STATES, "a widget of more states than the page can carry"
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


def shared(spec: dict) -> dict:
    """``spec`` as the page carries it: what every state's plot has in common, written once.

    ``plot`` holds the plot's keys that all states share (kind, axis labels, …) and
    ``series`` each series' shared keys by position (its label, its x values, …); each state
    keeps the rest.  The page's script merges them back (``plotOf`` in ch09-widgets.js), so
    that a page of hundreds of states does not repeat its axes hundreds of times.

    >>> s = {"states": {"0": {"plot": {"kind": "lines", "series": [{"x": [1, 2], "y": [3, 4]}]}},
    ...                 "1": {"plot": {"kind": "lines", "series": [{"x": [1, 2], "y": [5, 6]}]}}}}
    >>> shared(s)["plot"], shared(s)["series"], shared(s)["states"]["1"]
    ({'kind': 'lines'}, [{'x': [1, 2]}], {'plot': {'series': [{'y': [5, 6]}]}})
    """
    if not all("plot" in state for state in spec["states"].values()):
        return spec
    plots = [state["plot"] for state in spec["states"].values()]
    common = {k: v for k, v in plots[0].items() if k != "series" and all(p.get(k, _ABSENT) == v for p in plots)}
    lengths = {len(p.get("series", ())) for p in plots}
    series = []
    if "series" in plots[0] and len(lengths) == 1:
        series = [
            {k: v for k, v in first.items() if all(p["series"][i].get(k, _ABSENT) == v for p in plots)}
            for i, first in enumerate(plots[0]["series"])
        ]

    def own(plot: dict) -> dict:
        kept = {k: v for k, v in plot.items() if k not in common and k != "series"}
        if series:
            kept["series"] = [{k: v for k, v in s.items() if k not in series[i]} for i, s in enumerate(plot["series"])]
        elif "series" in plot:
            kept["series"] = plot["series"]
        return kept

    states = {key: {**state, "plot": own(state["plot"])} for key, state in spec["states"].items()}
    return {**spec, "plot": common, "series": series, "states": states}


_ABSENT = object()


def plot_values(a, digits: int = 4) -> list:
    """Numbers for a widget's plot (the readout keeps its exact strings), to ``digits`` significant digits."""
    return [float(f"{x:.{digits}g}") for x in np.asarray(a, dtype=float)]
