"""Widgets 5 and 6: the cost model and the memory model, exactly."""

from fractions import Fraction

import pytest

from chapter09 import cost as w5


@pytest.mark.parametrize("d", [1, 7, 64, 1024])
def test_crossings_solved_exactly(d):
    assert w5._crossings(d) == (0, 2 * d)
    assert w5._attention_flops(2 * d, d) == w5._projection_flops(2 * d, d)
    assert w5._crossings(d, "RNN") == (-d, 0)
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
    assert w5._crossings(d, "GRU") == (0, d) and w5._crossings(d, "LSTM") == (0, 2 * d)
    lstm = lambda L: w5.rnn_flops(L, d, "LSTM")  # noqa: E731
    assert w5.transformer_flops(2 * d, d) == lstm(2 * d)
    assert w5.transformer_flops(d, d) == w5.rnn_flops(d, d, "GRU")
    if d > 1:  # below the crossing the Transformer layer costs less, above it more
        assert w5.transformer_flops(2 * d - 1, d) < lstm(2 * d - 1)
        assert w5.transformer_flops(d - 1, d) < w5.rnn_flops(d - 1, d, "GRU")
    assert w5.transformer_flops(2 * d + 1, d) > lstm(2 * d + 1)


def test_page_values_for_lstm_gru_and_kaplan():
    assert w5.ratio(2048, 1024, "LSTM") == 1 and w5.ratio(2048, 1024, "GRU") == Fraction(4, 3)
    assert w5._kaplan_ratio(2048, 1024) == 3  # the author's "tres vegades"
    assert w5._kaplan_ratio(5, 3) == 2 + Fraction(5, 6)  # 2 + L/(2d)


def test_generation_step_by_step():
    d = 1024
    assert w5._decode_step_flops(2048, d) == 4 * w5.rnn_flops(1, d)
    assert w5._decode_step_flops(131_072, d) == 130 * w5.rnn_flops(1, d)
    assert w5._generation_flops(7, 5) == sum(w5._decode_step_flops(t, 5) for t in range(1, 8))
    assert w5._generation_flops(2048, d) == 25_773_998_080 < w5.transformer_flops(2048, d)


def test_published_13b_and_grouped_queries():
    cfg = w5.PUBLISHED_13B
    assert w5.kv_cache_bytes(1, **cfg) == 819_200 == 800 * 1024  # Kwon et al. 2023: 800 KB per token
    assert w5.kv_cache_bytes(2048, **cfg) == 1_677_721_600
    assert w5.kv_cache_bytes(1, kv_groups=8, **cfg) == 102_400
    assert w5.kv_cache_bytes(1, kv_groups=w5.PUBLISHED_13B_HEADS, **cfg) == 20_480
    assert w5.recurrent_state_bytes() == w5.kv_cache_bytes(L=1)  # one token of cache = the LSTM state
    assert w5.recurrent_state_bytes(vectors=1) == 65_536


def test_page_readout_exercise_answers():
    from chapter09.pages import cost as page

    n = page.readout().numbers
    nb = "\u00a0"
    assert (n["w5_equal_gru"], n["w5_equal_lstm"], n["w5_ratio_lstm"], n["w5_ratio_gru"]) == (
        "1.024",
        "2.048",
        "1,00",
        "1,33",
    )
    assert n["w5_ratio_kaplan"] == "3,00" and n["w5_decode_ratio"] == "4,00"
    assert n["w5_decode_ratio_long"] == "130" and n["w6_tokens_for_state"] == "1"
    assert (n["w6_13b_token_exact"], n["w6_13b_token_kib"]) == ("819.200", "800" + nb + "KiB")
    assert (n["w6_13b_context_exact"], n["w6_13b_context_si"], n["w6_13b_context_gib"]) == (
        "1.677.721.600",
        "1,68" + nb + "GB",
        "1,56" + nb + "GiB",
    )
    assert (n["w6_13b_gqa_exact"], n["w6_13b_gqa_kib"]) == ("102.400", "100" + nb + "KiB")
    assert (n["w6_13b_mqa_exact"], n["w6_13b_mqa_kib"]) == ("20.480", "20" + nb + "KiB")
    assert n["w6_kv_long_gib"] == "16" + nb + "GiB" and n["w6_state_h"] == "65,5" + nb + "kB"


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: w5.rnn_flops(10, 10, "transformer"), "cell"),
        (lambda: w5.ratio(10, 10, "GRU "), "cell"),
        (lambda: w5.kv_cache_bytes(kv_groups=0), "kv_groups"),
        (lambda: w5.kv_cache_bytes(kv_groups=3), "kv_groups"),  # 3 does not divide d = 1.024
    ],
)
def test_new_parameters_raise_value_error_naming_them(call, name):
    with pytest.raises(ValueError, match=rf"^{name} must be"):
        call()
