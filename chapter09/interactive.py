"""The widgets' controls, precomputed: every position of every control, computed here.

The HTML book has no kernel.  For each widget this module runs the widget's own
functions over a grid of control values that contains the defaults and every
value the text names, and returns a JSON-able specification: the controls, and
for each combination of their positions the readout (Catalan strings from
``fmt``, exactly what the book would print) and the data of the plot.  A small
script in the page (``book/_static/ch09-widgets.js``) only looks the current
combination up and draws it; it computes nothing.

A state is keyed by the positions of the controls joined with ``-`` ("3-0").
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from . import attention as w4
from . import bottleneck as w3
from . import cost as w5
from . import fmt
from . import gates as w7
from . import lstm_gradient as w2
from . import rnn_gradient as w1
from .claims import L_LONG


@dataclass(frozen=True)
class Control:
    name: str
    label: str
    values: tuple
    labels: tuple
    initial: int

    def as_dict(self) -> dict:
        return {"name": self.name, "label": self.label, "labels": list(self.labels),
                "initial": self.initial}


def control(name: str, label: str, values, initial, formatter) -> Control:
    values = tuple(values)
    if initial not in values:
        raise ValueError(f"initial value {initial!r} of {name} is not on its grid")
    return Control(name, label, values, tuple(formatter(v) for v in values), values.index(initial))


def spec(widget: str, controls: list[Control], state, readout_labels: dict) -> dict:
    """Run ``state(*values)`` at every combination of control positions."""
    states = {}
    for positions in itertools.product(*(range(len(c.values)) for c in controls)):
        values = [c.values[i] for c, i in zip(controls, positions)]
        states["-".join(map(str, positions))] = state(*values)
    return {"widget": widget, "controls": [c.as_dict() for c in controls],
            "readout_labels": readout_labels, "states": states}


def initial_state(s: dict) -> dict:
    return s["states"]["-".join(str(c["initial"]) for c in s["controls"])]


def _round(a, digits: int = 4) -> list:
    """Plot data only (the readout keeps its exact strings): 4 significant digits."""
    return [float(f"{x:.{digits}g}") for x in np.asarray(a, dtype=float)]


# --- widget 1 ---------------------------------------------------------------------------------

def widget1() -> dict:
    seed = w1.page_seed()

    def state(w_scale, input_scale):
        r = w1.simulate(w_scale=w_scale, input_scale=input_scale, seed=seed)
        k = r.steps_back
        return {
            "readout": {"rho": fmt.decimal(r.spectral_radius), "tp": fmt.decimal(r.mean_tanh_prime),
                        "product": fmt.decimal(r.product), "pred": fmt.decimal(r.predicted_slope),
                        "meas": fmt.decimal(r.measured_slope),
                        "verdict": "explota" if r.explodes else "s'esvaeix"},
            "plot": {"kind": "lines", "ylog": True, "xlabel": "passos enrere k", "ylabel": "‖∂L/∂h‖",
                     "series": [
                         {"label": "mesurat", "x": k.tolist(), "y": _round(np.exp(r.log_grad_norms))},
                         {"label": "previst", "dash": True, "x": [0, r.T],
                          "y": _round(np.exp([0.0, r.predicted_slope * r.T]))}]},
        }

    scales = tuple(np.round(np.arange(1, 41) * 0.1, 1))
    return spec("w1", [
        control("w_scale", "escala de W_hh", scales, w1.W_SCALE, lambda v: fmt.decimal(v, 1)),
        control("input_scale", "escala de l'entrada", (0.05, 0.25, 0.5, 1.0), w1.INPUT_SCALE,
                lambda v: fmt.decimal(v, 2 if v < 0.1 else (1 if v < 1 else 0))),
    ], state, {"rho": "radi espectral ρ", "tp": "tanh′ mitjana", "product": "producte ρ·tanh′",
               "pred": "pendent previst", "meas": "pendent mesurat", "verdict": "gradient"})


# --- widget 2 ---------------------------------------------------------------------------------

def widget2() -> dict:
    seed = w1.page_seed()
    rnn = w1.simulate(seed=seed)

    def state(forget, pinned):
        r = w2.simulate(forget=forget, pinned=pinned, seed=seed)
        k = r.steps_back
        return {
            "readout": {"whole": fmt.decimal(r.whole_factor, 3), "cell": fmt.decimal(r.cell_path_factor, 3),
                        "geo": fmt.decimal(r.geometric_mean_f, 3),
                        "rnn": fmt.decimal(float(np.exp(rnn.measured_slope)))},
            "plot": {"kind": "lines", "ylog": True, "xlabel": "passos enrere k", "ylabel": "norma del gradient",
                     "series": [
                         {"label": "RNN", "x": k.tolist(), "y": _round(np.exp(rnn.log_grad_norms))},
                         {"label": "LSTM, tot el gradient", "x": k.tolist(), "y": _round(np.exp(r.log_whole))},
                         {"label": "LSTM, camí de la cel·la", "dash": True, "x": k.tolist(),
                          "y": _round(np.exp(r.log_cell))}]},
        }

    return spec("w2", [
        control("forget", "f", w2.FORGETS, w2.FORGET, lambda v: fmt.decimal(v, 2 if v < 1 else 0)),
        control("pinned", "porta d'oblit", (False, True), False, lambda v: "fixa" if v else "amb porta"),
    ], state, {"whole": "factor de tot el gradient", "cell": "factor del camí de la cel·la",
               "geo": "mitjana geomètrica de f_t", "rnn": "factor de la RNN"})


# --- widget 3 ---------------------------------------------------------------------------------

def _big(n: int) -> str:
    return fmt.integer(n) if n < 10**15 else fmt.power_of_ten(float(n))


def widget3() -> dict:
    lengths = tuple(range(1, 13))

    def state(d, q, V, L):
        b = w3.bottleneck(d, q, V, L)
        curve = [float(w3.bottleneck(d, q, V, n).fraction) for n in lengths]
        return {
            "readout": {"codes": _big(b.codes), "sentences": _big(b.sentences),
                        "missing": fmt.decimal(max(b.missing_bits, 0.0), 1),
                        "fraction": fmt.percent(float(b.fraction), 6) if b.fraction >= 1e-6
                        else fmt.power_of_ten(float(b.fraction) * 100) + fmt.NBSP + "%"},
            "plot": {"kind": "lines", "ylog": True, "xlabel": "longitud L", "ylabel": "fracció reconstruïble",
                     "marker": {"x": L, "y": float(b.fraction)},
                     "series": [{"label": "fita", "x": list(lengths), "y": _round(curve)}]},
        }

    return spec("w3", [
        control("d", "d (components)", (2, 4, 8, 16), w3.D, fmt.integer),
        control("q", "q (bits per component)", (4, 8, 16), w3.Q, fmt.integer),
        control("V", "V (vocabulari)", (2, 1024, 32000), w3.V, fmt.integer),
        control("L", "L (paraules)", lengths, w3.L, fmt.integer),
    ], state, {"codes": "codis 2^(d·q)", "sentences": "frases V^L", "missing": "bits que falten",
               "fraction": "fracció reconstruïble màxima"})


# --- widget 4 ---------------------------------------------------------------------------------

TEMPERATURES = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 4.0, 10.0, 20.0,
                50.0, 100.0, 200.0, 500.0, 1000.0)


def widget4() -> dict:
    def state(tau):
        a = w4.attend(temperature=tau)
        return {
            "readout": {"span": fmt.decimal(a.span.mean(), 3), "part": fmt.decimal(a.participation.mean(), 3),
                        "sums": fmt.power_of_ten(float(np.abs(a.row_sums - 1).max()))
                        if np.any(a.row_sums != 1) else "0,0",
                        "minw": fmt.power_of_ten(a.min_weight) if a.min_weight else "0,0",
                        "hull": fmt.decimal(a.hull_excess, 1),
                        "copy": fmt.decimal(a.copy_gap, 4), "mean": fmt.decimal(a.mean_gap, 2)},
            "plot": {"kind": "heatmap", "xlabel": "paraula d'entrada j", "ylabel": "pas de sortida t",
                     "z": [_round(row, 3) for row in a.alpha]},
        }

    return spec("w4", [
        control("tau", "temperatura τ", TEMPERATURES, w4.TEMPERATURE,
                lambda v: fmt.decimal(v, 3) if v < 0.01 else fmt.decimal(v, 2) if v < 1 else fmt.decimal(v, 0)),
    ], state, {"span": "abast efectiu (mitjana)", "part": "1/Σα² (mitjana)", "sums": "màx. |Σα − 1|",
               "minw": "pes mínim", "hull": "excés fora de l'envolupant",
               "copy": "distància a l'estat més proper", "mean": "distància a la mitjana"})


# --- widgets 5 and 6 --------------------------------------------------------------------------

def widget5() -> dict:
    lengths = tuple(2**k for k in range(4, 18))   # 16 … 131.072

    def state(L, d):
        memory_L = np.array([2**k for k in range(0, 18)])
        return {
            "readout": {"transformer": fmt.power_of_ten(w5.transformer_flops(L, d)),
                        "rnn": fmt.power_of_ten(w5.rnn_flops(L, d)),
                        "ratio": fmt.decimal(float(w5.ratio(L, d))),
                        "state": fmt.si_bytes(w5.recurrent_state_bytes(d)),
                        "kv": fmt.si_bytes(w5.kv_cache_bytes(L, d), 2 if w5.kv_cache_bytes(L, d) >= 1e10 else 1)},
            "plot": {"kind": "lines", "xlog": True, "ylog": True, "xlabel": "tokens L", "ylabel": "bytes",
                     "marker": {"x": L, "y": w5.kv_cache_bytes(L, d)},
                     "series": [
                         {"label": "KV-cache", "x": memory_L.tolist(),
                          "y": [w5.kv_cache_bytes(int(n), d) for n in memory_L]},
                         {"label": "estat de la RNN", "x": [1, int(memory_L[-1])],
                          "y": [w5.recurrent_state_bytes(d)] * 2}]},
        }

    return spec("w5", [
        control("L", "L (tokens)", lengths, w5.L, fmt.integer),
        control("d", "d (amplada)", (256, 512, 1024, 2048), w5.D, fmt.integer),
    ], state, {"transformer": "FLOP per capa, Transformer", "rnn": "FLOP per capa, RNN",
               "ratio": "Transformer / RNN", "state": "memòria: estat de la RNN",
               "kv": "memòria: KV-cache"})


# --- widget 7 ---------------------------------------------------------------------------------

def widget7() -> dict:
    def state(top_k):
        g = w7.gates(seed=0, top_k=top_k)
        return {
            "readout": {"off": fmt.percent(g.switched_off, 0), "off_exact": fmt.percent(g.switched_off, 1),
                        "gap": fmt.decimal(g.topk_gap, 3), "lstm": fmt.decimal(g.lstm_gap, 1),
                        "swiglu": fmt.power_of_ten(g.swiglu_gap)},
            "plot": {"kind": "bars", "xlabel": "canal", "ylabel": "sortida",
                     "labels": [str(j + 1) for j in range(g.channels)],
                     "series": [{"label": "σ(a)⊙b", "y": _round(w7.reference(g.a, g.b))},
                                {"label": f"router top-{top_k}", "y": _round(w7.moe(g.a, g.b, top_k))}]},
        }

    return spec("w7", [
        control("top_k", "top-k", tuple(range(1, w7.CHANNELS + 1)), w7.CHANNELS, fmt.integer),
    ], state, {"off": "canals apagats", "off_exact": "canals apagats (exacte)",
               "gap": "diferència amb la porta", "lstm": "diferència LSTM", "swiglu": "diferència SwiGLU"})


SPECS = {"w1": widget1, "w2": widget2, "w3": widget3, "w4": widget4, "w5": widget5, "w7": widget7}
