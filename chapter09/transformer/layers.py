"""The rows of an attention-only network, compiled: products, LayerNorm, attention heads, the feed-forward layer
and the loss, each forward and back, for one row (a position) at a time.  The network they make is
:mod:`chapter09.transformer.net`, whose docstring has the equations they number.

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
    """out = x w for a row x, each sum over k in order."""
    for j in range(w.shape[1]):
        out[j] = 0.0
    for k in range(w.shape[0]):
        xk = x[k]
        for j in range(w.shape[1]):
            out[j] += xk * w[k, j]


@njit(**JIT)
def add_times_t(d, w, out):
    """out += d wᵀ (a gradient through x w), each sum over j in order."""
    for k in range(w.shape[0]):
        total = 0.0
        for j in range(w.shape[1]):
            total += w[k, j] * d[j]
        out[k] += total


@njit(**JIT)
def add_outer(x, d, total):
    """total += xᵀ d."""
    for k in range(total.shape[0]):
        xk = x[k]
        for j in range(total.shape[1]):
            total[k, j] += xk * d[j]


@njit(**JIT)
def norm(x, gain, bias, x_hat, out):
    """LayerNorm of one row: x̂ and N(x) = γ ⊙ x̂ + β written in place; returns 1/√(σ² + ε)."""
    mean = 0.0
    for k in range(x.size):
        mean += x[k]
    mean /= x.size
    var = 0.0
    for k in range(x.size):
        var += (x[k] - mean) * (x[k] - mean)
    inv = 1.0 / math.sqrt(var / x.size + LN_EPS)
    for k in range(x.size):
        x_hat[k] = (x[k] - mean) * inv
        out[k] = x_hat[k] * gain[k] + bias[k]
    return inv


@njit(**JIT)
def norm_back(d_out, x_hat, inv, gain, d_gain, d_bias, d_x):
    """(4) for one row: δγ, δβ and δx added to."""
    n = x_hat.size
    m1, m2 = 0.0, 0.0
    for k in range(n):
        d_gain[k] += d_out[k] * x_hat[k]
        d_bias[k] += d_out[k]
        g = d_out[k] * gain[k]
        m1 += g
        m2 += g * x_hat[k]
    m1, m2 = m1 / n, m2 / n
    for k in range(n):
        d_x[k] += (d_out[k] * gain[k] - m1 - x_hat[k] * m2) * inv


@njit(**JIT)
def attend(q, keys, values, n_keys, alpha, out):
    """(1) for one query row over the first ``n_keys`` rows of keys and values, every head: α (HEADS, ≥ n_keys)
    and the heads' outputs side by side, written in place."""
    for h in range(HEADS):
        c0 = h * D_K
        top = -math.inf
        for j in range(n_keys):
            s = 0.0
            for c in range(c0, c0 + D_K):
                s += q[c] * keys[j, c]
            alpha[h, j] = s * SCALE
            top = max(top, alpha[h, j])
        total = 0.0
        for j in range(n_keys):
            alpha[h, j] = exp1(alpha[h, j] - top)
            total += alpha[h, j]
        for c in range(c0, c0 + D_K):
            out[c] = 0.0
        for j in range(n_keys):
            alpha[h, j] /= total
            for c in range(c0, c0 + D_K):
                out[c] += alpha[h, j] * values[j, c]


@njit(**JIT)
def _dot(a, b, c0):
    """a · b over one head's columns c0 … c0 + d_k − 1, in order."""
    s = 0.0
    for c in range(c0, c0 + D_K):
        s += a[c] * b[c]
    return s


@njit(**JIT)
def attend_back(d_out, q, keys, values, n_keys, alpha, d_q, d_keys, d_values):
    """(5) for one query row: δq, δkeys and δvalues added to."""
    for h in range(HEADS):
        c0 = h * D_K
        mean = 0.0
        for j in range(n_keys):
            mean += alpha[h, j] * _dot(d_out, values[j], c0)
        for j in range(n_keys):
            ds = alpha[h, j] * (_dot(d_out, values[j], c0) - mean) * SCALE  # δα_ij again: the same bits
            for c in range(c0, c0 + D_K):
                d_values[j, c] += alpha[h, j] * d_out[c]
            for c in range(c0, c0 + D_K):
                d_q[c] += ds * keys[j, c]
                d_keys[j, c] += ds * q[c]


@njit(**JIT)
def feed_forward(x, W1, c1, W2, c2, u, r, out):
    """relu(x W₁ + c₁) W₂ + c₂ for one row: u (before relu) and r (after) kept; the result in ``out``."""
    times(x, W1, u)
    for k in range(u.size):
        u[k] += c1[k]
        r[k] = max(u[k], 0.0)
    times(r, W2, out)
    for k in range(out.size):
        out[k] += c2[k]


@njit(**JIT)
def feed_forward_back(d_out, x, u, r, W1, W2, d_W1, d_c1, d_W2, d_c2, d_x):
    """Back through :func:`feed_forward` for one row: δW₁, δc₁, δW₂, δc₂ and δx added to."""
    d_r = np.zeros(u.size)
    add_outer(r, d_out, d_W2)
    for k in range(d_out.size):
        d_c2[k] += d_out[k]
    add_times_t(d_out, W2, d_r)
    for k in range(u.size):
        d_r[k] = d_r[k] if u[k] > 0.0 else 0.0  # relu' (u > 0)
        d_c1[k] += d_r[k]
    add_outer(x, d_r, d_W1)
    add_times_t(d_r, W1, d_x)


@njit(**JIT)
def softmax_loss(logits, target, weight, d_logits):
    """w (ln Σ e^logits − logits_y), and its gradient w (p − onehot_y) written to ``d_logits``."""
    top = logits[0]
    for k in range(1, logits.size):
        top = max(top, logits[k])
    total = 0.0
    for k in range(logits.size):
        d_logits[k] = exp1(logits[k] - top)
        total += d_logits[k]
    for k in range(logits.size):
        d_logits[k] = weight * (d_logits[k] / total - (1.0 if k == target else 0.0))
    return weight * (log1(total) - (logits[target] - top))


numba.config.CACHE_DIR = OUTER_CACHE
