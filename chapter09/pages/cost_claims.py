"""The checks of page 05's claims: each predicate judges the numbers of one sentence of the page.

:mod:`chapter09.pages.cost` gives each claim (W5.x, W6.x) its predicate and the numbers it reads (``judge``).
"""

from __future__ import annotations

from .. import fmt

__all__ = [
    "crossing_at_twice_d",
    "kv_cache_at_long_context",
    "kv_cache_reads_as_said",
    "layer_costs",
    "no_crossing_with_the_rnn",
    "state_reads_as_said",
    "three_times_only_as_kaplan_counts",
    "transformer_costs_four_rnns",
]

SWEEP_TOL = 1e-6  # the sweep's crossing, within this share of d from 2d
RATIO_SAID, RATIO_TEXT = 4, "4"  # "el Transformer costa 4,00 vegades la RNN": exactly 4, printed as such
KAPLAN_RATIO = 3  # the author's 3: the ratio with Kaplan et al.'s 2L²d
STATE_SAID = "131,1" + fmt.NBSP + "kB"  # "La RNN manté 131,1 kB"
KV_SAID = "268,4" + fmt.NBSP + "MB"  # "El Transformer arriba a 268,4 MB"
KV_LONG_BYTES = 2**34  # the KV-cache at L = 131.072: 16 GiB exactly


def layer_costs(projection_flops: int, attention_flops: int, L: int, d: int) -> bool:
    """W5.1: a Transformer layer's four projections cost 8Ld² FLOP, its attention 4L²d."""
    return projection_flops == 4 * 2 * L * d * d and attention_flops == 2 * 2 * L * L * d


def crossing_at_twice_d(algebra: int, sweep: float, d: int) -> bool:
    """W5.2: projections and attention cost the same at L = 2d, by algebra and on the sweep."""
    return algebra == 2 * d and abs(sweep - 2 * d) < SWEEP_TOL * d


def no_crossing_with_the_rnn(roots: tuple, equal_cost_length: int | None, d: int) -> bool:
    """W5.3: 4Ld² = 8Ld² + 4L²d has the roots L = −d and L = 0 only: no length where they cost the same."""
    return roots == (-d, 0) and equal_cost_length is None


def transformer_costs_four_rnns(ratio, ratio_text: str) -> bool:
    """W5.4: at L = 2.048, d = 1.024 the Transformer costs 4,00 times the RNN: exactly 4, and the page says 4."""
    return ratio == RATIO_SAID and ratio_text == RATIO_TEXT


def three_times_only_as_kaplan_counts(ratio, ratio_kaplan) -> bool:
    """W5.5: the trade is four times the work, not three: 3 is the ratio with Kaplan et al.'s count."""
    return ratio == RATIO_SAID and ratio_kaplan == KAPLAN_RATIO


def state_reads_as_said(state_text: str) -> bool:
    """W6.1: the RNN keeps 131,1 kB whatever the length."""
    return state_text == STATE_SAID


def kv_cache_reads_as_said(kv_text: str) -> bool:
    """W6.2: the Transformer's KV-cache reaches 268,4 MB at this context."""
    return kv_text == KV_SAID


def kv_cache_at_long_context(kv_bytes: int) -> bool:
    """W6.3: at L = 131.072 the KV-cache holds 2³⁴ bytes, the figure the reader is asked to look at."""
    return kv_bytes == KV_LONG_BYTES
