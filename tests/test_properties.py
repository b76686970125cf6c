"""Property-based tests (hypothesis): the formats read back, the bottleneck's arithmetic is exact,
the softmax's rows and the context's hull hold for any scores, and the readouts never hold NaN.

Bad input is refused by name in ``test_bad_input.py``; every public function is fuzzed in ``test_fuzz.py``."""

import math
from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from chapter09 import attention as w4
from chapter09 import bottleneck as w3
from chapter09 import fmt
from chapter09 import lstm_gradient as w2
from chapter09 import rnn_gradient as w1

reals = st.floats(min_value=-1e12, max_value=1e12, allow_nan=False, allow_infinity=False)


def parse(text: str) -> float:
    """Read a Catalan number back (thousands dot, decimal comma, NBSP %)."""
    return float(text.replace("\u00a0%", "").replace(".", "").replace(",", ".").replace(fmt.MINUS, "-"))


@given(reals, st.integers(0, 6))
def test_decimal_reads_back_to_the_rounded_value(x, digits):
    text = fmt.decimal(x, digits)
    assert "-" not in text and (not text.startswith(fmt.MINUS + "0") or parse(text) != 0)
    assert abs(parse(text) - x) <= 0.5 * 10**-digits * (1 + 1e-9) + abs(x) * 1e-15
    assert "." not in text.split(",")[-1] if "," in text else True
    assert text.count(",") == (1 if digits else 0)


@given(st.integers(-(10**15), 10**15))
def test_integer_reads_back(n):
    text = fmt.integer(n)
    assert int(text.replace(".", "").replace(fmt.MINUS, "-")) == n
    assert all(len(group) == 3 for group in text.lstrip(fmt.MINUS).split(".")[1:])


@given(st.floats(min_value=-10, max_value=10, allow_nan=False), st.integers(0, 4))
def test_percent_reads_back(share, digits):
    text = fmt.percent(share, digits)
    assert text.endswith("\u00a0%")
    assert abs(parse(text) - 100 * share) <= 0.5 * 10**-digits * (1 + 1e-9) + 1e-9


@given(st.floats(min_value=1e-300, max_value=1e300), st.booleans())
def test_power_of_ten_mantissa_and_value(x, negative):
    x = -x if negative else x
    text = fmt.power_of_ten(x)
    mantissa, exponent = text.split("·10")
    m = parse(mantissa)
    e = int(exponent.translate(str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")))
    assert 1 <= abs(m) < 10
    assert math.isclose(m * 10.0**e, x, rel_tol=0.006)


@given(st.integers(0, 10**18))
def test_si_bytes_never_reads_more_than_one_prefix_too_far(n):
    text = fmt.si_bytes(n)
    number, unit = text.split("\u00a0")
    assert unit in ("B", "kB", "MB", "GB", "TB", "PB")
    assert 1 <= parse(number) < 1000.05 or n < 1


@given(st.integers(1, 6), st.integers(1, 6), st.integers(2, 40), st.integers(1, 8))
def test_bottleneck_fraction_is_exact_for_small_integers(d, q, V, L):
    b = w3.bottleneck(d, q, V, L)
    assert b.fraction == min(Fraction(1), Fraction(2 ** (d * q), V**L))
    assert b.codes == 2 ** (d * q) and b.sentences == V**L
    assert math.isclose(b.missing_bits, L * math.log2(V) - d * q, abs_tol=1e-9)


@settings(max_examples=200, deadline=None)
@given(
    arrays(np.float64, st.tuples(st.integers(1, 9), st.integers(1, 9)), elements=st.floats(-1e3, 1e3, allow_nan=False)),
    st.floats(min_value=-3, max_value=3),
)
def test_attention_rows_for_any_scores_and_temperature(scores, log_tau):
    alpha = w4.softmax(scores, 10.0**log_tau)
    assert np.all(np.isfinite(alpha)) and np.all(alpha >= 0) and np.all(alpha <= 1)
    # each weight carries a few ulps (exp, and the log of the normaliser): n + 2 ulps of 1 in all
    assert np.all(np.abs(alpha.sum(axis=1) - 1) <= (scores.shape[1] + 2) * 2.0**-52)
    span = w4.effective_span(alpha)
    assert np.all(span >= 1 - 1e-12) and np.all(span <= scores.shape[1] * (1 + 1e-12))


@settings(max_examples=100, deadline=None)
@given(
    arrays(np.float64, st.tuples(st.integers(1, 7), st.integers(1, 5)), elements=st.floats(-100, 100)),
    st.floats(min_value=-3, max_value=3),
)
def test_context_never_leaves_the_hull(states, log_tau):
    n = states.shape[0]
    alpha = w4.softmax(w4.alignment_scores(n), 10.0**log_tau)
    context = alpha @ states
    lo, hi = states.min(axis=0), states.max(axis=0)
    scale = np.maximum(np.abs(lo), np.abs(hi))
    # float64: at most a few ulps outside; the widget's own data measure exactly 0,0
    assert w4.hull_excess(context, states) <= 4 * np.spacing(scale.max() + 1)


@settings(max_examples=40, deadline=None)
@given(st.floats(0.01, 10), st.floats(0, 10), st.integers(0, 50), st.integers(2, 60), st.integers(1, 12))
def test_rnn_readout_never_holds_nan(w_scale, input_scale, seed, T, d):
    r = w1.simulate(d=d, T=T, w_scale=w_scale, input_scale=input_scale, seed=seed)
    assert not np.any(np.isnan(r.log_grad_norms)) and not math.isnan(r.measured_slope)
    assert math.isfinite(r.spectral_radius) and 0 < r.mean_tanh_prime <= 1


@settings(max_examples=30, deadline=None)
@given(st.floats(0.01, 1.0), st.booleans(), st.integers(0, 50), st.floats(0, 3))
def test_lstm_readout_never_holds_nan(forget, pinned, seed, gate_scale):
    r = w2.simulate(forget=forget, pinned=pinned, seed=seed, gate_scale=gate_scale)
    assert np.all(np.isfinite(r.log_cell)) and not np.any(np.isnan(r.log_whole))
    assert math.isfinite(r.cell_path_factor) and not math.isnan(r.whole_factor)
