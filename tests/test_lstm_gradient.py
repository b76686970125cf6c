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
    w = w2.draw_weights(10, 3, gate_scale=0.8)   # larger gates: the h path matters
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

        for grad, which in ((dc[k], "c"), (dh[k], "h")):
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


@pytest.mark.parametrize("kwargs, name", [
    ({"forget": 0.0}, "forget"), ({"forget": 1.2}, "forget"), ({"forget": float("nan")}, "forget"),
    ({"forget": "0.9"}, "forget"), ({"pinned": "yes"}, "pinned"), ({"gate_scale": -1.0}, "gate_scale"),
    ({"seed": -2}, "seed"), ({"d": 0}, "d"), ({"T": 1}, "T"),
])
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
