"""Widget 1: the gradient and the slopes, checked independently (the radius: ``test_spectral.py``; the page:
``test_rnn_gradient_page.py``)."""

import dataclasses

import numpy as np
import pytest
from claim_cases import Book

from chapter09 import rnn_gradient as w1
from chapter09.rnn_gradient_seeds import at_radius, explosions, robustness

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
    directions, log_norms = w1.backprop(r.W_hh, w1.tanh_prime(a), r.u)
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
    np.testing.assert_allclose(np.tanh(a), all_states(r)[1:], rtol=1e-13)  # forward against the plain recursion
    directions, log_norms = w1.backprop(r.W_hh, w1.tanh_prime(a), r.u)
    np.testing.assert_allclose(np.linalg.norm(directions, axis=-1), 1.0, rtol=1e-12)
    np.testing.assert_array_equal(log_norms, r.log_grad_norms)
    assert log_norms[0] == 0.0  # ‖u‖ = 1


def test_tanh_prime_is_accurate_where_one_minus_tanh_squared_is_not():
    a = np.linspace(-5, 5, 101)
    np.testing.assert_allclose(w1.tanh_prime(a), 1 - np.tanh(a) ** 2, rtol=1e-12, atol=1e-15)
    assert 1 - np.tanh(30.0) ** 2 == 0.0
    assert w1.tanh_prime(np.array(30.0)) == pytest.approx(4 * np.exp(-60.0), rel=1e-12)


def test_a_gradient_that_vanishes_exactly_is_minus_infinity_not_nan():
    a = np.full((3, 2), 1e4)  # tanh′ underflows to exactly 0
    directions, log_norms = w1.backprop(np.eye(2), w1.tanh_prime(a), np.array([1.0, 0.0]))
    assert log_norms[0] == 0 and np.all(np.isneginf(log_norms[1:])) and np.all(directions[1:] == 0)
    assert w1.slope(log_norms) == -np.inf


def test_long_sequences_neither_overflow_nor_underflow():
    for w_scale, input_scale in ((0.05, 1.0), (10.0, 0.0)):
        r = w1.simulate(T=5000, w_scale=w_scale, input_scale=input_scale, seed=1)
        assert np.all(np.isfinite(r.log_grad_norms))
    assert w1.simulate(T=5000, w_scale=0.05, seed=1).log_grad_norms[-1] < -10_000


def test_slope_is_the_least_squares_slope():
    y = np.random.default_rng(0).standard_normal(41).cumsum()
    assert w1.slope(y) == pytest.approx(np.polyfit(np.arange(41), y, 1)[0], rel=1e-12)


def test_sweep_agrees_with_single_runs():
    sw = w1.sweep(input_scale=0.05, seeds=(2,))
    assert sw.measured_slope.shape == (1, len(w1.SWEEP_SCALES))
    for i in (0, 15, 39, 79):
        r = w1.simulate(w_scale=w1.SWEEP_SCALES[i], input_scale=0.05, seed=2)
        assert sw.measured_slope[0, i] == pytest.approx(r.measured_slope, rel=1e-12, abs=1e-14)
        assert sw.spectral_radius[0, i] == pytest.approx(r.spectral_radius, rel=1e-12)
        assert sw.mean_tanh_prime[0, i] == pytest.approx(r.mean_tanh_prime, rel=1e-12)
        np.testing.assert_allclose(sw.log_grad_norms[0, i], r.log_grad_norms, rtol=1e-12, atol=1e-12)


def synthetic_sweep(radii, slopes):
    """A sweep of one seed with the given radii and measured slopes (the rest of a real one)."""
    sw = w1.sweep(1.0, (0,), scales=tuple(np.arange(1.0, len(slopes) + 1)))
    return dataclasses.replace(sw, spectral_radius=np.array([radii]), measured_slope=np.array([slopes]))


def test_explosions_interpolate_where_the_slope_passes_the_threshold_and_falls_back():
    radii, th = 0.5 * np.arange(1.0, 7.0), w1.threshold(w1.T)
    cases = [
        ([-2.0, -1.0, 1.0, 1.0, -1.0, 1.0], 1.0 + 0.5 * (1 + th) / 2, 2.0 + 0.5 * (1 - th) / 2),
        ([-1.0, th + 1.0, th + 1.0, th - 1.0, 1.0, -1.0], 0.5 + 0.5 * (1 + th) / (1 + th + 1), 1.5 + 0.5 * 0.5),
        ([1.0, 2.0, 3.0, 4.0, -4.0, -4.0], 0.5, 2.0 + 0.5 * (4 - th) / 8),  # explodes from the start: the first radius
        ([-1.0, -1.0, 1.0, 1.0, 1.0, 1.0], 1.0 + 0.5 * (1 + th) / 2, np.nan),  # never stops
        ([-1.0] * 6, np.nan, np.nan),  # never explodes
        ([-1.0, 0.0, th / 2, 0.9 * th, 0.0, -1.0], np.nan, np.nan),  # "es manté" is no explosion, however positive
    ]
    for slopes, start, stop in cases:
        (f,), (b,) = explosions(synthetic_sweep(radii, slopes))
        np.testing.assert_allclose([f, b], [start, stop], rtol=1e-12)
    with pytest.raises(ValueError, match="^sw must be a sweep"):
        explosions(w1.simulate())


def test_readout_is_immutable_and_carries_what_it_used():
    r = w1.simulate(seed=5)
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.measured_slope = 0.0
    for a in (r.draw.W0, r.draw.U0, r.x, r.u, r.log_grad_norms):
        assert a.dtype == np.float64 and not a.flags.writeable
    dr = w1.draw(seed=5)
    np.testing.assert_array_equal(r.W_hh, r.w_scale * dr.W0)
    np.testing.assert_array_equal(r.W_xh, r.input_scale * dr.U0)
    np.testing.assert_array_equal(r.x, dr.x)
    assert (r.d, r.T) == (w1.D, w1.T) and isinstance(r.measured_slope, float)


def test_same_seed_same_numbers_and_different_seed_different_numbers():
    a, b, c = w1.simulate(seed=9), w1.simulate(seed=9), w1.simulate(seed=10)
    np.testing.assert_array_equal(a.log_grad_norms, b.log_grad_norms)
    assert a.measured_slope == b.measured_slope != c.measured_slope


def test_the_page_s_network_is_the_first_seed_not_a_searched_one():
    assert w1.page_seed() == w1.SEED == 0
    rob = robustness()  # the statements hold for most networks, not only for the page's
    assert min(rob.default_vanishes, rob.saturation_vanishes, rob.small_input_explained, rob.narrative) > 0.5
    assert rob.author_small_input_explodes < 0.5 < rob.small_input_explodes  # why the input is lowered


def test_robustness_counts_at_least_200_seeds_and_matches_a_direct_count():
    rob = robustness()
    assert rob.n_seeds >= 200
    runs = [w1.simulate(w_scale=w1.SMALL_INPUT[0], input_scale=w1.SMALL_INPUT[1], seed=s) for s in range(rob.n_seeds)]
    threshold = np.log(w1.EXPLODE_FACTOR) / w1.T
    assert rob.small_input_explodes == np.mean([r.measured_slope > threshold for r in runs])
    assert rob.small_input_explained == np.mean([r.measured_slope > threshold and r.product > 1 for r in runs])
    assert rob.verdict_missed["small_input"] == np.mean(
        [w1.verdict(r.predicted_slope) != w1.verdict(r.measured_slope) for r in runs]
    )


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"d": 0}, "d"),
        ({"d": -3}, "d"),
        ({"d": 2.5}, "d"),
        ({"d": "10"}, "d"),
        ({"T": 1}, "T"),
        ({"T": True}, "T"),
        ({"w_scale": -1.0}, "w_scale"),
        ({"w_scale": 0.0}, "w_scale"),
        ({"w_scale": float("nan")}, "w_scale"),
        ({"w_scale": 11.0}, "w_scale"),
        ({"input_scale": -0.1}, "input_scale"),
        ({"input_scale": float("nan")}, "input_scale"),
        ({"input_scale": "1"}, "input_scale"),
        ({"seed": -1}, "seed"),
        ({"seed": 1.5}, "seed"),
    ],
)
def test_bad_parameters_raise_value_error_naming_them(kwargs, name):
    with pytest.raises(ValueError, match=rf"^{name} must be"):
        w1.simulate(**kwargs)


def test_a_batch_of_seeds_gives_each_seed_s_own_readout():
    """robustness() runs all seeds as one batch: every network of it is the one simulate() runs."""
    seeds = (0, 7, 31)
    for w_scale, input_scale in w1.SETTINGS.values():
        batch = w1.sweep(input_scale, seeds, (w_scale,))
        for i, seed in enumerate(seeds):
            r = w1.simulate(w_scale=w_scale, input_scale=input_scale, seed=seed)
            for name in ("spectral_radius", "spectral_norm", "mean_tanh_prime", "max_tanh_prime", "measured_slope"):
                assert getattr(batch, name)[i, 0] == pytest.approx(getattr(r, name), rel=1e-12), name
            assert batch.relative_error[i, 0] == pytest.approx(r.relative_error, rel=1e-9)
            assert batch.bound_holds[i, 0] == r.bound_holds and batch.explodes[i, 0] == r.explodes


def test_a_batch_of_sweeps_gives_each_seed_s_sweep():
    both = w1.sweep(0.05, (2, 5))
    for i, seed in enumerate((2, 5)):
        sw = w1.sweep(0.05, (seed,))
        for name in ("measured_slope", "spectral_radius", "mean_tanh_prime", "log_grad_norms"):
            np.testing.assert_allclose(getattr(both, name)[i], getattr(sw, name)[0], rtol=1e-12, err_msg=name)


# --- Pascanu's bound, the thresholds, the seed rule and the exercises ---------------------------


@pytest.mark.parametrize("w_scale, input_scale", SETTINGS)
@pytest.mark.parametrize("seed", [0, 2, 7])
def test_pascanus_bound_holds_at_every_step_on_unnormalised_gradients(w_scale, input_scale, seed):
    """Recompute the gradients without renormalising (T = 12 keeps them in range) and check
    ‖g_{t-1}‖ ≤ ‖W_hh‖₂ · max tanh′ · ‖g_t‖ at every step, with the norm from the SVD."""
    r = w1.simulate(w_scale=w_scale, input_scale=input_scale, seed=seed, T=12)
    H = all_states(r)
    slopes = 1 - H[1:] ** 2
    factor = np.linalg.svd(r.W_hh, compute_uv=False)[0] * slopes.max()
    assert r.spectral_norm == pytest.approx(np.linalg.svd(r.W_hh, compute_uv=False)[0], rel=1e-12)
    assert r.spectral_norm >= r.spectral_radius * (1 - 1e-12)
    g = r.u.copy()
    for t in range(r.T, 0, -1):
        previous = r.W_hh.T @ (slopes[t - 1] * g)
        assert np.linalg.norm(previous) <= factor * np.linalg.norm(g) * (1 + 1e-12)
        g = previous
    assert r.bound_holds and r.bound_slope >= r.measured_slope


def test_the_bound_check_catches_a_step_above_the_bound():
    r = w1.simulate(T=2)

    def holds(log_norms, bound_slope):  # the readout's check, on made-up norms and a bound of exp(bound_slope)
        return dataclasses.replace(r, log_grad_norms=np.array(log_norms), spectral_norm=np.exp(bound_slope)).bound_holds

    r = dataclasses.replace(r, max_tanh_prime=1.0)
    assert not holds([0.0, -1.0, 0.2], 1.0) and holds([0.0, -1.0, -0.1], 1.0)
    assert holds([0.0, -np.inf, -np.inf], 0.0)
    np.testing.assert_array_equal(holds([[0.0, 0.5, 0.5], [0.0, 1.5, 1.5]], np.array([1.0, 1.0])), [True, False])


def test_pascanus_bound_holds_for_every_seed_and_setting():
    assert robustness().bound_holds == 1.0


def test_explodes_and_vanishes_mean_a_factor_ten_over_the_sequence():
    assert w1.simulate(T=40).growth_threshold == pytest.approx(np.log(10) / 40)
    r = w1.simulate(w_scale=w1.SMALL_INPUT[0], input_scale=w1.SMALL_INPUT[1], seed=w1.page_seed())
    assert r.growth == pytest.approx(np.exp(40 * r.measured_slope))
    assert r.explodes == (r.growth > 10) and r.vanishes == (r.growth < 0.1)
    barely = 0.006  # positive, yet ×1,27 over 40 steps: "es manté"
    assert 0 < barely < r.growth_threshold and w1.verdict(barely) == "es manté"


def test_the_page_s_network_illustrates_each_sentence_as_it_is_written():
    """The small-input case explodes *and* its product passes 1 ("the second factor" explains it)."""
    seed = w1.page_seed()
    default = w1.simulate(seed=seed)
    sat = w1.simulate(w_scale=w1.SATURATING[0], input_scale=w1.SATURATING[1], seed=seed)
    small = w1.simulate(w_scale=w1.SMALL_INPUT[0], input_scale=w1.SMALL_INPUT[1], seed=seed)
    assert default.spectral_radius < 1 and default.vanishes
    assert sat.spectral_radius > 1 and sat.product < 1 and sat.vanishes
    assert small.product > 1 and small.explodes and not small.verdict_missed


def test_the_estimate_gets_the_verdict_wrong_for_a_share_of_seeds():
    rob = robustness()
    assert rob.verdict_missed["default"] == 0.0
    assert 0.1 < rob.verdict_missed["small_input"] < 0.6  # often, where the tanh saturates unevenly
    assert 0.1 < rob.verdict_missed["saturating"] < 0.6


def flip_and_return(input_scale):
    """The page seed's sweep, and the radii where its gradient starts to explode and stops again."""
    sw = w1.sweep(input_scale, (w1.page_seed(),))
    (flip,), (back,) = explosions(sw)
    return sw, flip, back


def test_the_small_input_gradient_stops_exploding_as_the_tanh_saturates():
    sw, flip, back = flip_and_return(w1.SMALL_INPUT[1])
    assert 1 < flip < back
    assert at_radius(sw, sw.mean_tanh_prime, back) < at_radius(sw, sw.mean_tanh_prime, 1.0)
    assert robustness().flips[w1.SMALL_INPUT[1]].returns > 0.5


def test_robustness_s_flips_are_those_of_each_seed_s_sweep():
    rob, seeds = robustness(), tuple(range(robustness().n_seeds))
    flips = [explosions(w1.sweep(w1.SMALL_INPUT[1], seeds[i : i + 1]))[0][0] for i in range(0, len(seeds), 20)]
    flipped = [f for f in flips if not np.isnan(f)]
    assert len(flipped) >= 5 and all(0 < f < 10 for f in flipped)
    stats = rob.flips[w1.SMALL_INPUT[1]]
    assert stats.radius_quartiles[0] <= stats.radius_quartiles[1] <= stats.radius_quartiles[2]
    assert 0 <= stats.never < 1 and stats.soon_after_one > 0.5


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"scales": (0.0, 1.0)}, "scales"),
        ({"scales": ()}, "scales"),
        ({"scales": [[1.0]]}, "scales"),
        ({"seeds": []}, "seeds"),
        ({"seeds": [0, -1]}, r"seeds\[1\]"),
        ({"input_scale": -1.0}, "input_scale"),
        ({"seeds": range(2000), "T": 2500}, "seeds, scales, d and T"),
    ],
)
def test_a_sweep_refuses_bad_parameters_by_name(kwargs, name):
    with pytest.raises(ValueError, match=rf"^{name} must"):
        w1.sweep(**kwargs)


# --- the scales the norms reach, and the constant Jacobian of exercise 1 -------------------------


def test_the_scales_follow_from_homogeneity():
    r = w1.simulate(seed=3)
    for scale in (r.scale_for_radius(1.0), r.scale_for_norm(0.5)):
        assert w1.MIN_SCALE < scale < w1.MAX_SCALE
    at_one, at_half = (w1.simulate(w_scale=s, seed=3) for s in (r.scale_for_radius(1.0), r.scale_for_norm(0.5)))
    assert at_one.spectral_radius == pytest.approx(1.0, rel=1e-12)
    assert at_half.spectral_norm == pytest.approx(0.5, rel=1e-12)
    assert r.radius_at(2.0) == pytest.approx(w1.simulate(w_scale=2.0, seed=3).spectral_radius, rel=1e-12)


@pytest.mark.parametrize("c", [0.5, 0.99, 1.0, 1.05])
def test_a_constant_jacobian_gives_the_slope_ln_c(c):
    """W_hh = c·I and no input: h_t = 0, tanh′ = 1, and every step back multiplies the gradient by c."""
    assert w1.constant_gradient_slope(c) == pytest.approx(np.log(c), rel=1e-12, abs=1e-15)
    assert w1.constant_gradient_slope(c, T=7) == pytest.approx(np.log(c), rel=1e-12, abs=1e-15)


def test_sweep_refuses_a_radius_too_costly_by_its_own_parameters():
    """Gelfand's radius of every seed's d × d matrix is part of a sweep's work: refused by d and seeds,
    before spectral.gelfand_radius would refuse it under its own parameter's name."""
    with pytest.raises(ValueError, match=r"^d and seeds must keep squarings·seeds·d³"):
        w1.sweep(seeds=(0, 1), scales=(0.8,), d=512, T=2)


# --- where its claims' checks must flip (tests/claim_cases.py; tests/test_claim_checks.py runs them) ---
EIG = Book("W1.1", "eig_radius")

# Just across a threshold, one number changed and the others left at the book's: the claim fails.
FAILS = [
    ("W1.1", dict(gelfand_radius=EIG * (1 + 2e-9))),
    ("W1.1", dict(gelfand_radius=EIG * (1 - 2e-9))),
    ("W1.2", dict(relative_error=w1.TOLERANCE)),
    ("W1.2", dict(relative_error=1.5 * w1.TOLERANCE)),
    ("W1.3", dict(below_share=1.0)),
    ("W1.3", dict(below_share=0.0)),
    ("W1.4", dict(flip_radius=None)),
    ("W1.4", dict(flip_radius=0.99)),
    ("W1.4", dict(flip_radius=w1.FLIP_LIMIT)),
    ("W1.4", dict(soon_share=0.5)),
    ("W1.5", dict(radius=1.0)),
    ("W1.5", dict(product=1.0)),
    ("W1.5", dict(vanishes=False)),
    ("W1.5", dict(share=0.5)),
    ("W1.6", dict(explodes=False)),
    ("W1.6", dict(product=1.0)),
    ("W1.6", dict(share=0.5)),
]

# Just inside a threshold: the claim still holds (a check made stricter than the book says fails here).
HOLDS = [
    ("W1.1", dict(gelfand_radius=EIG * (1 + 0.5e-9))),
    ("W1.2", dict(relative_error=0.199)),
    ("W1.3", dict(below_share=0.01)),
    ("W1.4", dict(flip_radius=1.0)),
    ("W1.4", dict(soon_share=0.51)),
    ("W1.5", dict(share=0.51)),
    ("W1.6", dict(share=0.51)),
]
