"""Page 4b's figures, drawn: accuracy against length, the learning curves and the loss of the long training,
accuracy by output position and the gradient's share by distance (matplotlib; the strings, the arms' names and
the page's parameters come from the page, :mod:`chapter09.pages.seq2seq`)."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from .. import fmt
from .. import seq2seq as s2s
from ..plots import BLUE, GREEN, GREY, ORANGE, SMALL, catalan_ticks, new_figure
from ..seq2seq import curves, sweep
from ..seq2seq.sweep import LONG_LENGTHS, arm_accuracy, page_long
from ..seq2seq.task import V

__all__: list[str] = []  # the page's figures() shows them

COLORS = {"bottleneck": ORANGE, "reversed": GREEN, "attention": BLUE}


def _long_curves(ax, length: int, curve, names: dict[str, str]) -> None:
    """Every model of the long training at ``length``, ``curve(model)`` at its checkpoints, on a log axis of Adam
    steps with ticks at 10, 100, 1.000 and the cap; each arm labelled with its name in ``names``."""
    for arm in s2s.ARMS:
        for i, m in enumerate(curves.long_models(arm, length)):
            ax.plot(m.checkpoints, curve(m), "-", color=COLORS[arm], lw=1.2, alpha=0.85,
                    label=names[arm] if i == 0 else None)  # fmt: skip
    ax.set_xscale("log")
    ticks = [10, 100, 1000, s2s.CAP]
    ax.set_xticks(ticks, [fmt.integer(t) for t in ticks])
    ax.minorticks_off()
    ax.set_xlim(20, s2s.CAP * 1.15)
    ax.set_xlabel("passos d'Adam")


def plot_length(n: dict[str, str], names: dict[str, str], chance: float, longest: int) -> Figure:
    """Accuracy against length on both budgets: each arm's mean over seeds, dashed after ``s2s.STEPS`` steps
    (every length), solid after the long training (LONG_LENGTHS, with every seed's point), and ``chance``,
    labelled at ``longest`` (``n``: the page's strings, by glue key; ``names``: the arms')."""
    fig, ax = new_figure()
    long = page_long()
    for arm in s2s.ARMS:
        ax.plot(s2s.LENGTHS, arm_accuracy(arm).mean(axis=1), "--", color=COLORS[arm], lw=1.2, alpha=0.8)
        acc = long.accuracy[long.arms.index(arm)]
        ax.plot(long.lengths, acc.mean(axis=1), "o-", color=COLORS[arm], label=names[arm])
        for seeds in acc.T:
            ax.plot(long.lengths, seeds, ".", color=COLORS[arm], alpha=0.4, ms=4)
    ax.plot([], [], "--", color=GREY, label=f"en {n['w4b_steps']} passos")
    ax.plot([], [], "-", color=GREY, label=f"entrenament llarg ({n['w4b_cap']} com a molt)")
    ax.axhline(chance, color=GREY, lw=0.8, ls=":")
    ax.annotate(
        f"atzar, {n['w4b_chance']}", (longest, chance), textcoords="offset points", xytext=(0, 4),
        fontsize=SMALL, ha="right",
    )  # fmt: skip
    ax.set(xticks=s2s.LENGTHS, ylim=(0, 1.05), xlabel="longitud de la frase L (símbols)")
    ax.set_ylabel("encert sobre frases no vistes")
    ax.yaxis.set_major_formatter(lambda y, _p: fmt.percent(y, 0))
    ax.legend(loc="lower left", bbox_to_anchor=(0.0, 0.16), fontsize=SMALL)
    catalan_ticks(ax, "x")
    return fig


def plot_curves(names: dict[str, str], target: float) -> Figure:
    """Learning curves: accuracy on the held-out strings at each checkpoint, log steps, every model of the long
    training, one panel per length of LONG_LENGTHS, with the accuracy ``target`` they are read at."""
    fig = Figure(figsize=(3.2 * len(LONG_LENGTHS), 3.2))
    axes = fig.subplots(1, len(LONG_LENGTHS), sharey=True)
    for ax, length in zip(axes, LONG_LENGTHS):
        _long_curves(ax, length, lambda m: m.curve, names)
        ax.axhline(target, color=GREY, lw=0.8, ls="--")
        ax.axvline(s2s.STEPS, color=GREY, lw=0.8, ls=":")
        ax.set_title(f"L = {fmt.integer(length)}")
    axes[0].set(ylim=(0, 1.03), ylabel="encert sobre frases no vistes")
    axes[0].yaxis.set_major_formatter(lambda y, _p: fmt.percent(y, 0))
    axes[0].legend(loc="lower right", fontsize=SMALL)
    return fig


def plot_position(n: dict[str, str], names: dict[str, str], chance: float, longest: int) -> Figure:
    """Accuracy by output position at length ``longest`` without attention, after ``s2s.STEPS`` steps and after
    the long training: greedy (solid, its own symbols as inputs) and teacher-forced (dashed, the right ones)."""
    fig = Figure(figsize=(7.2, 3.2))
    axes = fig.subplots(1, 2, sharey=True)
    positions = np.arange(1, longest + 1)
    for ax, steps, title in zip(axes, (s2s.STEPS, None), (f"en {n['w4b_steps']} passos", "entrenament llarg")):
        for arm in ("reversed", "bottleneck"):
            models = curves.long_models(arm, longest)
            greedy, forced = (curves.by_position(models, steps, forced).mean(axis=0) for forced in (False, True))
            ax.plot(positions, greedy, "o-", color=COLORS[arm], label=names[arm], ms=3)
            ax.plot(positions, forced, "--", color=COLORS[arm], lw=1.2)
        ax.axhline(chance, color=GREY, lw=0.8, ls=":")
        ax.set(title=title, xticks=positions[::2] + 0, xlabel="posició de sortida t")
    axes[0].plot([], [], "-", color=GREY, label="amb els seus símbols")
    axes[0].plot([], [], "--", color=GREY, label="amb els correctes")
    axes[0].set(ylim=(0, 1.05), ylabel="encert a la posició t")
    axes[0].yaxis.set_major_formatter(lambda y, _p: fmt.percent(y, 0))
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=len(labels), fontsize=SMALL, frameon=False)
    fig.subplots_adjust(bottom=0.3)  # the legend below the panels, off the curves
    return fig


def plot_paths(n: dict[str, str], names: dict[str, str], uniform: float, n_paths: int) -> Figure:
    """Share of the gradient of ℓ_t that reaches x_j, against |t − j|, for the three arms (over ``n_paths``
    held-out strings), and the ``uniform`` share."""
    fig, ax = new_figure()
    for arm in s2s.ARMS:
        shares = sweep.share_by_offset(arm, n_paths)
        ax.plot(range(len(shares)), shares, "o-", color=COLORS[arm], label=names[arm], ms=4)
    ax.axhline(uniform, color=GREY, lw=0.8, ls=":", label=f"a parts iguals, {n['w4b_uniform']}")
    ax.set(xlabel="distància entre la sortida i l'entrada, |t − j|", ylabel="part del gradient de ℓₜ que va a xⱼ")
    ax.yaxis.set_major_formatter(lambda y, _p: fmt.percent(y, 0))
    catalan_ticks(ax, "x")
    ax.legend(loc="upper right")
    return fig


def plot_loss(names: dict[str, str], longest: int) -> Figure:
    """Held-out loss (teacher forcing) at each checkpoint of the long training at length ``longest``, every
    model, log steps, and the loss of a uniform guess."""
    fig, ax = new_figure()
    _long_curves(ax, longest, lambda m: m.curve_loss, names)
    ax.axhline(np.log(V), color=GREY, lw=0.8, ls=":")
    ax.axvline(s2s.STEPS, color=GREY, lw=0.8, ls=":")
    ax.set(ylim=(0, None), ylabel="entropia creuada (nats)")
    catalan_ticks(ax, "y")
    ax.legend(loc="lower left")
    return fig
