"""The rows of an attention-only network, compiled: products, LayerNorm, attention heads, the feed-forward layer
and the loss, each forward and back, for one row (a position) at a time of a batch of strings side by side.  A
row is an array (width, strings): each string owns a lane (the last axis), and what a function computes for one
string never reads another's lane, so a string gets the same bits alone or in any batch; a gradient of
parameters keeps each string's share in its lane too, (…, strings), summed by the caller.  The network they
make is :mod:`chapter09.transformer.net`, whose docstring has the equations they number.

LayerNorm, ``N(x) = γ ⊙ x̂ + β`` with ``x̂ = (x − μ)/√(σ² + ε)``, μ and σ² the mean and variance of the row's
entries, and back from ``δo`` at its output::

    δγ += δo ⊙ x̂     δβ += δo     g = δo ⊙ γ     δx = (g − mean(g) − x̂ ⊙ mean(g ⊙ x̂)) / √(σ² + ε)        (4)

One head's attention (its ``d_k`` columns of the queries ``Q``, keys ``K`` and values ``V``), and back from
``δA_i``::

    s_ij = Q_i · K_j / √d_k         α_ij = softmax_j(s_ij)  over the keys j given         A_i = Σ_j α_ij V_j   (1)

    δα_ij = δA_i · V_j    δV_j += α_ij δA_i    δs_ij = α_ij (δα_ij − Σ_k α_ik δα_ik)
    δQ_i += δs_ij K_j / √d_k      δK_j += δs_ij Q_i / √d_k                                                   (5)

Every sum runs in the order its loop is written, without ``fastmath`` (:data:`chapter09.portable.JIT`); exp and ln
are :mod:`chapter09.portable`'s, √ and ÷ exactly rounded: the same bits on every machine.  Inputs are trusted.
"""

from __future__ import annotations

import math

import numba
import numpy as np
from numba import njit

from ..common import built_dir
from ..portable import JIT, exp1, log1

__all__: list[str] = []

# Compiled in the folder of the network that calls these rows (:mod:`chapter09.transformer.net`, whose name
# carries this file's digest: numba checks a cached loop against its own file only), then put back.
OUTER_CACHE, numba.config.CACHE_DIR = numba.config.CACHE_DIR, str(built_dir("chapter09.transformer.net", "numba"))

HEADS = 2  # the heads, side by side in the columns: head h owns columns h·d_k … (h + 1)·d_k − 1
D_K = 8  # each head's width
SCALE = 1.0 / math.sqrt(D_K)  # 1/√d_k, exactly rounded
LN_EPS = 1e-5  # LayerNorm's ε


@njit(**JIT)
def times(x, w, out):
    """out = x w for a row x of every string, each sum over k in order."""
    for j in range(w.shape[1]):
        for b in range(x.shape[1]):
            out[j, b] = 0.0
        for k in range(w.shape[0]):
            wkj = w[k, j]
            for b in range(x.shape[1]):
                out[j, b] += x[k, b] * wkj


@njit(**JIT)
def add_times_t(d, w, out):
    """out += d wᵀ (a gradient through x w), each sum over j in order, then added."""
    total = np.empty(d.shape[1])
    for k in range(w.shape[0]):
        total[:] = 0.0
        for j in range(w.shape[1]):
            wkj = w[k, j]
            for b in range(d.shape[1]):
                total[b] += wkj * d[j, b]
        for b in range(d.shape[1]):
            out[k, b] += total[b]


@njit(**JIT)
def add_outer(x, d, total):
    """total += xᵀ d, each string in its own lane of ``total``."""
    for k in range(total.shape[0]):
        for j in range(total.shape[1]):
            for b in range(x.shape[1]):
                total[k, j, b] += x[k, b] * d[j, b]


@njit(**JIT)
def norm(x, gain, bias, x_hat, out, inv):
    """LayerNorm of a row of every string: x̂ and N(x) = γ ⊙ x̂ + β written in place, 1/√(σ² + ε) in ``inv``."""
    n, lanes = x.shape[0], x.shape[1]
    mean, var = np.zeros(lanes), np.zeros(lanes)
    for k in range(n):
        for b in range(lanes):
            mean[b] += x[k, b]
    for b in range(lanes):
        mean[b] /= n
    for k in range(n):
        for b in range(lanes):
            var[b] += (x[k, b] - mean[b]) * (x[k, b] - mean[b])
    for b in range(lanes):
        inv[b] = 1.0 / math.sqrt(var[b] / n + LN_EPS)
    for k in range(n):
        for b in range(lanes):
            x_hat[k, b] = (x[k, b] - mean[b]) * inv[b]
            out[k, b] = x_hat[k, b] * gain[k] + bias[k]


@njit(**JIT)
def norm_back(d_out, x_hat, inv, gain, d_gain, d_bias, d_x):
    """(4) for a row of every string: δγ, δβ (each string's lane) and δx added to."""
    n, lanes = x_hat.shape[0], x_hat.shape[1]
    m1, m2 = np.zeros(lanes), np.zeros(lanes)
    for k in range(n):
        for b in range(lanes):
            d_gain[k, b] += d_out[k, b] * x_hat[k, b]
            d_bias[k, b] += d_out[k, b]
            g = d_out[k, b] * gain[k]
            m1[b] += g
            m2[b] += g * x_hat[k, b]
    for b in range(lanes):
        m1[b] /= n
        m2[b] /= n
    for k in range(n):
        for b in range(lanes):
            d_x[k, b] += (d_out[k, b] * gain[k] - m1[b] - x_hat[k, b] * m2[b]) * inv[b]


@njit(**JIT)
def _dot(a, rows, j, c0, out):
    """out[b] = a · rows[j] over one head's columns c0 … c0 + d_k − 1, in order, for every string b."""
    out[:] = 0.0
    for c in range(c0, c0 + D_K):
        for b in range(a.shape[1]):
            out[b] += a[c, b] * rows[j, c, b]


@njit(**JIT)
def attend(q, keys, values, n_keys, alpha, out):
    """(1) for a query row of every string over the first ``n_keys`` rows of keys and values, every head:
    α (HEADS, ≥ n_keys, strings) and the heads' outputs side by side, written in place."""
    lanes = q.shape[1]
    top, total = np.empty(lanes), np.empty(lanes)
    for h in range(HEADS):
        c0 = h * D_K
        top[:] = -math.inf
        for j in range(n_keys):
            _dot(q, keys, j, c0, alpha[h, j])
            for b in range(lanes):
                alpha[h, j, b] *= SCALE
                top[b] = max(top[b], alpha[h, j, b])
        total[:] = 0.0
        for j in range(n_keys):
            for b in range(lanes):
                alpha[h, j, b] = exp1(alpha[h, j, b] - top[b])
                total[b] += alpha[h, j, b]
        for c in range(c0, c0 + D_K):
            out[c] = 0.0
        for j in range(n_keys):
            for b in range(lanes):
                alpha[h, j, b] /= total[b]
            for c in range(c0, c0 + D_K):
                for b in range(lanes):
                    out[c, b] += alpha[h, j, b] * values[j, c, b]


@njit(**JIT)
def attend_back(d_out, q, keys, values, n_keys, alpha, d_q, d_keys, d_values):
    """(5) for a query row of every string: δq, δkeys and δvalues added to."""
    lanes = q.shape[1]
    mean, s = np.empty(lanes), np.empty(lanes)
    for h in range(HEADS):
        c0 = h * D_K
        mean[:] = 0.0
        for j in range(n_keys):
            _dot(d_out, values, j, c0, s)  # δα_ij
            for b in range(lanes):
                mean[b] += alpha[h, j, b] * s[b]
        for j in range(n_keys):
            _dot(d_out, values, j, c0, s)  # δα_ij again: the same bits
            for b in range(lanes):
                s[b] = alpha[h, j, b] * (s[b] - mean[b]) * SCALE  # δs_ij
            for c in range(c0, c0 + D_K):
                for b in range(lanes):
                    d_values[j, c, b] += alpha[h, j, b] * d_out[c, b]
                    d_q[c, b] += s[b] * keys[j, c, b]
                    d_keys[j, c, b] += s[b] * q[c, b]


@njit(**JIT)
def feed_forward(x, W1, c1, W2, c2, u, r, out):
    """relu(x W₁ + c₁) W₂ + c₂ for a row of every string: u (before relu) and r (after) kept; the result in
    ``out``."""
    times(x, W1, u)
    for k in range(u.shape[0]):
        for b in range(u.shape[1]):
            u[k, b] += c1[k]
            r[k, b] = max(u[k, b], 0.0)
    times(r, W2, out)
    for k in range(out.shape[0]):
        for b in range(out.shape[1]):
            out[k, b] += c2[k]


@njit(**JIT)
def feed_forward_back(d_out, x, u, r, W1, W2, d_W1, d_c1, d_W2, d_c2, d_x):
    """Back through :func:`feed_forward` for a row of every string: δW₁, δc₁, δW₂, δc₂ (each string's lane)
    and δx added to."""
    d_r = np.zeros(u.shape)
    add_outer(r, d_out, d_W2)
    for k in range(d_out.shape[0]):
        for b in range(d_out.shape[1]):
            d_c2[k, b] += d_out[k, b]
    add_times_t(d_out, W2, d_r)
    for k in range(u.shape[0]):
        for b in range(u.shape[1]):
            d_r[k, b] = d_r[k, b] if u[k, b] > 0.0 else 0.0  # relu' (u > 0)
            d_c1[k, b] += d_r[k, b]
    add_outer(x, d_r, d_W1)
    add_times_t(d_r, W1, d_x)


@njit(**JIT)
def softmax_loss(logits, targets, weights, d_logits, loss):
    """For every string b: w_b (ln Σ e^logits − logits_y) added to ``loss[b]``, and its gradient
    w_b (p − onehot_y) written to ``d_logits``."""
    lanes = logits.shape[1]
    top, total = np.empty(lanes), np.zeros(lanes)
    for b in range(lanes):
        top[b] = logits[0, b]
    for k in range(1, logits.shape[0]):
        for b in range(lanes):
            top[b] = max(top[b], logits[k, b])
    for k in range(logits.shape[0]):
        for b in range(lanes):
            d_logits[k, b] = exp1(logits[k, b] - top[b])
            total[b] += d_logits[k, b]
    for k in range(logits.shape[0]):
        for b in range(lanes):
            d_logits[k, b] = weights[b] * (d_logits[k, b] / total[b] - (1.0 if k == targets[b] else 0.0))
    for b in range(lanes):
        loss[b] += weights[b] * (log1(total[b]) - (logits[targets[b], b] - top[b]))


numba.config.CACHE_DIR = OUTER_CACHE
