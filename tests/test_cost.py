"""Widgets 5 and 6: the cost model and the memory model, exactly."""

import math
from fractions import Fraction

import pytest
from claim_cases import NBSP

from chapter09 import cost as w5
from chapter09 import fmt


@pytest.mark.parametrize("d", [1, 7, 64, 1024])
def test_crossings_solved_exactly(d):
    assert w5.crossings(d) == (0, 2 * d)
    assert w5.attention_product_flops(2 * d, d) == w5.projection_product_flops(2 * d, d)
    assert w5.crossings(d, "RNN") == (-d, 0)
    for L in (1, d, 10 * d):  # no positive length where the RNN costs as much
        assert w5.transformer_flops(L, d) > w5.rnn_flops(L, d)


@pytest.mark.parametrize("L, d", [(2048, 1024), (1024, 1024), (5, 3), (131072, 1024)])
def test_ratio_is_two_plus_l_over_d(L, d):
    assert w5.ratio(L, d) == 2 + Fraction(L, d)


def test_text_values():
    assert w5.ratio(2048, 1024) == 4 and w5.ratio(1024, 1024) == 3
    assert w5.recurrent_state_bytes() == 131_072
    assert w5.kv_cache_bytes() == 268_435_456
    assert w5.kv_cache_bytes(L=131_072) == 17_179_869_184
    # the same figures in fp16 with twice the layers
    assert w5.kv_cache_bytes(layers=32, bytes_per_number=2) == w5.kv_cache_bytes()
    assert w5.recurrent_state_bytes(layers=32, bytes_per_number=2) == w5.recurrent_state_bytes()


@pytest.mark.parametrize("d", [1, 5, 700, 1000, 1024])
def test_sweep_finds_the_crossing_without_the_point_on_the_grid(d):
    lengths, crossing = w5.sweep(d)
    assert lengths[0] < 2 * d < lengths[-1] and lengths.flags.writeable is False
    assert 2 * d == pytest.approx(crossing, rel=1e-12)  # the log-ratio is linear in ln L


def test_solve_quadratic():
    assert w5.solve_quadratic(1, 0, -4) == (-2, 2)
    assert w5.solve_quadratic(2, -1, 0) == (0, Fraction(1, 2))
    assert w5.solve_quadratic(1, 0, 1) == ()
    with pytest.raises(ValueError):
        w5.solve_quadratic(1, 0, -2)


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: w5.ratio(0, 10), "L"),
        (lambda: w5.ratio(10, -1), "d"),
        (lambda: w5.ratio(2.5, 10), "L"),
        (lambda: w5.kv_cache_bytes(layers=0), "layers"),
        (lambda: w5.recurrent_state_bytes(bytes_per_number=0), "bytes_per_number"),
    ],
)
def test_bad_parameters_raise_value_error_naming_them(call, name):
    with pytest.raises(ValueError, match=rf"^{name} must be"):
        call()


@pytest.mark.parametrize("d", [1, 4, 64, 1024])
def test_recurrent_layers_and_where_the_transformer_stops_costing_more(d):
    for L in (1, 3, d, 2 * d, 5 * d):
        assert w5.rnn_flops(L, d) == w5.rnn_flops(L, d, "RNN") == 4 * L * d * d
        assert w5.rnn_flops(L, d, "GRU") == 12 * L * d * d and w5.rnn_flops(L, d, "LSTM") == 16 * L * d * d
    assert w5.crossings(d, "GRU") == (0, d) and w5.crossings(d, "LSTM") == (0, 2 * d)
    lstm = lambda L: w5.rnn_flops(L, d, "LSTM")  # noqa: E731
    assert w5.transformer_flops(2 * d, d) == lstm(2 * d)
    assert w5.transformer_flops(d, d) == w5.rnn_flops(d, d, "GRU")
    if d > 1:  # below the crossing the Transformer layer costs less, above it more
        assert w5.transformer_flops(2 * d - 1, d) < lstm(2 * d - 1)
        assert w5.transformer_flops(d - 1, d) < w5.rnn_flops(d - 1, d, "GRU")
    assert w5.transformer_flops(2 * d + 1, d) > lstm(2 * d + 1)


def test_page_values_for_lstm_gru_and_kaplan():
    assert w5.ratio(2048, 1024, "LSTM") == 1 and w5.ratio(2048, 1024, "GRU") == Fraction(4, 3)
    assert w5.kaplan_ratio(2048, 1024) == 3  # the author's "tres vegades"
    assert w5.kaplan_ratio(5, 3) == 2 + Fraction(5, 6)  # 2 + L/(2d)


def test_generation_step_by_step():
    d = 1024
    assert w5.decode_step_flops(2048, d) == 4 * w5.rnn_flops(1, d)
    assert w5.decode_step_flops(131_072, d) == 130 * w5.rnn_flops(1, d)
    assert w5.generation_flops(7, 5) == sum(w5.decode_step_flops(t, 5) for t in range(1, 8))
    assert w5.generation_flops(2048, d) == 25_773_998_080 < w5.transformer_flops(2048, d)


def test_published_13b_and_grouped_queries():
    cfg, heads = w5.PUBLISHED_13B, w5.PUBLISHED_13B_HEADS
    assert w5.kv_cache_bytes(1, **cfg) == 819_200 == 800 * 1024  # Kwon et al. 2023: 800 KB per token
    assert w5.kv_cache_bytes(2048, **cfg) == 1_677_721_600
    # Ainslie et al.'s GQA-G: G groups; GQA-H is multi-head attention, GQA-1 multi-query attention
    assert w5.kv_cache_bytes(1, heads=heads, kv_groups=heads, **cfg) == w5.kv_cache_bytes(1, heads=heads, **cfg)
    assert w5.kv_cache_bytes(1, heads=heads, **cfg) == w5.kv_cache_bytes(1, **cfg)
    assert w5.kv_cache_bytes(1, heads=heads, kv_groups=8, **cfg) == 163_840 == 819_200 * 8 // 40
    assert w5.kv_cache_bytes(1, heads=heads, kv_groups=1, **cfg) == 20_480
    for G in (1, 2, 4, 5, 8, 10, 20, 40):  # the cache grows with the number of groups, never with heads alone
        one_group = w5.kv_cache_bytes(1, heads=heads, kv_groups=1, **cfg)
        assert w5.kv_cache_bytes(1, heads=heads, kv_groups=G, **cfg) == G * one_group
    assert w5.recurrent_state_bytes() == w5.kv_cache_bytes(L=1)  # one token of cache = the LSTM state
    assert w5.recurrent_state_bytes(vectors=1) == 65_536


def test_page_readout_exercise_answers():
    from chapter09.pages import cost as page

    n = page.readout().numbers
    nb = "\u00a0"
    assert (n["w5_equal_gru"], n["w5_equal_lstm"], n["w5_ratio_lstm"], n["w5_ratio_gru"]) == (
        "1.024",
        "2.048",
        "1",
        "1,33",
    )
    assert n["w5_ratio_kaplan"] == "3" and n["w5_decode_ratio"] == "4"  # exact ratios, no spurious decimals
    assert (n["w5_ratio_long"], n["w5_ratio_lstm_long"]) == ("130", "32,5")
    assert n["w5_decode_ratio_long"] == "130" and n["w6_tokens_for_state"] == "1"
    assert (n["w6_13b_token_exact"], n["w6_13b_token_kib"]) == ("819.200", "800" + nb + "KiB")
    assert (n["w6_13b_context_exact"], n["w6_13b_context_si"], n["w6_13b_context_gib"]) == (
        "1.677.721.600",
        "1,68" + nb + "GB",
        "1,56" + nb + "GiB",
    )
    assert (n["w6_13b_gqa_exact"], n["w6_13b_gqa_kib"]) == ("163.840", "160" + nb + "KiB")
    assert (n["w6_gqa_groups"], n["w6_gqa_heads_per_group"]) == ("8", "5")
    assert (n["w6_13b_mqa_exact"], n["w6_13b_mqa_kib"]) == ("20.480", "20" + nb + "KiB")
    assert n["w6_kv_long_gib"] == "16" + nb + "GiB" and n["w6_state_h"] == "65,5" + nb + "kB"


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: w5.rnn_flops(10, 10, "transformer"), "cell"),
        (lambda: w5.ratio(10, 10, "GRU "), "cell"),
        (lambda: w5.kv_cache_bytes(kv_groups=0), "kv_groups"),
        (lambda: w5.kv_cache_bytes(kv_groups=3), "kv_groups"),  # 3 > heads = 1
        (lambda: w5.kv_cache_bytes(heads=3), "heads"),  # 3 does not divide d = 1.024
        (lambda: w5.kv_cache_bytes(heads=16, kv_groups=3), "kv_groups"),  # 3 does not divide 16 heads
        (lambda: w5.kv_cache_bytes(heads=16, kv_groups=32), "kv_groups"),  # more groups than heads
        (lambda: w5.recurrent_state_bytes(vectors=0), "vectors"),
    ],
)
def test_new_parameters_raise_value_error_naming_them(call, name):
    with pytest.raises(ValueError, match=rf"^{name} must be"):
        call()


def test_the_cost_sweep_reaches_the_longest_context_of_the_page():
    """Fig. «cost» runs to 131.072 tokens, the length the text and the table use."""
    from chapter09.pages import cost as page

    lengths, _ = w5.sweep(w5.D)
    assert lengths[-1] == w5.SWEEP_SPAN * w5.D == page.L_LONG
    n = page.readout().numbers
    assert f"a {n['w6_L_long']} tokens" in n["w5_fig_cost_alt"]


@pytest.mark.parametrize("L", [1, 2, 3, 5, 8, 9, 100, 2048])
def test_a_linear_recurrence_runs_in_log_steps(L):
    """h_t = a_t·h_{t-1} + b_t by the parallel scan: the serial loop's states, in ⌈log₂ L⌉ rounds."""
    import numpy as np

    rng = np.random.default_rng(L)
    a, b = rng.uniform(-1, 1, L), rng.standard_normal(L)
    h, rounds = w5.linear_scan(a, b)
    state, serial = 0.0, []
    for t in range(L):
        state = a[t] * state + b[t]
        serial.append(state)
    assert np.allclose(h, serial, rtol=1e-12, atol=1e-12)
    assert rounds == w5.sequential_steps(L, "linear") == (0 if L == 1 else math.ceil(math.log2(L)))
    assert w5.sequential_steps(L, "recurrent") == L and w5.sequential_steps(L, "attention") == 1
    assert w5.path_length(L, "recurrent") == L - 1 and w5.path_length(L, "attention") == 1


@pytest.mark.parametrize("cell", ["RNN", "GRU", "LSTM"])
def test_half_of_a_recurrent_layer_is_on_the_inputs(cell):
    """W x_t for every gate: one product for all steps, half of the layer's FLOP."""
    assert 2 * w5.input_flops(2048, 1024, cell) == w5.rnn_flops(2048, 1024, cell)
    assert w5.input_flops(7, 3, cell) == 2 * (w5.RECURRENT_PRODUCTS[cell] // 2) * 7 * 9


def test_vaswani_count_without_projections_crosses_at_l_equal_d():
    """Vaswani et al.: self-attention (n²·d) is cheaper than a recurrent layer (n·d²) when n < d."""
    from chapter09.pages import cost as page

    d = 1024
    assert w5.attention_alone_below_rnn(d) == d
    assert w5.attention_product_flops(d - 1, d) < w5.rnn_flops(d - 1, d)
    assert w5.attention_product_flops(d + 1, d) > w5.rnn_flops(d + 1, d)
    header, rows = page.readout().table("vaswani")
    assert len(header) == 5 and [r[3] for r in rows] == ["1", "2.048"] and [r[4] for r in rows] == ["1", "2.047"]


@pytest.mark.parametrize("d", [1, 2, 64, 1024])
def test_the_crossings_the_page_names(d):
    """The positive roots: 2d for the two terms and the LSTM, d for the GRU and attention alone, 6d with the
    feed-forward block, none for the simple RNN."""
    assert w5.positive_crossing(d) == w5.positive_crossing(d, "LSTM") == 2 * d
    assert w5.positive_crossing(d, "GRU") == w5.attention_alone_below_rnn(d) == d
    assert w5.positive_crossing(d, "RNN") is None
    assert w5.ffn_crossing(d) == 6 * d
    L = w5.ffn_crossing(d)  # with 16Ld² more in the projections' term, the two terms meet at 6d
    assert w5.attention_product_flops(L, d) == w5.projection_product_flops(L, d) + 16 * L * d * d
    assert w5.sweep_gap(d) == abs(w5.sweep(d)[1] - 2 * d) / (2 * d) < 1e-12


def test_generating_and_memory_ratios():
    d = 1024
    assert w5.decode_ratio(2048, d) == w5.ratio(2048, d) == 4 and w5.decode_ratio(131_072, d) == 130
    assert w5.decode_ratio(5, 3) == 2 + Fraction(5, 3)
    assert w5.input_share(2048, d) == 0.5
    assert w5.cache_tokens(w5.recurrent_state_bytes(d), d) == 1
    assert w5.cache_tokens(w5.recurrent_state_bytes(d, vectors=d), d) == d // 2
    with pytest.raises(ValueError, match=r"^n_bytes must"):
        w5.cache_tokens(w5.kv_cache_bytes(1, d) + 1, d)
    assert w5.kv_over_state(131_072, d) == 131_072 and w5.kv_over_state(2048, d) == 2048
    assert w5.kv_cache_growth([1, 2, 2048], d) == [w5.kv_cache_bytes(L, d) for L in (1, 2, 2048)]
    assert w5.H100_FP32_CORES == 16_896


def _number(text: str) -> float:
    """A printed Catalan number back to a float: 1.677.721.600, 4,29·10⁹, 50 %, 67,1 MB."""
    units = {"B": 1, "kB": 10**3, "MB": 10**6, "GB": 10**9, "KiB": 2**10, "GiB": 2**30, "%": 0.01}
    text = text.replace("\u2212", "-")
    scale = 1.0
    parts = text.split("\u00a0")
    if len(parts) == 2:
        text, scale = parts[0], units[parts[1]]
    if "·10" in text:
        mantissa, exponent = text.split("·10")
        digits = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")
        return float(mantissa.replace(",", ".")) * 10 ** int(exponent.translate(digits)) * scale
    return float(text.replace(".", "").replace(",", ".")) * scale


def _agree(per_step: str, steps: str, total: str) -> bool:
    """Whether a printed total is the printed per-step value times the printed steps, within the precision
    printed: half a unit of the last digit of each of the three."""
    a, n, t = _number(per_step), _number(steps), _number(total)

    def ulp(text):
        if "·10" not in text and "\u00a0" not in text and "," not in text:
            return 0.0  # a whole number printed in full is exact
        mantissa = text.split("·10")[0].split("\u00a0")[0]
        decimals = len(mantissa.split(",")[1]) if "," in mantissa else 0
        return 0.5 * 10**-decimals * (_number(text) / float(mantissa.replace(".", "").replace(",", ".") or 1))

    return abs(a * n - t) <= ulp(per_step) * n + a * ulp(steps) + ulp(total)


def test_printed_per_token_values_times_tokens_are_the_printed_totals():
    """Every (per step, steps, total) the page prints recomputes from the printed strings."""
    from chapter09.pages import cost as page

    n = page.readout().numbers
    per_token_here = str(w5.kv_cache_bytes(1, w5.D))  # one token of cache, in bytes: the LSTM state
    assert n["w6_tokens_for_state"] == "1" and n["w6_state_exact"] == fmt.integer(int(per_token_here))
    triples = [
        (n["w6_13b_token_exact"], n["w6_13b_context"], n["w6_13b_context_exact"]),
        (n["w6_state_exact"], n["w5_L"], n["w6_kv_exact"]),  # one token of cache is the LSTM's state
        (n["w6_state_exact"], n["w6_L_long"], n["w6_kv_long_exact"]),
        (n["w6_state_exact"], n["w6_kv_over_state"], n["w6_kv_long_exact"]),
        (n["w6_state_exact"], n["w6_matrix_state_tokens"], n["w6_matrix_state"]),
        (n["w6_state_h"], "2", n["w6_state"]),
        (n["w5_rnn"], n["w5_rnn_input_share"], n["w5_rnn_input"]),
        (n["w5_rnn"], n["w5_ratio"], n["w5_transformer"]),
        (n["w5_rnn_long"], n["w5_ratio_long"], n["w5_transformer_long"]),
    ]
    for triple in triples:
        assert _agree(*triple), triple
    assert not _agree(n["w6_13b_token_exact"], n["w6_13b_context"], "1.677.721.601")  # the check can fail
    assert not _agree(n["w5_rnn"], "4,10", n["w5_transformer"])
    assert int(n["w5_scan_rounds"]) == math.ceil(math.log2(_number(n["w5_L"])))


def test_the_corrections_quote_their_sources():
    """W5.3 and W5.5 change the author's words against Vaswani et al. and Martin and Cundy: quoted."""
    from chapter09.pages import cost as page

    w = page.readout()
    reasons = " ".join(c.reason for c in w.corrections)
    assert "«self-attention layers are faster than recurrent layers when the sequence length n is smaller" in reasons
    assert "«their non-linear dependencies between sequence elements prevent parallelizing training" in reasons


# --- where its claims' checks must flip (tests/claim_cases.py; tests/test_claim_checks.py runs them) ---

# Just across a threshold, one number changed and the others left at the book's: the claim fails.
FAILS = [
    ("W5.1", dict(projection_flops=2**34 + 1)),
    ("W5.1", dict(attention_flops=2**34 - 1)),
    ("W5.2", dict(algebra=2047)),
    ("W5.2", dict(sweep=2048 + 2e-6 * 1024)),
    ("W5.2", dict(sweep=2048 - 2e-6 * 1024)),
    ("W5.3", dict(roots=(-1023, 0))),
    ("W5.3", dict(equal_cost_length=2048)),
    ("W5.4", dict(ratio=Fraction(5))),
    ("W5.4", dict(ratio_text="4,0")),
    ("W5.5", dict(ratio=Fraction(5))),
    ("W5.5", dict(ratio=Fraction(9, 2))),
    ("W5.5", dict(ratio=Fraction(3))),
    ("W5.5", dict(ratio_kaplan=Fraction(4))),
    ("W6.1", dict(state_text="131,1 kB")),
    ("W6.1", dict(state_text=f"131,2{NBSP}kB")),
    ("W6.2", dict(kv_text="268,4MB")),
    ("W6.2", dict(kv_text=f"268,5{NBSP}MB")),
    ("W6.3", dict(kv_bytes=2**34 - 1)),
    ("W6.3", dict(kv_bytes=2**34 + 1)),
]

# Just inside a threshold: the claim still holds (a check made stricter than the book says fails here).
HOLDS = [
    ("W5.2", dict(sweep=2048 + 0.5e-6 * 1024)),
]
