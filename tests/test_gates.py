"""Widget 7: three roads to σ(a)⊙b, compared bit by bit."""

import itertools

import numpy as np
import pytest
from claim_cases import NBSP, TINY

from chapter09 import gates as w7


@pytest.mark.parametrize("seed", range(30))
def test_lstm_and_moe_are_bitwise_the_reference(seed):
    g = w7.gates(seed=seed)
    ref = w7.reference(g.a, g.b)
    assert np.array_equal(w7.lstm_gate(g.a, g.b), ref)
    assert np.array_equal(w7.moe(g.a, g.b, g.channels), ref)
    assert g.lstm_gap == g.moe_gap == 0.0


@pytest.mark.parametrize("seed", range(30))
def test_swiglu_differs_only_by_rounding(seed):
    g = w7.gates(seed=seed)
    ref = w7.reference(g.a, g.b)
    gap = np.abs(w7.swiglu(g.a, g.b) - ref)
    # each of the two extra operations rounds by at most half an ulp of its result
    assert np.all(gap <= 4 * np.spacing(np.abs(ref)))
    assert g.swiglu_gap == gap.max()


def test_topk_switches_off_the_rest_and_keeps_the_largest_gates():
    g = w7.gates(seed=3)
    out = w7.moe(g.a, g.b, 2)
    kept = np.nonzero(out)[0]
    assert len(kept) == 2 and set(kept) == set(np.argsort(-g.a)[:2])
    assert g.switched_off == 14 / 16
    off = np.setdiff1d(np.arange(16), kept)
    assert g.topk_gap == np.abs(w7.reference(g.a, g.b)[off]).max()


def test_swish_is_an_unbounded_gate():
    rob = w7.robustness()
    assert rob.swish_range[0] < 0 < 1 < rob.swish_range[1]
    assert 0 < rob.sigmoid_range[0] < rob.sigmoid_range[1] < 1


def test_robustness_distribution_sums_to_one():
    rob = w7.robustness()
    assert rob.n_seeds >= 200 and rob.bitwise == 1.0
    assert sum(share for _, share in rob.swiglu_gaps) == pytest.approx(1.0)


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"seed": -1}, "seed"),
        ({"channels": 0}, "channels"),
        ({"top_k": 0}, "top_k"),
        ({"top_k": 17}, "top_k"),
        ({"channels": 2.0}, "channels"),
    ],
)
def test_bad_parameters_raise_value_error_naming_them(kwargs, name):
    with pytest.raises(ValueError, match=rf"^{name} must be"):
        w7.gates(**kwargs)


@pytest.mark.parametrize("seed", range(30))
def test_sigmoid_gates_pick_the_experts_of_the_softmax_router(seed):
    g = w7.gates(seed=seed)
    for k in range(1, g.channels + 1):
        kept_sigmoid = np.nonzero(w7.moe(g.a, g.b, k))[0]
        kept_softmax, gates, weights = w7.router_weights(g.a, k)
        assert np.array_equal(kept_sigmoid, kept_softmax)
        assert weights.sum() == pytest.approx(1.0) and np.all(gates > 0) and np.all(gates < 1)
    assert g.same_experts


def test_swish_minimum_is_a_plus_one():
    a, low = w7.swish_minimum()
    assert low == pytest.approx(a + 1, abs=1e-12)
    grid = np.linspace(-5, 5, 100_001)
    swish = grid * w7.reference(grid, np.ones_like(grid))  # a·σ(a)
    assert low <= swish.min() + 1e-12 and abs(grid[np.argmin(swish)] - a) < 1e-4


def test_page_readout_exercise_answers():
    from chapter09.pages import gates as page

    n = page.readout().numbers
    assert n["w7_same_experts_share"] == "100\u00a0%"
    assert (n["w7_ex_off_count"], n["w7_ex_off"], n["w7_ex_gap"]) == ("12", "75\u00a0%", "0,549")
    assert (n["w7_margin"], n["w7_margin_leaves"], n["w7_margin_enters"]) == ("0,066", "8", "3")
    assert (n["w7_swish_argmin"], n["w7_swish_low"]) == ("−1,278", "−0,278")
    assert (n["w7_router_channels"], n["w7_router_gates"], n["w7_router_gates_sum"]) == ("7 i 8", "0,79 i 0,72", "1,51")
    assert (n["w7_router_softmax"], n["w7_router_softmax_sum"]) == ("0,59 i 0,41", "1,00")


def test_router_parameters_raise_value_error_naming_them():
    with pytest.raises(ValueError, match=r"^top_k must be"):
        w7.moe(np.ones(3), np.ones(3), 0)


@pytest.mark.parametrize("seed", range(30))
def test_a_load_balancing_bias_above_the_margin_swaps_the_experts(seed):
    """DeepSeek-V3 adds a bias to the scores for the top-k alone: past the margin it changes the choice."""
    g = w7.gates(seed=seed)
    k = g.top_k
    margin, leaves, enters = w7.selection_margin(g.a, k)
    kept = w7.top(w7.reference(g.a, np.ones_like(g.a)), k)  # σ(a)'s top-k, the unbiased choice
    assert margin >= 0 and leaves in kept and enters not in kept
    assert np.array_equal(w7.biased_top(g.a, np.zeros_like(g.a), k), kept)
    bias = np.zeros_like(g.a)
    bias[enters] = 1.001 * margin + 1e-12
    swapped = w7.biased_top(g.a, bias, k)
    assert enters in swapped and leaves not in swapped and len(set(swapped) & set(kept)) == k - 1
    bias[enters] = 0.999 * margin
    assert np.array_equal(w7.biased_top(g.a, bias, k), kept)


@pytest.mark.parametrize("seed", range(30))
def test_the_router_gap_never_grows_with_more_experts(seed):
    """Exercise 1: top-(k+1) switches off a subset of what top-k switched off, so its gap cannot grow."""
    gaps = [w7.gates(seed=seed, top_k=k).topk_gap for k in range(1, w7.CHANNELS + 1)]
    assert all(later <= earlier for earlier, later in itertools.pairwise(gaps)) and gaps[-1] == 0.0


def test_the_widget_starts_at_the_top_k_of_the_text():
    from chapter09.pages import gates as page

    spec, n = page.controls(), page.readout().numbers
    control = spec["controls"][0]
    assert control["labels"][control["initial"]] == n["w7_top_k"] == "2"
    assert page.reading() == page.reading(w7.TOP_K)
    assert (page.reading()["off"], page.reading()["gap"]) == (n["w7_switched_off"], n["w7_topk_gap"])


def test_one_precision_for_the_routers_gap():
    """The gap of the routed mixture: three decimals in the prose, the widget, the exercise and the registry."""
    from chapter09.pages import gates as page

    n = page.readout().numbers
    for key in ("w7_topk_gap", "w7_topk_median", "w7_topk_min", "w7_topk_max", "w7_ex_gap"):
        assert len(n[key].split(",")[1]) == 3, key
    assert n["w7_topk_gap"] in n["w7_fig_gates_alt"] and n["w7_switched_off"] in n["w7_fig_gates_alt"]


def test_the_swiglu_gaps_sorted_by_rounding_units():
    """Exactly u, exactly 2u, below u and above 2u: four shares that sum to one."""
    u = w7.UNIT_ROUNDOFF
    gaps = ((u / 2, 0.1), (u, 0.4), (2 * u, 0.3), (4 * u, 0.2))
    assert w7.swiglu_gap_shares(gaps) == (0.4, 0.3, 0.1, 0.2)
    assert w7.swiglu_gap_shares(((u, 1.0),)) == (1.0, 0.0, 0, 0)
    assert sum(w7.swiglu_gap_shares(w7.robustness().swiglu_gaps)) == pytest.approx(1.0)


# --- where its claims' checks must flip (tests/claim_cases.py; tests/test_claim_checks.py runs them) ---

# Just across a threshold, one number changed and the others left at the book's: the claim fails.
FAILS = [
    ("W7.1", dict(lstm_bitwise=False)),
    ("W7.1", dict(moe_bitwise=False)),
    ("W7.1", dict(swiglu_gap=1e-15)),
    ("W7.2", dict(lstm_gap=TINY)),
    ("W7.2", dict(moe_gap=-TINY)),
    ("W7.3", dict(swiglu_gap=0.0)),
    ("W7.3", dict(swiglu_gap=np.nextafter(2.0**-51, 1))),
    ("W7.4", dict(switched_off_text=f"87{NBSP}%")),
    ("W7.4", dict(topk_gap=0.1)),
    ("W7.5", dict(swish_range=(0.0, 3.2))),
    ("W7.5", dict(swish_range=(-0.28, 1.0))),
    ("W7.5", dict(sigmoid_range=(0.0, 0.97))),
    ("W7.5", dict(sigmoid_range=(0.04, 1.0))),
]

# Just inside a threshold: the claim still holds (a check made stricter than the book says fails here).
HOLDS = [
    ("W7.3", dict(swiglu_gap=2.0**-51)),
]
