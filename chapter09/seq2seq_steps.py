"""One LSTM step and one attention step, forward and back, compiled: the loops of every training.

The cell of :mod:`chapter09.seq2seq`, with row vectors, for ``M`` models and ``B`` strings at once::

    [a_i a_f a_o a_g] = x_t W + h_{t-1} U + b  (+ ctx_t C)    i, f, o = σ(a_i, a_f, a_o),  g = tanh(a_g)
    c_t = f ⊙ c_{t-1} + i ⊙ g                                  h_t = o ⊙ tanh(c_t)                       (1)

and Bahdanau et al. (2015)'s additive attention over the encoder's states ``h_j``::

    e_tj = v_a · tanh(s_{t-1} W_a + h_j U_a),    α_tj = softmax_j(e_tj),    ctx_t = Σ_j α_tj h_j    (3)

Backpropagation through time, given ``δh = ∂ℒ/∂h_t`` (from the output, the next step
and, in the encoder, the attention) and ``δc = ∂ℒ/∂c_t``::

    δc ← δc + δh ⊙ o ⊙ (1 − tanh² c_t)
    δa = [δc ⊙ g ⊙ i(1−i),  δc ⊙ c_{t-1} ⊙ f(1−f),  δh ⊙ tanh(c_t) ⊙ o(1−o),  δc ⊙ i ⊙ (1−g²)]
    δh_{t-1} = δa Uᵀ,   δc_{t-1} = f ⊙ δc,   δx_t = δa Wᵀ,   δW = Σ_t x_tᵀ δa,   δU = Σ_t h_{t-1}ᵀ δa   (2)

The attention's backward pass starts from ``δctx_t = δlogits_t C_outᵀ + δa_t Cᵀ``; with
``z_tj = tanh(s_{t-1} W_a + h_j U_a)`` it is ::

    δα_tj = h_j · δctx_t      δe_tj = α_tj (δα_tj − Σ_k α_tk δα_tk)       δp_tj = δe_tj v_a ⊙ (1 − z_tj²)
    δs_{t-1} += (Σ_j δp_tj) W_aᵀ      δh_j += Σ_t (α_tj δctx_t + δp_tj U_aᵀ)      δv_a = Σ_tj δe_tj z_tj    (4)

These four functions run once per symbol of every string of every training, so they are loops that
numba compiles (:data:`chapter09.portable.JIT`: no ``fastmath``, so no sum is reordered and no
product is fused with a sum).  Each sum runs in the order the loop writes it, and σ, tanh and exp
are :mod:`chapter09.portable`'s: the same bits on every machine.  Inputs are trusted (the
callers are :mod:`chapter09.seq2seq`'s forward and backward passes).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .portable import JIT, exp1, sigmoid1, tanh1

__all__: list[str] = []


@njit(**JIT)
def lstm_step(x, bias, extra, h_prev, U, c_prev):
    """Equation (1) for every model and string: a = ((x + h U) + b) + extra, the sum over k in order;
    returns h, c and what the step back needs (i, f, o; g; tanh c)."""
    M, B, G = x.shape
    H = G // 4
    h, c, ifo = np.empty((M, B, H)), np.empty((M, B, H)), np.empty((M, B, 3 * H))
    g, tc, a = np.empty((M, B, H)), np.empty((M, B, H)), np.empty(G)
    for q in range(M):
        for b in range(B):
            a[:] = 0.0
            for k in range(H):
                hk = h_prev[q, b, k]
                for j in range(G):
                    a[j] += hk * U[q, k, j]
            for j in range(G):
                a[j] = ((x[q, b, j] + a[j]) + bias[q, j]) + extra[q, b, j]
            for j in range(3 * H):
                ifo[q, b, j] = sigmoid1(a[j])
            for j in range(H):
                g[q, b, j] = tanh1(a[3 * H + j])
                c[q, b, j] = ifo[q, b, H + j] * c_prev[q, b, j] + ifo[q, b, j] * g[q, b, j]
                tc[q, b, j] = tanh1(c[q, b, j])
                h[q, b, j] = ifo[q, b, 2 * H + j] * tc[q, b, j]
    return h, c, ifo, g, tc


@njit(**JIT)
def lstm_step_back(dh, dc, ifo, g, c_prev, tc, UT, factors, total):
    """Equation (2) for every model and string: δa, δc_{t-1} = f δc and δh_{t-1} = δa Uᵀ (sums in order),
    and the weights' gradient added to ``total`` in place: total += factorsᵀ δa, string after string."""
    M, B, H = dh.shape
    G = 4 * H
    d_pre, dc_prev, dh_prev = np.empty((M, B, G)), np.empty((M, B, H)), np.zeros((M, B, H))
    for q in range(M):
        for b in range(B):
            for j in range(H):
                i, f, o = ifo[q, b, j], ifo[q, b, H + j], ifo[q, b, 2 * H + j]
                c_grad = dc[q, b, j] + dh[q, b, j] * o * (1.0 - tc[q, b, j] * tc[q, b, j])
                d_pre[q, b, j] = c_grad * g[q, b, j] * i * (1.0 - i)
                d_pre[q, b, H + j] = c_grad * c_prev[q, b, j] * f * (1.0 - f)
                d_pre[q, b, 2 * H + j] = dh[q, b, j] * tc[q, b, j] * o * (1.0 - o)
                d_pre[q, b, 3 * H + j] = c_grad * i * (1.0 - g[q, b, j] * g[q, b, j])
                dc_prev[q, b, j] = c_grad * f
            for k in range(G):
                dk = d_pre[q, b, k]
                for j in range(H):
                    dh_prev[q, b, j] += dk * UT[q, k, j]
            for r in range(factors.shape[2]):
                fr = factors[q, b, r]
                for k in range(G):
                    total[q, r, k] += fr * d_pre[q, b, k]
    return d_pre, dc_prev, dh_prev


@njit(**JIT)
def attention_step(query, states, keys, v):
    """Equation (3) for every model and string: z = tanh(h_j U_a + s W_a), e_j = v·z_j, α = softmax(e),
    ctx = Σ_j α_j h_j; every sum in order."""
    M, B, T, H = states.shape
    z, alpha, context = np.empty((M, B, T, H)), np.empty((M, B, T)), np.zeros((M, B, H))
    for q in range(M):
        for b in range(B):
            top = -np.inf
            for t in range(T):
                for k in range(H):
                    z[q, b, t, k] = tanh1(keys[q, b, t, k] + query[q, b, k])
                e = 0.0
                for k in range(H):
                    e += z[q, b, t, k] * v[q, k]
                alpha[q, b, t] = e
                top = max(top, e)
            total = 0.0
            for t in range(T):
                alpha[q, b, t] = exp1(alpha[q, b, t] - top)
                total += alpha[q, b, t]
            for t in range(T):
                alpha[q, b, t] /= total
                for k in range(H):
                    context[q, b, k] += alpha[q, b, t] * states[q, b, t, k]
    return context, alpha, z


@njit(**JIT)
def attention_step_back(d_context, states, alpha, z, v, d_states, d_keys, d_v):
    """Equation (4) for every model and string: adds to ∂ℒ/∂h_j, ∂ℒ/∂(h_j U_a) and ∂ℒ/∂v_a in place,
    and returns ∂ℒ/∂(s W_a); every sum in order."""
    M, B, T, H = states.shape
    d_query, d_alpha = np.zeros((M, B, H)), np.empty(T)
    for q in range(M):
        for b in range(B):
            mean = 0.0
            for t in range(T):
                s = 0.0
                for k in range(H):
                    s += states[q, b, t, k] * d_context[q, b, k]
                d_alpha[t] = s
                mean += alpha[q, b, t] * s
            for t in range(T):
                de = alpha[q, b, t] * (d_alpha[t] - mean)
                for k in range(H):
                    zk = z[q, b, t, k]
                    d_pre = de * v[q, k] * (1.0 - zk * zk)
                    d_query[q, b, k] += d_pre
                    d_keys[q, b, t, k] += d_pre
                    d_states[q, b, t, k] += alpha[q, b, t] * d_context[q, b, k]
                    d_v[q, k] += de * zk
    return d_query
