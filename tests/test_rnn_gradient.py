"""Widget 1: the radius, the gradient and the slopes, checked independently."""

import dataclasses

import numpy as np
import pytest

from chapter09 import rnn_gradient as w1

SETTINGS = [(w1.W_SCALE, w1.INPUT_SCALE), w1.SATURATING, w1.SMALL_INPUT, (0.3, 0.0)]


def states(r, t0, h, T):
    """Run the RNN from state ``h`` at step ``t0`` to ``T`` — an independent forward pass."""
    for t in range(t0 + 1, T + 1):
        h = np.tanh(r.W_hh @ h + r.W_xh @ r.x[t - 1])
    return h


def all_states(r):
    h = [np.zeros(r.d)]
    for t in range(1, r.T + 1):
        h.append(np.tanh(r.W_hh @ h[-1] + r.W_xh @ r.x[t - 1]))
    return np.array(h)


@pytest.mark.parametrize("w_scale, input_scale", SETTINGS)
@pytest.mark.parametrize("seed", [0, 7])
def test_gradient_matches_central_finite_differences(w_scale, input_scale, seed):
    r = w1.simulate(w_scale=w_scale, input_scale=input_scale, seed=seed, T=12)
    a = w1.forward(r.W_hh, r.W_xh, r.x)
    directions, log_norms = w1.backprop(r.W_hh, a, r.u)
    H, eps = all_states(r), 1e-6
    # central differences resolve about 1e-10 of an O(1) loss: check the steps whose gradient
    # stands well above that, and make sure there are several of them
    checked = [t for t in range(r.T + 1) if np.exp(log_norms[r.T - t]) > 1e-5]
    assert len(checked) >= 4
    for t in checked:
        k = r.T - t
        analytic = np.exp(log_norms[k]) * directions[k]
        numeric = np.empty(r.d)
        for i in range(r.d):
            e = np.zeros(r.d)
            e[i] = eps
            numeric[i] = (r.u @ states(r, t, H[t] + e, r.T) - r.u @ states(r, t, H[t] - e, r.T)) / (2 * eps)
        np.testing.assert_allclose(analytic, numeric, rtol=1e-5, atol=1e-9)


def test_log_norms_of_the_readout_are_those_of_the_gradients():
    r = w1.simulate(seed=3)
    a = w1.forward(r.W_hh, r.W_xh, r.x)
    directions, log_norms = w1.backprop(r.W_hh, a, r.u)
    np.testing.assert_allclose(np.linalg.norm(directions, axis=-1), 1.0, rtol=1e-12)
    np.testing.assert_array_equal(log_norms, r.log_grad_norms)
    assert log_norms[0] == 0.0  # ‖u‖ = 1


@pytest.mark.parametrize("seed", range(50))
def test_gelfand_radius_matches_the_eigenvalues(seed):
    A = np.random.default_rng(seed).standard_normal((10, 10)) * (0.1 + seed / 10)
    assert w1.gelfand_radius(A) == pytest.approx(max(abs(np.linalg.eigvals(A))), rel=1e-9)


@pytest.mark.parametrize("A, rho", [
    ([[0.0, -1.0], [1.0, 0.0]], 1.0),               # rotation: a complex pair
    ([[0.5, 1e3], [0.0, 0.5]], 0.5),                # Jordan block, very non-normal
    ([[0.0, 1.0], [0.0, 0.0]], 0.0),                # nilpotent
    ([[0.0]], 0.0),
    ([[3.0, 0.0], [0.0, -3.0]], 3.0),               # two eigenvalues of equal modulus
    ([[1e150, 0.0], [0.0, 1.0]], 1e150),            # no overflow on the way
])
def test_gelfand_radius_on_hard_matrices(A, rho):
    assert w1.gelfand_radius(np.array(A)) == pytest.approx(rho, rel=1e-9, abs=1e-300)


def test_radius_is_homogeneous_as_the_sweep_assumes():
    W0 = w1.draw(seed=4).W0
    for s in (0.05, 0.8, 2.0, 3.7):
        assert w1.gelfand_radius(s * W0) == pytest.approx(s * w1.gelfand_radius(W0), rel=1e-9)


def test_tanh_prime_is_accurate_where_one_minus_tanh_squared_is_not():
    a = np.linspace(-5, 5, 101)
    np.testing.assert_allclose(w1.tanh_prime(a), 1 - np.tanh(a) ** 2, rtol=1e-12, atol=1e-15)
    assert 1 - np.tanh(30.0) ** 2 == 0.0
    assert w1.tanh_prime(np.array(30.0)) == pytest.approx(4 * np.exp(-60.0), rel=1e-12)


def test_long_sequences_neither_overflow_nor_underflow():
    for w_scale, input_scale in ((0.05, 1.0), (10.0, 0.0)):
        r = w1.simulate(T=5000, w_scale=w_scale, input_scale=input_scale, seed=1)
        assert np.all(np.isfinite(r.log_grad_norms))
    assert w1.simulate(T=5000, w_scale=0.05, seed=1).log_grad_norms[-1] < -10_000


def test_slope_is_the_least_squares_slope():
    y = np.random.default_rng(0).standard_normal(41).cumsum()
    assert w1.slope(y) == pytest.approx(np.polyfit(np.arange(41), y, 1)[0], rel=1e-12)


def test_sweep_agrees_with_single_runs():
    sw = w1.sweep(input_scale=0.05, seed=2)
    for i in (0, 15, 39, 79):
        r = w1.simulate(w_scale=sw.scales[i], input_scale=0.05, seed=2)
        assert sw.measured_slope[i] == pytest.approx(r.measured_slope, rel=1e-9, abs=1e-12)
        assert sw.spectral_radius[i] == pytest.approx(r.spectral_radius, rel=1e-9)
        assert sw.mean_tanh_prime[i] == pytest.approx(r.mean_tanh_prime, rel=1e-12)


def test_first_crossing_interpolates_and_reports_none():
    s = np.array([1.0, 2.0, 3.0, 4.0])
    assert w1.first_crossing(s, np.array([-2.0, -1.0, 1.0, -1.0]), 0.0) == 2.5
    assert w1.first_crossing(s, np.array([-2.0, -1.0, -1.0, -1.0]), 0.0) is None
    assert w1.first_crossing(s, np.array([1.0, 2.0, 3.0, 4.0]), 0.0) == 1.0


def test_readout_is_immutable_and_carries_what_it_used():
    r = w1.simulate(seed=5)
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.measured_slope = 0.0
    for a in (r.W_hh, r.W_xh, r.x, r.u, r.log_grad_norms):
        assert a.dtype == np.float64 and not a.flags.writeable
    dr = w1.draw(seed=5)
    np.testing.assert_array_equal(r.W_hh, r.w_scale * dr.W0)
    np.testing.assert_array_equal(r.x, dr.x)


def test_same_seed_same_numbers_and_different_seed_different_numbers():
    a, b, c = w1.simulate(seed=9), w1.simulate(seed=9), w1.simulate(seed=10)
    np.testing.assert_array_equal(a.log_grad_norms, b.log_grad_norms)
    assert a.measured_slope == b.measured_slope != c.measured_slope


def test_page_seed_follows_its_rule():
    seed = w1.page_seed()
    assert all(w1.narrative(seed).values())
    assert not any(all(w1.narrative(s).values()) for s in range(seed))


def test_robustness_counts_at_least_200_seeds_and_matches_a_direct_count():
    rob = w1.robustness()
    assert rob.n_seeds >= 200
    direct = np.mean([w1.simulate(w_scale=w1.SMALL_INPUT[0], input_scale=w1.SMALL_INPUT[1], seed=s).measured_slope > 0 for s in range(rob.n_seeds)])
    assert rob.small_input_explodes == direct


@pytest.mark.parametrize("kwargs, name", [
    ({"d": 0}, "d"), ({"d": -3}, "d"), ({"d": 2.5}, "d"), ({"d": "10"}, "d"), ({"T": 1}, "T"),
    ({"T": True}, "T"), ({"w_scale": -1.0}, "w_scale"), ({"w_scale": 0.0}, "w_scale"),
    ({"w_scale": float("nan")}, "w_scale"), ({"w_scale": 11.0}, "w_scale"),
    ({"input_scale": -0.1}, "input_scale"), ({"input_scale": float("nan")}, "input_scale"),
    ({"input_scale": "1"}, "input_scale"), ({"seed": -1}, "seed"), ({"seed": 1.5}, "seed"),
])
def test_bad_parameters_raise_value_error_naming_them(kwargs, name):
    with pytest.raises(ValueError, match=rf"^{name} must be"):
        w1.simulate(**kwargs)


@pytest.mark.parametrize("A", [np.zeros((2, 3)), np.zeros((0, 0)), np.array([[np.nan]]), np.ones(3)])
def test_gelfand_rejects_what_is_not_a_finite_square_matrix(A):
    with pytest.raises(ValueError, match="^A must"):
        w1.gelfand_radius(A)


def test_a_batch_of_seeds_gives_each_seed_s_own_readout():
    """robustness() runs all seeds as one batch: every network of it is the one simulate() runs."""
    seeds = [0, 7, 31]
    for w_scale, input_scale in ((w1.W_SCALE, w1.INPUT_SCALE), w1.SATURATING, w1.SMALL_INPUT):
        batch = w1.simulate_batch(w1.draws(seeds), w_scale, input_scale)
        for i, seed in enumerate(seeds):
            r = w1.simulate(w_scale=w_scale, input_scale=input_scale, seed=seed)
            assert batch.spectral_radius[i] == pytest.approx(r.spectral_radius, rel=1e-12)
            assert batch.mean_tanh_prime[i] == pytest.approx(r.mean_tanh_prime, rel=1e-12)
            assert batch.measured_slope[i] == pytest.approx(r.measured_slope, rel=1e-12)
            assert batch.relative_error[i] == pytest.approx(r.relative_error, rel=1e-9)


def test_a_batch_of_sweeps_gives_each_seed_s_sweep():
    seeds = [2, 5]
    arrays = w1._sweep_arrays(w1.draws(seeds), 0.05, w1.SWEEP_SCALES)
    for i, seed in enumerate(seeds):
        sw = w1.sweep(0.05, seed)
        np.testing.assert_allclose(arrays["measured_slope"][i], sw.measured_slope, rtol=1e-12)
        np.testing.assert_allclose(arrays["spectral_radius"][i], sw.spectral_radius, rtol=1e-12)
        np.testing.assert_allclose(arrays["mean_tanh_prime"][i], sw.mean_tanh_prime, rtol=1e-12)


def test_gelfand_radius_of_a_stack_is_the_radius_of_each_matrix():
    stack = w1.draws(range(4)).W0 * np.array([0.5, 1.0, 2.0, 0.0])[:, None, None]
    radii = w1.gelfand_radius(stack)
    assert radii.shape == (4,) and radii[3] == 0.0
    for A, rho in zip(stack, radii):
        assert rho == pytest.approx(w1.gelfand_radius(A), rel=1e-12)
