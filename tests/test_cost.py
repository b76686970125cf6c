"""Widgets 5 and 6: the cost model and the memory model, exactly."""

from fractions import Fraction

import pytest

from chapter09 import cost as w5


@pytest.mark.parametrize("d", [1, 7, 64, 1024])
def test_crossings_solved_exactly(d):
    assert w5.component_crossing(d) == 2 * d
    assert w5.attention_flops(2 * d, d) == w5.projection_flops(2 * d, d)
    assert w5.total_crossings(d) == (-d, 0)
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


def test_sweep_finds_the_crossing_without_the_point_on_the_grid():
    import numpy as np

    sw = w5.sweep(1000, lengths=np.array([100, 1500, 2500, 9000]))
    assert 2000 == pytest.approx(sw.crossing, rel=1e-12)  # the log-ratio is linear in ln L


def test_solve_quadratic():
    assert w5.solve_quadratic(1, 0, -4) == (-2, 2)
    assert w5.solve_quadratic(2, -1, 0) == (0, Fraction(1, 2))
    assert w5.solve_quadratic(1, 0, 1) == ()
    with pytest.raises(ValueError):
        w5.solve_quadratic(1, 0, -2)


@pytest.mark.parametrize("call, name", [
    (lambda: w5.ratio(0, 10), "L"), (lambda: w5.ratio(10, -1), "d"), (lambda: w5.ratio(2.5, 10), "L"),
    (lambda: w5.kv_cache_bytes(layers=0), "layers"), (lambda: w5.recurrent_state_bytes(bytes_per_number=0),
                                                       "bytes_per_number"),
    (lambda: w5.component_crossing(float("nan")), "d"),
])
def test_bad_parameters_raise_value_error_naming_them(call, name):
    with pytest.raises(ValueError, match=rf"^{name} must be"):
        call()
