"""Widget 4: a stable softmax, the convex hull, the effective span."""

import numpy as np
import pytest

from chapter09 import attention as w4

TAUS = np.logspace(-3, 3, 25)


@pytest.mark.parametrize("tau", TAUS)
def test_softmax_is_finite_normalised_and_non_negative_over_the_whole_range(tau):
    scores = np.random.default_rng(1).standard_normal((9, 9)) * 50
    alpha = w4.softmax(scores, tau)
    assert np.all(np.isfinite(alpha)) and np.all(alpha >= 0)
    # rounding of n terms: a few ulps at most (the widget's own rows measure ≤ 2⁻⁵²)
    assert np.all(np.abs(alpha.sum(axis=1) - 1) <= scores.shape[1] * 2.0**-53)


def test_softmax_matches_the_naive_formula_where_that_is_safe():
    scores = np.random.default_rng(2).standard_normal((5, 7))
    naive = np.exp(scores / 2) / np.exp(scores / 2).sum(axis=1, keepdims=True)
    np.testing.assert_allclose(w4.softmax(scores, 2.0), naive, rtol=1e-14)


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("tau", [1e-3, 0.05, 1.0, 4.0, 1e3])
def test_context_stays_inside_the_hull(seed, tau):
    a = w4.attend(temperature=tau, seed=seed)
    assert a.hull_excess == 0.0
    assert np.all(a.context <= a.states.max(axis=0)) and np.all(a.context >= a.states.min(axis=0))


def test_span_limits():
    one_hot, uniform = np.eye(4), np.full((4, 4), 0.25)
    np.testing.assert_allclose(w4.effective_span(one_hot), 1.0)
    np.testing.assert_allclose(w4.effective_span(uniform), 4.0)
    np.testing.assert_allclose(w4.participation(uniform), 4.0)
    assert w4.attend(temperature=1e-3).span.max() == pytest.approx(1.0, abs=1e-12)
    assert w4.attend(temperature=1e3).span.min() == pytest.approx(7.0, abs=1e-4)


def test_span_grows_with_temperature_towards_n():
    taus, spans = w4.span_curve()
    assert np.all(np.diff(spans) >= -1e-12) and spans[0] >= 1.0 and spans[-1] <= 7.0


def test_text_temperatures():
    cold, warm = w4.attend(temperature=w4.COLD), w4.attend(temperature=w4.WARM)
    assert round(cold.span.mean()) == 1 and round(warm.span.mean()) == 7
    assert cold.copy_gap < 0.01 * cold.state_spacing < warm.copy_gap


def test_readout_is_immutable():
    a = w4.attend()
    assert not a.alpha.flags.writeable and not a.context.flags.writeable


@pytest.mark.parametrize("kwargs, name", [
    ({"temperature": 0.0}, "temperature"), ({"temperature": 1e-4}, "temperature"),
    ({"temperature": 1e4}, "temperature"), ({"temperature": float("nan")}, "temperature"),
    ({"n": 0}, "n"), ({"d": -1}, "d"), ({"seed": 0.5}, "seed"), ({"slope": 0.0}, "slope"),
])
def test_bad_parameters_raise_value_error_naming_them(kwargs, name):
    with pytest.raises(ValueError, match=rf"^{name} must be"):
        w4.attend(**kwargs)
