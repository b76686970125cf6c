"""Page 08's rows of the claims registry: the book's own statements that the page checks, and the check that
judges each on the numbers it reads (the page is the book's own: no sentence of the author's to mend).

Each statement is written once, in :func:`claims`; its templates read the page's glue keys (``{w8_slope}``),
which :func:`chapter09.pages.linear_recurrence.readout` computes.  The draw-dependent statements are judged on
seed 0 and counted over the seeds 0 … N_SEEDS − 1 by the same checks (:func:`seeds_holding`).
"""

from __future__ import annotations

from .. import linear_recurrence as lr
from ..claim import Claim, judge

__all__ = ["TANH_FAR", "claims", "seeds_holding"]

U = lr.UNIT_ROUNDOFF  # u = 2⁻⁵³, the unit of rounding on this page and on page 07
L_LONG = 131_072  # a long context: 2**17 tokens, page 05's longest
TANH_FAR = 0.01  # "far from one step": the best line leaves more than 1 % of the spread
SCAN_TOLERANCE = float(lr.work(lr.STEPS).scan_depth)  # one unit of rounding u a round


def _scan_equals_loop(ulps: float, tolerance: float) -> bool:
    """W8.1: the scan's states are the loop's within ``tolerance`` units of rounding u (one a round)."""
    return ulps <= tolerance


def _scan_work_is_counted(combines: int, rounds: int, L: int) -> bool:
    """W8.2: the combines counted are L·R − 2^R + 1 in R = ⌈log₂ L⌉ rounds, more than the loop's L."""
    return rounds == (L - 1).bit_length() and combines == L * rounds - 2**rounds + 1 and combines > L


def _slope_is_the_mean(slope: float, mean_log: float, T: int) -> bool:
    """W8.3: the slope equals the mean of ln λ to 2T units of rounding u (one a product, one a logarithm)."""
    return abs(slope - mean_log) <= 2 * T * U * abs(mean_log)


def _tanh_does_not_close(affine: float, tanh: float) -> bool:
    """W8.4: the composed affine maps are one map (residual ≤ 200 u); the tanh steps are not (> 1 %)."""
    return affine <= 200 * U and tanh > TANH_FAR


def _toy_is_llama(toy_per_token: int, llama_per_token: int, llama_long: int) -> bool:
    """W8.5: page 05's toy keeps Llama-3.1-8B's 131.072 B a token, 17,18 GB at 131.072 tokens."""
    return toy_per_token == llama_per_token == 131_072 and llama_long == 131_072 * L_LONG


def seeds_holding(gaps: list, slopes: list, compositions: list) -> tuple[int, int, int]:
    """How many seeds W8.1, W8.3 and W8.4 hold for, each counted by its own check: the scan's gap to the loop
    in units u (``gaps``), the measured slope and the mean of ln a (``slopes``) and two tanh steps composed
    (``compositions``), one entry a seed."""
    return (
        sum(_scan_equals_loop(g, SCAN_TOLERANCE) for g in gaps),
        sum(_slope_is_the_mean(x, m, lr.STEPS) for x, m in slopes),
        sum(_tanh_does_not_close(x.affine, x.tanh) for x in compositions),
    )


def claims(
    scan_gap: float, s: lr.Scan, slope: float, mean_log: float, c: lr.Composition, toy_per_token: int, llama: lr.Memory
) -> tuple[Claim, ...]:
    """The book's statements W8.1 … W8.5, each judged by its check on the numbers it speaks of: seed 0's scan,
    its gap to the loop in units u (``scan_gap``), its gradient's slope against the mean of ln a (``slope``,
    ``mean_log``) and its two tanh steps composed (``c``); page 05's toy's bytes per token (``toy_per_token``)
    and Llama-3.1-8B's memory (``llama``)."""
    return (
        Claim(
            "W8.1",
            "L'escaneig paral·lel dona els mateixos estats que el bucle, llevat d'unes unitats d'arrodoniment.",
            "draw",
            "diferència màxima de {w8_scan_ulps} unitats u = 2⁻⁵³ a L = {w8_L} (tolerància {w8_tol_ulps}, una per "
            "ronda; la pitjor llavor, {w8_scan_ulps_max}); l'escaneig de Blelloch, {w8_tree_ulps}",
            **judge(_scan_equals_loop, scan_gap, SCAN_TOLERANCE),
            robustness="{w8_seeds_1}",
        ),
        Claim(
            "W8.2",
            "L'escaneig de Hillis i Steele fa ⌈log₂ L⌉ rondes i més treball que el bucle.",
            "exact",
            "{w8_rounds} rondes i {w8_combines} composicions comptades a L = {w8_L}, contra {w8_loop_work} passos; "
            "el de Blelloch (1990), {w8_tree_rounds} rondes i {w8_tree_combines} composicions",
            **judge(_scan_work_is_counted, s.combines, s.rounds, lr.STEPS),
        ),
        Claim(
            "W8.3",
            "En una recurrència lineal, el pendent del logaritme del gradient és exactament la mitjana de ln λ.",
            "draw",
            "pendent {w8_slope}, mitjana {w8_mean_log_a}: {w8_slope_gap} (tolerància {w8_slope_tol})",
            **judge(_slope_is_the_mean, slope, mean_log, lr.STEPS),
            robustness="{w8_seeds_3}",
        ),
        Claim(
            "W8.4",
            "Dos passos afins componen un sol pas afí; dos passos tanh no componen un sol pas tanh.",
            "draw",
            "residu relatiu de la millor recta: {w8_affine_residual} (afí), {w8_tanh_residual} (tanh; "
            "el mínim de les llavors, {w8_tanh_residual_min})",
            **judge(_tanh_does_not_close, c.affine, c.tanh),
            robustness="{w8_seeds_4}",
        ),
        Claim(
            "W8.5",
            "El model de joguina de la pàgina del cost i la memòria guarda per token tants bytes com Llama-3.1-8B.",
            "exact",
            "{w8_toy_per_token} B per token tots dos; {w8_llama_long} a {w8_L_long} tokens",
            **judge(_toy_is_llama, toy_per_token, llama.per_token, lr.cache_bytes(llama, L_LONG)),
        ),
    )
