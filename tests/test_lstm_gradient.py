"""Widget 2: the LSTM's backpropagation against finite differences, and the identities."""

import numpy as np
import pytest

from chapter09 import lstm_gradient as w2
from chapter09 import rnn_gradient as w1


def loss_from(w, x, u, forget, pinned, t, c, h):
    """L = u·h_T, running the LSTM from (c_t, h_t) — an independent forward pass."""
    for s in range(t, x.shape[0]):
        pre = {k: w.W[k] @ x[s] + w.U[k] @ h for k in w2.GATES}
        f = forget if pinned else w2.sigmoid(w2.logit(forget) + pre["f"])
        c = f * c + w2.sigmoid(pre["i"]) * np.tanh(pre["g"])
        h = w2.sigmoid(pre["o"]) * np.tanh(c)
    return u @ h


@pytest.mark.parametrize("forget, pinned", [(0.9, False), (0.95, True), (1.0, False), (0.5, False)])
def test_cell_gradient_matches_central_finite_differences(forget, pinned):
    dr = w1.draw(T=15, seed=3)
    w = w2.draw_weights(10, 3, gate_scale=0.8)  # larger gates: the h path matters
    tr = w2.forward(w, dr.x, forget, pinned)
    dc, dh, _ = w2.backprop(w, tr, dr.u, pinned)
    eps, T = 1e-6, 15
    for t in (1, 7, 14):
        k = T - t

        def perturbed(e):
            """c_t is a node of the graph: h_t = o_t ⊙ tanh(c_t) moves with it; h_t alone does not move c_t."""
            if which == "c":
                c = tr.c[t] + e
                return loss_from(w, dr.x, dr.u, forget, pinned, t, c, tr.o[t - 1] * np.tanh(c))
            return loss_from(w, dr.x, dr.u, forget, pinned, t, tr.c[t], tr.h[t] + e)

        for grad, which in ((dc[k], "c"), (dh[k], "h")):  # noqa: B007  (perturbed() reads which)
            numeric = np.empty(10)
            for i in range(10):
                e = np.zeros(10)
                e[i] = eps
                numeric[i] = (perturbed(+e) - perturbed(-e)) / (2 * eps)
            np.testing.assert_allclose(grad, numeric, rtol=1e-5, atol=1e-9)


def test_pinned_cell_path_is_exactly_f_to_the_k():
    r = w2.simulate(forget=0.9, pinned=True, seed=4)
    k = r.steps_back
    np.testing.assert_allclose(r.log_cell - r.log_cell[0], k * np.log(0.9), rtol=1e-12)
    assert r.cell_path_factor == pytest.approx(0.9, rel=1e-12)


def test_lstm_sees_the_rnn_s_inputs():
    r, rnn = w2.simulate(seed=6), w1.simulate(seed=6)
    np.testing.assert_array_equal(r.x, rnn.x)
    np.testing.assert_array_equal(r.u, rnn.u)


def test_open_gate_stays_exactly_open():
    assert w2.sigmoid(np.array(w2.logit(1.0) + -50.0)) == 1.0
    assert w2.simulate(forget=1.0).geometric_mean_f == 1.0


def test_sigmoid_is_stable_at_both_ends():
    z = np.array([-1000.0, -30.0, 0.0, 30.0, 1000.0])
    s = w2.sigmoid(z)
    assert np.all(np.isfinite(s)) and s[0] == 0.0 and s[-1] == 1.0 and s[2] == 0.5
    np.testing.assert_allclose(s[1:4], 1 / (1 + np.exp(-z[1:4])), rtol=1e-15)


def test_identity_check_measures_the_identity_and_the_gate():
    ident = w2.identity_check()
    assert ident.residual_gap < 1e-8 and ident.carry_gap < 1e-8
    assert np.all((ident.forget_gates > 0.9) & (ident.forget_gates < 1.0))


def test_jacobian_of_a_linear_map_is_the_matrix():
    A = np.random.default_rng(0).standard_normal((4, 4))
    np.testing.assert_allclose(w2.jacobian(lambda v: A @ v, np.ones(4)), A, atol=1e-9)


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"forget": 0.0}, "forget"),
        ({"forget": 1.2}, "forget"),
        ({"forget": float("nan")}, "forget"),
        ({"forget": "0.9"}, "forget"),
        ({"pinned": "yes"}, "pinned"),
        ({"gate_scale": -1.0}, "gate_scale"),
        ({"seed": -2}, "seed"),
        ({"d": 0}, "d"),
        ({"T": 1}, "T"),
    ],
)
def test_bad_parameters_raise_value_error_naming_them(kwargs, name):
    with pytest.raises(ValueError, match=rf"^{name} must be"):
        w2.simulate(**kwargs)


@pytest.mark.parametrize("forget, pinned", [(0.95, False), (0.95, True), (1.0, False), (0.9, False)])
def test_a_batch_of_seeds_gives_each_seed_s_factors(forget, pinned):
    """robustness() runs all seeds as one batch: every network of it is the one simulate() runs."""
    seeds = [0, 4, 19]
    batch = w2.simulate_seeds(seeds, forget=forget, pinned=pinned)
    for i, seed in enumerate(seeds):
        r = w2.simulate(forget=forget, pinned=pinned, seed=seed)
        for name in ("whole_factor", "cell_path_factor", "geometric_mean_f"):
            assert getattr(batch, name)[i] == pytest.approx(getattr(r, name), rel=1e-12)


# --- one step, the gate's Jensen bound, the stack of blocks, the half-life ------------------------


def test_one_step_is_a_step_of_forward():
    dr = w1.draw(T=6, seed=5)
    w = w2.draw_weights(10, 5, gate_scale=0.8)
    tr = w2.forward(w, dr.x, 0.9, pinned=False)
    for t in (0, 3, 5):
        c, h = w2.one_step(w, dr.x[t], tr.c[t], tr.h[t], 0.9)
        np.testing.assert_allclose(c, tr.c[t + 1], rtol=1e-14, atol=1e-15)
        np.testing.assert_allclose(h, tr.h[t + 1], rtol=1e-14, atol=1e-15)


@pytest.mark.parametrize("seed", [0, 2, 7])
def test_geometric_mean_of_the_gate_obeys_jensen_s_bound(seed):
    """σ(logit f + z̄) computed from the pre-activations themselves, not from the gates."""
    r = w2.simulate(forget=0.95, seed=seed)
    w, dr = r.weights, w1.draw(seed=seed)
    tr = w2.forward(w, dr.x, 0.95, pinned=False)
    z = np.array([w.W["f"] @ dr.x[t] + w.U["f"] @ tr.h[t] for t in range(dr.x.shape[0])])
    bound = 1 / (1 + np.exp(-(np.log(0.95 / 0.05) + z.mean())))
    geo = np.exp(np.mean(np.log(1 / (1 + np.exp(-(np.log(0.95 / 0.05) + z))))))
    assert r.forget_bound == pytest.approx(bound, rel=1e-12)
    assert r.geometric_mean_f == pytest.approx(geo, rel=1e-12)
    assert geo <= bound


def test_a_pinned_or_open_gate_is_its_own_bound():
    assert w2.simulate(forget=0.9, pinned=True).forget_bound == 0.9
    assert w2.simulate(forget=1.0).forget_bound == 1.0


def stack_loss(W1, W2, x, u, residual, start):
    """ℒ = u·x_L from layer ``start`` on, with plain loops (independent of chapter09)."""
    for layer in range(start, W1.shape[0]):
        y = W2[layer] @ np.tanh(W1[layer] @ x)
        x = x + y if residual else y
    return u @ x


@pytest.mark.parametrize("residual", [True, False])
def test_stack_gradient_matches_central_finite_differences(residual):
    W1, W2, x0, u = (a[0] for a in w2.draw_stack([3], depth=8, d=6, branch_scale=1.5))
    grads = w2.stack_backprop(W1, W2, x0, u, residual)
    xs = w2.stack_forward(W1, W2, x0, residual)
    eps = 1e-6
    for layer in (0, 3, 8):
        k = 8 - layer
        numeric = np.empty(6)
        for i in range(6):
            e = np.zeros(6)
            e[i] = eps
            numeric[i] = (
                stack_loss(W1, W2, xs[layer] + e, u, residual, layer)
                - stack_loss(W1, W2, xs[layer] - e, u, residual, layer)
            ) / (2 * eps)
        np.testing.assert_allclose(grads[k], numeric, rtol=1e-6, atol=1e-10)


def test_a_residual_stack_with_no_branch_passes_the_gradient_intact():
    r = w2.stack_gradient(True, seed=1, branch_scale=0.0)
    np.testing.assert_array_equal(r.grads, np.broadcast_to(r.grads[0], r.grads.shape))
    assert r.factor == 1.0 and r.total == 1.0


@pytest.mark.parametrize("residual", [True, False])
def test_a_batch_of_stacks_gives_each_seed_s_stack(residual):
    batch = w2.stack_seeds([0, 5, 11], residual)
    for i, seed in enumerate([0, 5, 11]):
        r = w2.stack_gradient(residual, seed=seed)
        assert batch.factor[i] == pytest.approx(r.factor, rel=1e-12)
        assert batch.total[i] == pytest.approx(r.total, rel=1e-12)


def test_the_residual_stack_keeps_the_gradient_and_the_plain_one_loses_it_for_most_seeds():
    """The measurement that could fail (unlike the identities): counted over the seeds."""
    rob = w2.robustness()
    assert rob.stack_residual_kept > 0.9 and rob.stack_plain_vanishes > 0.9
    assert rob.geo_below_bound == 1.0  # Jensen: a theorem, every seed


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"depth": 0}, "depth"),
        ({"d": 0}, "d"),
        ({"branch_scale": -1.0}, "branch_scale"),
        ({"seed": -1}, "seed"),
        ({"residual": "yes"}, "residual"),
    ],
)
def test_bad_stack_parameters_raise_value_error_naming_them(kwargs, name):
    with pytest.raises(ValueError, match=rf"^{name} must be"):
        w2.stack_gradient(**kwargs)


def test_half_life():
    assert w2.half_life(0.5) == pytest.approx(1.0, rel=1e-15)
    assert 0.95 ** w2.half_life(0.95) == pytest.approx(0.5, rel=1e-12)
    for bad in (1.0, 0.0, 1.5):
        with pytest.raises(ValueError, match="^factor must be"):
            w2.half_life(bad)


# --- the page's numbers: the exercises' answers and the corrected sentences ---------------------


def test_exercise_answers_are_computed_independently():
    from chapter09 import fmt
    from chapter09.pages import lstm_gradient as page

    n, seed = page.readout().numbers, w1.page_seed()
    assert n["w2_half_default"] == fmt.decimal(np.log(2) / -np.log(0.95), 1)
    assert n["w2_half_high"] == fmt.decimal(np.log(2) / -np.log(0.99), 1)
    rnn_factor = np.exp(w1.simulate(seed=seed).measured_slope)
    assert n["w2_half_rnn"] == fmt.decimal(np.log(2) / -np.log(rnn_factor))
    # exercise 3: the stack with a small branch, by plain loops and a least-squares slope
    for residual, key in ((True, "w2_ex_res"), (False, "w2_ex_plain")):
        W1, W2, x0, u = (a[0] for a in w2.draw_stack([seed], branch_scale=page.EXERCISE_SCALE))
        xs, g, logs = [x0], u, [0.0]
        for layer in range(W1.shape[0]):
            y = W2[layer] @ np.tanh(W1[layer] @ xs[-1])
            xs.append(xs[-1] + y if residual else y)
        for layer in reversed(range(W1.shape[0])):
            back = W1[layer].T @ ((1 - np.tanh(W1[layer] @ xs[layer]) ** 2) * (W2[layer].T @ g))
            g = g + back if residual else back
            logs.append(np.log(np.linalg.norm(g)))
        assert n[key] == fmt.decimal(np.exp(np.polyfit(np.arange(len(logs)), logs, 1)[0]), 3)
    # exercise 2: the bound holds, and the side of f is the one the page glues
    r = w2.simulate(seed=seed)
    assert r.geometric_mean_f <= r.forget_bound
    assert n["w2_bound_side"] == ("per sobre" if r.forget_bound > 0.95 else "per sota")


def test_the_corrected_sentence_reads_off_the_table():
    """ "no s'hi acosta": the gap at f = 0,9 is not below the gap at f = 0,95, as the table shows;
    the growth over T steps is the factor at f = 1 compounded."""
    from chapter09.pages import lstm_gradient as page

    n = page.readout().numbers
    assert n["w2_gap_low"] == n["w2_f090_gated_gap"] and n["w2_gap_default"] == n["w2_f095_gated_gap"]
    assert float(n["w2_gap_low"].replace(",", ".")) >= float(n["w2_gap_default"].replace(",", "."))
    one = w2.simulate(forget=1.0, seed=w1.page_seed())
    assert n["w2_growth_one"] == page.fmt.decimal(one.whole_factor ** (one.log_whole.size - 1))
