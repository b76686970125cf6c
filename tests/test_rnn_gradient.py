"""Widget 1: the radius, the gradient and the slopes, checked independently."""

import dataclasses
import re

import numpy as np
import pytest

from chapter09 import fmt
from chapter09 import rnn_gradient as w1
from chapter09.rnn_gradient_seeds import explosions, robustness

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


@pytest.mark.parametrize("seed", range(50))
def test_gelfand_radius_matches_the_eigenvalues(seed):
    A = np.random.default_rng(seed).standard_normal((10, 10)) * (0.1 + seed / 10)
    assert w1.gelfand_radius(A) == pytest.approx(max(abs(np.linalg.eigvals(A))), rel=1e-9)


@pytest.mark.parametrize(
    "A, rho",
    [
        ([[0.0, -1.0], [1.0, 0.0]], 1.0),  # rotation: a complex pair
        ([[0.5, 1e3], [0.0, 0.5]], 0.5),  # Jordan block, very non-normal
        ([[0.0, 1.0], [0.0, 0.0]], 0.0),  # nilpotent
        ([[0.0]], 0.0),
        ([[3.0, 0.0], [0.0, -3.0]], 3.0),  # two eigenvalues of equal modulus
        ([[1e150, 0.0], [0.0, 1.0]], 1e150),  # no overflow on the way
    ],
)
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


@pytest.mark.parametrize("A", [np.zeros((2, 3)), np.zeros((0, 0)), np.array([[np.nan]]), np.ones(3)])
def test_gelfand_rejects_what_is_not_a_finite_square_matrix(A):
    with pytest.raises(ValueError, match="^A must"):
        w1.gelfand_radius(A)


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


def test_gelfand_radius_of_a_stack_is_the_radius_of_each_matrix():
    stack = w1.draws(range(4)).W0 * np.array([0.5, 1.0, 2.0, 0.0])[:, None, None]
    radii = w1.gelfand_radius(stack)
    assert radii.shape == (4,) and radii[3] == 0.0
    for A, rho in zip(stack, radii):
        assert rho == pytest.approx(w1.gelfand_radius(A), rel=1e-12)


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


def at(sw, values, radius):
    return np.interp(radius, sw.spectral_radius[0], values[0])


def test_the_small_input_gradient_stops_exploding_as_the_tanh_saturates():
    sw, flip, back = flip_and_return(w1.SMALL_INPUT[1])
    assert 1 < flip < back
    assert at(sw, sw.mean_tanh_prime, back) < at(sw, sw.mean_tanh_prime, 1.0)
    assert robustness().flips[w1.SMALL_INPUT[1]].returns > 0.5


def test_robustness_s_flips_are_those_of_each_seed_s_sweep():
    rob, seeds = robustness(), tuple(range(robustness().n_seeds))
    flips = [explosions(w1.sweep(w1.SMALL_INPUT[1], seeds[i : i + 1]))[0][0] for i in range(0, len(seeds), 20)]
    flipped = [f for f in flips if not np.isnan(f)]
    assert len(flipped) >= 5 and all(0 < f < 10 for f in flipped)
    stats = rob.flips[w1.SMALL_INPUT[1]]
    assert stats.radius_quartiles[0] <= stats.radius_quartiles[1] <= stats.radius_quartiles[2]
    assert 0 <= stats.never < 1 and stats.soon_after_one > 0.5


def test_exercise_answers():
    from chapter09.pages import rnn_gradient as page

    n, seed = page.readout().numbers, w1.page_seed()
    # 1: W_hh = 0,99·I, no input: every step multiplies by 0,99; the bound is below 1, yet it "es manté"
    slope = page.constant_gradient_slope(0.99)
    assert slope == pytest.approx(np.log(0.99), rel=1e-12)
    assert -w1.threshold() < slope < 0 and w1.verdict(slope) == "es manté"
    assert 0.99 > w1.vanishing_guarantee() == pytest.approx(10 ** (-1 / 40), rel=1e-15)
    assert (n["w1_ex_c"], n["w1_ex_slope"], n["w1_ex_growth"], n["w1_ex_verdict"]) == (
        "0,99",
        "−0,010",
        "0,67",
        "es manté",
    )
    assert fmt.decimal(0.99**40) == n["w1_ex_growth"] and n["w1_guarantee"] == "0,944"
    # 2: ln 10 / 40 per step; the exploding case's fitted line grows ×5,0·10³
    assert (n["w1_threshold"], n["w1_small_growth"]) == ("0,058", "5,0·10³")
    # 3: the bound guarantees vanishing below 10^(−1/40)/‖W0‖₂, where ρ is still well below 1
    W0 = w1.draw(seed=seed).W0
    safe = w1.vanishing_guarantee() / np.linalg.svd(W0, compute_uv=False)[0]
    assert safe * max(abs(np.linalg.eigvals(W0))) < 1 < w1.W_SCALE * np.linalg.svd(W0, compute_uv=False)[0]
    assert (n["w1_safe_scale"], n["w1_safe_rho"], n["w1_seed_rho_one_scale"]) == ("0,55", "0,48", "1,15")
    for x in (0.0, 1.0, 10.0):  # below the guaranteed scale it vanishes whatever the input
        r = w1.simulate(w_scale=safe * 0.999, input_scale=x, seed=seed)
        assert r.bound_slope < -w1.threshold() and r.vanishes


def test_new_numbers_of_the_page():
    from chapter09.pages import rnn_gradient as page

    n = page.readout().numbers
    assert n["w1_bound_share"] == "100\xa0%"
    assert (n["w1_verdict_missed_small"], n["w1_verdict_missed_sat"], n["w1_verdict_missed_default"]) == (
        "24,5\xa0%",
        "20,5\xa0%",
        "0\xa0%",
    )
    assert (n["w1_return_rho"], n["w1_return_share"], n["w1_return_median"]) == ("2,03", "78,5\xa0%", "2,15")
    assert (n["w1_small_share"], n["w1_author_small_share"], n["w1_narrative_share"]) == (
        "75,5\xa0%",
        "26,5\xa0%",
        "59,5\xa0%",
    )
    assert (n["w1_seed_flip_rho_small"], n["w1_flip_soon_small"]) == ("1,06", "100\xa0%")


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


def test_the_widget_shows_what_the_command_line_and_the_prose_show():
    """Every state of the widget is reading() at its position; the default state is the prose's."""
    from chapter09.pages import rnn_gradient as page

    spec, n = page.controls(), page.readout().numbers
    (w_values, x_values), labels = ([c[k] for c in spec["controls"]] for k in ("values", "labels"))
    for i, j in ((7, 4), (19, 4), (19, 0), (39, 1), (0, 2), (18, 0), (20, 0)):
        assert spec["states"][f"{i}-{j}"]["readout"] == page.reading(w_values[i], x_values[j])
    assert (w_values[7], x_values[4]) == (w1.W_SCALE, w1.INPUT_SCALE)
    assert spec["states"]["7-4"]["readout"] == {k: n["w1_" + ("mean_tp" if k == "tp" else k)] for k in page.LABELS}
    assert spec["states"]["19-0"]["readout"] == {
        k: n["w1_small_" + ("mean_tp" if k == "tp" else k)] for k in page.LABELS
    }
    assert (labels[0][7], labels[0][19], labels[1][0]) == (n["w1_w_scale"], n["w1_sat_w"], n["w1_small_x"])


# --- one threshold per verdict word, labels that are their values, triples that agree -----------


def number(text: str) -> float:
    """A Catalan number as the page prints it (−0,913, 1.234,5, 5,0·10³) read back."""
    text = text.replace("\xa0", "").replace("−", "-").replace(".", "").replace(",", ".")
    if "·10" in text:
        mantissa, exponent = text.split("·10")
        return float(mantissa) * 10.0 ** int(exponent.translate(str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")))
    return float(text)


def decimals(text: str) -> int:
    """Decimals of a printed number (of its mantissa)."""
    mantissa = text.split("·10")[0]
    return len(mantissa.split(",")[1]) if "," in mantissa else 0


def test_one_threshold_per_verdict_word():
    """«explota», «es manté» and «s'esvaeix»: the verdict, the readout's flags, the sweep's onsets, the
    figure's band, the widget's states and the claims all read the slope against w1.threshold."""
    from chapter09.pages import rnn_gradient as page

    th = w1.threshold(w1.T)
    assert th == np.log(w1.EXPLODE_FACTOR) / w1.T
    above, below = np.nextafter(th, 1), np.nextafter(-th, -1)
    assert [w1.verdict(v) for v in (above, th, 0.0, -th, below)] == [
        "explota",
        "es manté",
        "es manté",
        "es manté",
        "s’esvaeix",
    ]
    sw = w1.sweep(w1.SMALL_INPUT[1], tuple(range(20)))
    words = w1.verdict(sw.measured_slope)
    np.testing.assert_array_equal(sw.explodes, words == "explota")
    np.testing.assert_array_equal(sw.vanishes, words == "s’esvaeix")
    start, _ = explosions(sw)  # where the slope first passes the same threshold
    for k in range(20):
        first = np.flatnonzero(sw.explodes[k])[0]
        assert sw.spectral_radius[k, first - 1] <= start[k] <= sw.spectral_radius[k, first]
    band = page.figures()["w1_fig_sweep"].axes[0].patches[0]  # the grey band of "es manté"
    assert (band.get_y(), band.get_y() + band.get_height()) == pytest.approx((-th, th), rel=1e-12)
    spec = page.controls()
    for key, state in spec["states"].items():
        i, j = map(int, key.split("-"))
        slope = number(state["readout"]["meas"])
        w_scale, input_scale = spec["controls"][0]["values"][i], spec["controls"][1]["values"][j]
        r = w1.simulate(w_scale=w_scale, input_scale=input_scale, seed=w1.page_seed())
        assert state["readout"]["verdict"] == w1.verdict(r.measured_slope) == fmt.typographic(r.verdict)
        assert abs(slope - r.measured_slope) <= 0.5e-3 + 1e-12
    rob, n = robustness(), page.readout().numbers
    assert n["w1_threshold"] == fmt.decimal(th, 3)
    assert rob.small_input_explodes == np.mean(w1.sweep(w1.SMALL_INPUT[1], tuple(range(rob.n_seeds)), (2.0,)).explodes)


def test_every_control_label_is_the_value_it_runs():
    from chapter09.pages import rnn_gradient as page

    for c in page.controls()["controls"]:
        assert len(c["labels"]) == len(c["values"]) == len(set(c["labels"]))
        for label, value in zip(c["labels"], c["values"]):
            assert number(label) == pytest.approx(value, rel=1e-12, abs=0), (c["name"], label, value)
    assert "0,25" in page.controls()["controls"][1]["labels"]


def test_printed_slopes_steps_and_factors_agree():
    """Every (slope per step, T, factor) the page prints side by side: the factor is exp(T·slope)
    for a slope within half a unit of the printed slope's last digit, to the factor's own precision."""
    from chapter09.pages import rnn_gradient as page

    n = page.readout().numbers
    T = int(n["w1_T"])
    triples = [
        (n["w1_meas"], n["w1_growth"]),
        (n["w1_sat_meas"], n["w1_sat_growth"]),
        (n["w1_small_meas"], n["w1_small_growth"]),
        (n["w1_ex_slope"], n["w1_ex_growth"]),
        (n["w1_threshold"], n["w1_explode_factor"]),
    ]
    for slope, factor in triples:
        s, h = number(slope), 0.5 * 10.0 ** -decimals(slope)
        f = number(factor)
        ulp = 0.5 * 10.0 ** -decimals(factor) * (f / float(factor.split("·10")[0].replace(",", ".")))
        assert np.exp(T * (s - h)) - ulp <= f <= np.exp(T * (s + h)) + ulp, (slope, factor)
    alts = n["w1_fig_default_alt"] + n["w1_fig_settings_alt"]
    for prefix in ("w1_", "w1_sat_", "w1_small_"):  # the alt texts print the fitted line's factor
        assert n[prefix + "growth"] in alts
    assert f"pendent {n['w1_meas']} per pas, es multiplica per {n['w1_growth']} en {n['w1_T']} passos" in alts
    assert re.search(r"es multiplica per [^ ]+ en 40 passos", n["w1_fig_default_alt"])


def test_the_eigenvalue_reference_is_refined_beyond_lapack():
    from chapter09.pages import rnn_gradient as page

    for seed in (0, 2, 7):
        A = w1.simulate(seed=seed).W_hh
        ref = w1.eigen_radius(A)
        assert ref == pytest.approx(max(abs(np.linalg.eigvals(A))), rel=1e-13)
    A = np.array([[0.6, 0.25], [0.1, 0.4]])  # eigenvalues 0,5 ± √0,035: refined to the last bit or so
    assert abs(w1.eigen_radius(A) - (0.5 + np.sqrt(0.035))) < 2e-16
    r = w1.simulate(seed=w1.page_seed())
    gap = abs(r.spectral_radius - w1.eigen_radius(r.W_hh)) / w1.eigen_radius(r.W_hh)
    for nudge in (1 - 2e-16, 1 + 2e-16):  # the printed gap does not depend on the reference's last bits
        assert fmt.power_of_ten(gap * nudge, 1) == page.readout().numbers["w1_rho_gap"]


def page_prose() -> str:
    """Page 01 as a reader reads it: the Markdown without its code cells."""
    from conftest import BOOK

    source = (BOOK / "01-gradient-rnn.md").read_text(encoding="utf-8")
    return re.sub(r"```\{code-cell\}.*?```", "", source, flags=re.S)


def test_the_exploding_case_is_defined_before_it_is_named():
    prose = page_prose()
    assert prose.index("*el cas que explota*") <= prose.index("cas que explota") + 1


def test_seed_statistics_live_in_one_collapsed_box():
    prose = page_prose()
    assert prose.count(":::{admonition} Com ho sabem\n:class: note dropdown") == 1
    assert "{admonition} Comprovació" not in prose
    assert prose.lower().count("llavor") <= 3
