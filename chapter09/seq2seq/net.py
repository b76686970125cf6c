"""The encoder–decoder of :mod:`chapter09.seq2seq`, compiled: one string forward and back, and a training.

A model's parameters are one flat vector ``θ``, block after block (:data:`BLOCKS`, starting at
:data:`AT`); a stack of ``M`` models is ``θ`` of shape ``(M, n)``.  The widths are constants (state
``H = 16``, ``V = 8`` symbols), so that the compiler knows every inner loop's length and keeps its
sums in registers: the same sums, in the same order, as a loop of unknown length.  Every model carries the attention's
blocks; in a model without attention they are never read, their gradient is 0 and Adam leaves them
as they are.  The cell, with row vectors, and Bahdanau et al. (2015)'s additive attention::

    [a_i a_f a_o a_g] = x_t W + h_{t-1} U + b  (+ ctx_t C)    i, f, o = σ(a_i, a_f, a_o),  g = tanh(a_g)
    c_t = f ⊙ c_{t-1} + i ⊙ g                                  h_t = o ⊙ tanh(c_t)                       (1)

    e_tj = v_a · tanh(s_{t-1} W_a + h_j U_a),    α_tj = softmax_j(e_tj),    ctx_t = Σ_j α_tj h_j    (2)

    logits_t = s_t W_out + b_out (+ ctx_t C_out),   ℓ = Σ_t w_t (ln Σ_k e^{logits_tk} − logits_t,y_t)   (3)

An input enters only through ``x W`` with ``x = E[symbol]``: ``x W`` is a row of the table ``E W``,
and the gradients of ``W`` and ``E`` come from ``S``, the sum of ``∂ℓ/∂(x W)`` per symbol:
``∂ℓ/∂W = Eᵀ S``, ``∂ℓ/∂E = S Wᵀ``.  Backpropagation through time, given ``δh = ∂ℓ/∂h_t`` (from the
output, the next step and, in the encoder, the attention) and ``δc = ∂ℓ/∂c_t``::

    δc ← δc + δh ⊙ o ⊙ (1 − tanh² c_t)
    δa = [δc ⊙ g ⊙ i(1−i),  δc ⊙ c_{t-1} ⊙ f(1−f),  δh ⊙ tanh(c_t) ⊙ o(1−o),  δc ⊙ i ⊙ (1−g²)]
    δh_{t-1} = δa Uᵀ,   δc_{t-1} = f ⊙ δc,   δU += h_{t-1}ᵀ δa,   δb += δa,   S[x_t] += δa            (4)

and for the attention, from ``δctx_t = δlogits_t C_outᵀ + δa_t C_decᵀ``, with ``z_tj = tanh(…)`` of (2)::

    δα_tj = h_j · δctx_t      δe_tj = α_tj (δα_tj − Σ_k α_tk δα_tk)       δp_tj = δe_tj v_a ⊙ (1 − z_tj²)
    δs_{t-1} += (Σ_j δp_tj) W_aᵀ      δh_j += α_tj δctx_t + δp_tj U_aᵀ      δv_a += Σ_j δe_tj z_tj      (5)

Every sum runs in the order its loop is written (strings in order, time backwards), numba compiles
without ``fastmath`` (:data:`chapter09.portable.JIT`: no reordering, no fused multiply–add), and σ,
tanh, exp and ln are :mod:`chapter09.portable`'s: a training gives the same bits on every machine.
Inputs are trusted: the callers are :mod:`chapter09.seq2seq.training` and :mod:`chapter09.seq2seq.sweep`, and
symbols are int8 (each function is compiled once, for those types).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..portable import JIT, exp1, log1, sigmoid1, tanh1
from .task import V

__all__: list[str] = []

H = 16  # the state's width (and the embeddings' and the attention's)
G = 4 * H  # the gates' pre-activations
SHAPES = {
    "E_src": (V, H), "E_tgt": (V + 1, H), "W_enc": (H, G), "U_enc": (H, G), "b_enc": (G,),
    "W_dec": (H, G), "U_dec": (H, G), "b_dec": (G,), "W_out": (H, V), "b_out": (V,),
    "C_dec": (H, G), "C_out": (H, V), "W_a": (H, H), "U_a": (H, H), "v_a": (H,),
}  # fmt: skip
BLOCKS = tuple(SHAPES)  # the last five are the attention's, read only by a model that attends
ATTENTION = BLOCKS[-5:]
AT = np.cumsum([0] + [int(np.prod(shape)) for shape in SHAPES.values()])  # where each block starts; θ's length
SIZE = int(AT[-1])
E_SRC, E_TGT, W_ENC, U_ENC, B_ENC, W_DEC, U_DEC, B_DEC, W_OUT, B_OUT, C_DEC, C_OUT, W_A, U_A, V_A = range(15)


ROWS = np.array([shape[0] for shape in SHAPES.values()])


@njit("float64[:, ::1](float64[::1], int64)", **JIT)  # one signature: not one per block number
def _matrix(theta, k):
    """Block ``k`` of θ as its matrix (a view: writing it writes θ)."""
    return theta[AT[k] : AT[k + 1]].reshape(ROWS[k], -1)


@njit("float64[::1](float64[::1], int64)", **JIT)
def _vector(theta, k):
    """Block ``k`` of θ, a vector (a view)."""
    return theta[AT[k] : AT[k + 1]]


@njit(**JIT)
def _fill(out, value):
    """out[:] = value, written as a loop (a slice assignment compiles a broadcasting kernel per type)."""
    for j in range(out.size):
        out[j] = value


@njit(**JIT)
def _copy(out, x):
    """out[:] = x for vectors of one length."""
    for j in range(out.size):
        out[j] = x[j]


@njit(**JIT)
def _times(x, w, out):
    """out = x w for a row vector x and a matrix w, the sum over k in order.  Eight terms are added per
    pass over ``out`` (the same additions, in the same order): one load and one store of ``out[j]``
    for eight rows instead of one for each, which is what the loop's time goes to."""
    _fill(out, 0.0)
    rows, k = w.shape[0], 0
    while k + 8 <= rows:
        x0, x1, x2, x3, x4, x5, x6, x7 = x[k], x[k + 1], x[k + 2], x[k + 3], x[k + 4], x[k + 5], x[k + 6], x[k + 7]
        for j in range(w.shape[1]):
            t = (((out[j] + x0 * w[k, j]) + x1 * w[k + 1, j]) + x2 * w[k + 2, j]) + x3 * w[k + 3, j]
            out[j] = (((t + x4 * w[k + 4, j]) + x5 * w[k + 5, j]) + x6 * w[k + 6, j]) + x7 * w[k + 7, j]
        k += 8
    for r in range(k, rows):
        xr = x[r]
        for j in range(w.shape[1]):
            out[j] += xr * w[r, j]


@njit(**JIT)
def _add_outer(x, d, total):
    """total += xᵀ d (a weight's gradient, one string and one step)."""
    for k in range(total.shape[0]):
        xk = x[k]
        for j in range(total.shape[1]):
            total[k, j] += xk * d[j]


@njit(**JIT)
def _add_outers(xs, ds, total):
    """total += Σ_t xsₜᵀ dsₜ, t from the last row to the first (the order the backward pass meets them),
    four rows per pass over ``total``: the same additions, in the same order, with a quarter of the
    loads and stores of ``total`` that one :func:`_add_outer` per step makes."""
    t = xs.shape[0] - 1
    while t >= 3:
        for k in range(total.shape[0]):
            a0, a1, a2, a3 = xs[t, k], xs[t - 1, k], xs[t - 2, k], xs[t - 3, k]
            for j in range(total.shape[1]):
                e = ((total[k, j] + a0 * ds[t, j]) + a1 * ds[t - 1, j]) + a2 * ds[t - 2, j]
                total[k, j] = e + a3 * ds[t - 3, j]
        t -= 4
    while t >= 0:
        _add_outer(xs[t], ds[t], total)
        t -= 1


@njit(**JIT)
def _cell(a, c_prev, ifo, g, c, tc, h):
    """(1) from the pre-activations ``a``: i, f, o, g, c_t, tanh c_t and h_t, written in place."""
    n = c.size
    for j in range(3 * n):
        ifo[j] = sigmoid1(a[j])
    for j in range(n):
        g[j] = tanh1(a[3 * n + j])
        c[j] = ifo[n + j] * c_prev[j] + ifo[j] * g[j]
    for j in range(n):
        tc[j] = tanh1(c[j])
        h[j] = ifo[2 * n + j] * tc[j]


@njit(**JIT)
def _cell_back(dh, dc, ifo, g, c_prev, tc, d_pre, dc_prev):
    """(4): δa and δc_{t-1} from δh and δc."""
    n = dh.size
    for j in range(n):
        i, f, o = ifo[j], ifo[n + j], ifo[2 * n + j]
        c_grad = dc[j] + dh[j] * o * (1.0 - tc[j] * tc[j])
        d_pre[j] = c_grad * g[j] * i * (1.0 - i)
        d_pre[n + j] = c_grad * c_prev[j] * f * (1.0 - f)
        d_pre[2 * n + j] = dh[j] * tc[j] * o * (1.0 - o)
        d_pre[3 * n + j] = c_grad * i * (1.0 - g[j] * g[j])
        dc_prev[j] = c_grad * f


@njit(**JIT)
def _attend(query, states, keys, v, z, alpha, context):
    """(2) for one decoder step: z, α and ctx, written in place."""
    t_in, n = states.shape
    for j in range(t_in):
        for k in range(n):
            z[j, k] = tanh1(keys[j, k] + query[k])
    _fill(alpha, 0.0)
    for k in range(0, n, 4):  # e_j = Σ_k z_jk v_k, k in order (four at a time: n = H), the positions j side by side
        for j in range(t_in):
            e = ((alpha[j] + z[j, k] * v[k]) + z[j, k + 1] * v[k + 1]) + z[j, k + 2] * v[k + 2]
            alpha[j] = e + z[j, k + 3] * v[k + 3]
    top = alpha.max()
    total = 0.0
    for j in range(t_in):
        alpha[j] = exp1(alpha[j] - top)
        total += alpha[j]
    _fill(context, 0.0)
    for j in range(t_in):
        alpha[j] /= total
        for k in range(n):
            context[k] += alpha[j] * states[j, k]


@njit(**JIT)
def _attend_back(d_context, states, alpha, z, v, d_query, d_keys, d_states, d_v):
    """(5) for one decoder step: δquery (written in place), and δkeys, δh_j, δv_a added to."""
    t_in, n = states.shape
    d_alpha = np.zeros(t_in)
    for k in range(0, n, 4):  # δα_j = Σ_k h_jk δctx_k, k in order (four at a time), the positions j side by side
        for j in range(t_in):
            e = ((d_alpha[j] + states[j, k] * d_context[k]) + states[j, k + 1] * d_context[k + 1]) + states[
                j, k + 2
            ] * d_context[k + 2]
            d_alpha[j] = e + states[j, k + 3] * d_context[k + 3]
    mean = 0.0
    for j in range(t_in):
        mean += alpha[j] * d_alpha[j]
    _fill(d_query, 0.0)
    for j in range(t_in):
        de = alpha[j] * (d_alpha[j] - mean)
        for k in range(n):
            d_pre = de * v[k] * (1.0 - z[j, k] * z[j, k])
            d_query[k] += d_pre
            d_keys[j, k] += d_pre
            d_states[j, k] += alpha[j] * d_context[k]
            d_v[k] += de * z[j, k]


@njit(**JIT)
def _softmax_loss(logits, target, weight, d_logits):
    """(3) for one step: w (ln Σ e^logits − logits_y), and its gradient w (p − onehot_y) in place."""
    top = logits.max()
    total = 0.0
    for k in range(logits.size):
        d_logits[k] = exp1(logits[k] - top)
        total += d_logits[k]
    for k in range(logits.size):
        d_logits[k] = weight * (d_logits[k] / total - (1.0 if k == target else 0.0))
    return weight * (log1(total) - (logits[target] - top))


# --- one string forward and back ---------------------------------------------------------------------


@njit(**JIT)
def new_trace(t_in, t_out):
    """Empty arrays for :func:`forward`, for strings ``t_in`` and ``t_out`` long."""
    e = np.empty
    return (
        np.zeros((t_in + 1, H)), np.zeros((t_in + 1, H)), e((t_in, 3 * H)), e((t_in, H)), e((t_in, H)),
        e((t_in, H)), e((t_out + 1, H)), e((t_out + 1, H)), e((t_out, 3 * H)), e((t_out, H)), e((t_out, H)),
        e((t_out, t_in, H)), e((t_out, t_in)), np.zeros((t_out, H)), e((t_out, V)), e(t_out, np.int64),
    )  # fmt: skip


@njit(**JIT)
def tables(theta):
    """E_src W_enc and E_tgt W_dec: the row x W of every symbol."""
    in_table, out_table = np.empty((V, G)), np.empty((V + 1, G))
    E_src, E_tgt, W_enc, W_dec = (
        _matrix(theta, E_SRC),
        _matrix(theta, E_TGT),
        _matrix(theta, W_ENC),
        _matrix(theta, W_DEC),
    )
    for r in range(V):
        _times(E_src[r], W_enc, in_table[r])
    for r in range(V + 1):
        _times(E_tgt[r], W_dec, out_table[r])
    return in_table, out_table


@njit(**JIT)
def forward(theta, attend, in_table, out_table, source, inputs, greedy, trace):
    """(1)–(3) for one string: the encoder over ``source``, then the decoder on ``inputs`` (teacher
    forcing) or, if ``greedy``, on its own argmax after GO (``inputs[0]``).  Fills ``trace``."""
    h_enc, c_enc, ifo_e, g_e, tc_e, keys, s, c_dec, ifo_d, g_d, tc_d, z, alpha, ctx, logits, read = trace
    a, extra, query, out = np.empty(G), np.empty(G), np.empty(H), np.empty(V)
    U_enc, b_enc = _matrix(theta, U_ENC), _vector(theta, B_ENC)
    for j in range(source.size):
        _times(h_enc[j], U_enc, a)
        for k in range(G):
            a[k] = (in_table[source[j], k] + a[k]) + b_enc[k]
        _cell(a, c_enc[j], ifo_e[j], g_e[j], c_enc[j + 1], tc_e[j], h_enc[j + 1])
    states = h_enc[1:]
    if attend:
        U_a, W_a, v_a = _matrix(theta, U_A), _matrix(theta, W_A), _vector(theta, V_A)
        C_dec, C_out = _matrix(theta, C_DEC), _matrix(theta, C_OUT)
        for j in range(source.size):
            _times(states[j], U_a, keys[j])
    U_dec, b_dec, W_out, b_out = (
        _matrix(theta, U_DEC),
        _vector(theta, B_DEC),
        _matrix(theta, W_OUT),
        _vector(theta, B_OUT),
    )
    _copy(s[0], h_enc[-1])
    _copy(c_dec[0], c_enc[-1])
    token = inputs[0]
    for t in range(logits.shape[0]):
        read[t] = token if greedy else inputs[t]
        _times(s[t], U_dec, a)
        if attend:
            _times(s[t], W_a, query)
            _attend(query, states, keys, v_a, z[t], alpha[t], ctx[t])
            _times(ctx[t], C_dec, extra)
            for k in range(G):
                a[k] = ((out_table[read[t], k] + a[k]) + b_dec[k]) + extra[k]
        else:
            for k in range(G):
                a[k] = (out_table[read[t], k] + a[k]) + b_dec[k]
        _cell(a, c_dec[t], ifo_d[t], g_d[t], c_dec[t + 1], tc_d[t], s[t + 1])
        _times(s[t + 1], W_out, logits[t])
        if attend:
            _times(ctx[t], C_out, out)
            for k in range(V):
                logits[t, k] = (logits[t, k] + b_out[k]) + out[k]
        else:
            for k in range(V):
                logits[t, k] += b_out[k]
        token = np.argmax(logits[t])


@njit(**JIT)
def transposed(theta):
    """The matrices the backward pass multiplies by on the right, transposed and contiguous (x Wᵀ then
    runs as x times a matrix: the same sums, in the same order, on whole rows)."""
    return (
        np.ascontiguousarray(_matrix(theta, U_ENC).T),
        np.ascontiguousarray(_matrix(theta, W_ENC).T),
        np.ascontiguousarray(_matrix(theta, U_DEC).T),
        np.ascontiguousarray(_matrix(theta, W_DEC).T),
        np.ascontiguousarray(_matrix(theta, W_OUT).T),
        np.ascontiguousarray(_matrix(theta, C_DEC).T),
        np.ascontiguousarray(_matrix(theta, C_OUT).T),
        np.ascontiguousarray(_matrix(theta, W_A).T),
        np.ascontiguousarray(_matrix(theta, U_A).T),
    )


@njit(**JIT)
def backward(theta, attend, source, targets, weights, trace, grad, s_in, s_out, d_pre_enc, tr):
    """(3)–(5) for one string traced by :func:`forward`: adds ``∂ℓ/∂θ`` to ``grad``, but the embeddings'
    and the input weights', whose ``∂ℓ/∂(x W)`` goes to ``s_in`` and ``s_out`` (S, per symbol); writes
    ``∂ℓ/∂(x_j W_enc)`` to ``d_pre_enc``; returns ℓ."""
    h_enc, c_enc, ifo_e, g_e, tc_e, _, s, c_dec, ifo_d, g_d, tc_d, z, alpha, ctx, logits, read = trace
    t_in, t_out = source.size, logits.shape[0]
    U_enc_T, _, U_dec_T, _, W_out_T, C_dec_T, C_out_T, W_a_T, U_a_T = tr
    dW_out, db_out, dU_dec, db_dec = (
        _matrix(grad, W_OUT),
        _vector(grad, B_OUT),
        _matrix(grad, U_DEC),
        _vector(grad, B_DEC),
    )
    v_a, dC_dec, dC_out = _vector(theta, V_A), _matrix(grad, C_DEC), _matrix(grad, C_OUT)
    dW_a, dU_a, dv_a = _matrix(grad, W_A), _matrix(grad, U_A), _vector(grad, V_A)
    d_keys, d_states = np.zeros((t_in, H)), np.zeros((t_in, H))
    d_logits, d_pre_dec, d_ctx, d_query = np.empty(V), np.empty((t_out, G)), np.empty(H), np.empty(H)
    ds, dc, dh, back, dc_prev = np.zeros(H), np.zeros(H), np.empty(H), np.empty(H), np.empty(H)
    loss = 0.0
    for t in range(t_out - 1, -1, -1):
        loss += _softmax_loss(logits[t], targets[t], weights[t], d_logits)
        _add_outer(s[t + 1], d_logits, dW_out)
        for k in range(V):
            db_out[k] += d_logits[k]
        _times(d_logits, W_out_T, dh)
        for k in range(H):
            dh[k] += ds[k]
        d_pre = d_pre_dec[t]
        _cell_back(dh, dc, ifo_d[t], g_d[t], c_dec[t], tc_d[t], d_pre, dc_prev)
        for k in range(G):
            db_dec[k] += d_pre[k]
            s_out[read[t], k] += d_pre[k]
        _times(d_pre, U_dec_T, ds)
        if attend:
            _add_outer(ctx[t], d_logits, dC_out)
            _times(d_logits, C_out_T, d_ctx)
            _times(d_pre, C_dec_T, back)
            for k in range(H):
                d_ctx[k] += back[k]
            _attend_back(d_ctx, h_enc[1:], alpha[t], z[t], v_a, d_query, d_keys, d_states, dv_a)
            _add_outer(s[t], d_query, dW_a)
            _times(d_query, W_a_T, back)
            for k in range(H):
                ds[k] += back[k]
        _copy(dc, dc_prev)
    _add_outers(s[:t_out], d_pre_dec, dU_dec)  # δU += s_tᵀ δa_t, t backwards (4)
    if attend:
        _add_outers(ctx, d_pre_dec, dC_dec)
        for j in range(t_in):
            _add_outer(h_enc[j + 1], d_keys[j], dU_a)
            _times(d_keys[j], U_a_T, back)
            for k in range(H):
                d_states[j, k] += back[k]
    dU_enc, db_enc = _matrix(grad, U_ENC), _vector(grad, B_ENC)
    for j in range(t_in - 1, -1, -1):
        for k in range(H):
            dh[k] = ds[k] + d_states[j, k]  # h_j reaches the loss through the attention too
        _cell_back(dh, dc, ifo_e[j], g_e[j], c_enc[j], tc_e[j], d_pre_enc[j], dc_prev)
        for k in range(G):
            db_enc[k] += d_pre_enc[j, k]
            s_in[source[j], k] += d_pre_enc[j, k]
        _times(d_pre_enc[j], U_enc_T, ds)
        _copy(dc, dc_prev)
    _add_outers(h_enc[:t_in], d_pre_enc[:t_in], dU_enc)
    return loss


# --- a batch, a training, a test ---------------------------------------------------------------------


@njit(**JIT)
def gradient(theta, attend, sources, inputs, targets, weights, grad, d_pre_enc):
    """One model's loss Σ_b ℓ_b over a batch, and its gradient in ``grad`` (set, not added), string
    after string; ``d_pre_enc`` (B, T_in, G) gets each string's ∂ℓ/∂(x_j W_enc)."""
    in_table, out_table = tables(theta)
    tr = transposed(theta)
    _fill(grad, 0.0)
    s_in, s_out = np.zeros((V, G)), np.zeros((V + 1, G))
    trace = new_trace(sources.shape[1], targets.shape[1])
    loss = 0.0
    greedy = sources.size < 0  # False, as a value, not a constant: forward compiles once for both callers
    for b in range(sources.shape[0]):
        forward(theta, attend, in_table, out_table, sources[b], inputs[b], greedy, trace)
        loss += backward(theta, attend, sources[b], targets[b], weights[b], trace, grad, s_in, s_out, d_pre_enc[b], tr)
    E_src, E_tgt, W_enc_T, W_dec_T = _matrix(theta, E_SRC), _matrix(theta, E_TGT), tr[1], tr[3]
    dE_src, dE_tgt, dW_enc, dW_dec = (
        _matrix(grad, E_SRC),
        _matrix(grad, E_TGT),
        _matrix(grad, W_ENC),
        _matrix(grad, W_DEC),
    )
    for r in range(V):  # ∂ℓ/∂W = Eᵀ S, ∂ℓ/∂E = S Wᵀ
        _add_outer(E_src[r], s_in[r], dW_enc)
        _times(s_in[r], W_enc_T, dE_src[r])
    for r in range(V + 1):
        _add_outer(E_tgt[r], s_out[r], dW_dec)
        _times(s_out[r], W_dec_T, dE_tgt[r])
    return loss


@njit(**JIT)
def clip_norm(grad, limit):
    """Rescale ``grad`` in place to norm ``limit`` when it is longer (Pascanu et al. 2013); its norm before."""
    squares = 0.0
    for i in range(grad.size):
        squares += grad[i] * grad[i]
    norm = np.sqrt(squares)
    if norm > limit:
        scale = limit / norm
        for i in range(grad.size):
            grad[i] *= scale
    return norm


@njit(**JIT)
def train_steps(thetas, firsts, seconds, powers, attend, active, sources, inputs, targets, hyper, losses):
    """Adam steps of the models ``active`` of a stack, in place, one batch per step: each model's
    gradient (:func:`gradient`), rescaled to norm ``clip`` when longer (Pascanu et al. 2013), then
    Adam (Kingma & Ba 2015) with ``powers[q]`` = (β₁ᵗ, β₂ᵗ) kept by products.  ``hyper`` = (lr, β₁, β₂,
    clip, ε); ``losses[step, q]`` gets each batch's mean loss before its update."""
    lr, beta1, beta2, clip, eps = hyper
    batch, t_in, t_out = sources.shape[2], sources.shape[3], targets.shape[3]
    weights = np.full((batch, t_out), 1.0 / (batch * t_out))
    grad, d_pre = np.empty(SIZE), np.empty((batch, t_in, G))
    for step in range(sources.shape[0]):
        for q in range(thetas.shape[0]):
            if not active[q]:
                continue
            losses[step, q] = gradient(
                thetas[q], attend[q], sources[step, q], inputs[step, q], targets[step, q], weights, grad, d_pre
            )
            clip_norm(grad, clip)
            powers[q, 0] *= beta1
            powers[q, 1] *= beta2
            for i in range(SIZE):
                firsts[q, i] = beta1 * firsts[q, i] + (1 - beta1) * grad[i]
                seconds[q, i] = beta2 * seconds[q, i] + (1 - beta2) * grad[i] * grad[i]
                step_size = lr * (firsts[q, i] / (1 - powers[q, 0]))
                thetas[q, i] -= step_size / (np.sqrt(seconds[q, i] / (1 - powers[q, 1])) + eps)


@njit(**JIT)
def predict(theta, attend, sources, inputs, targets, greedy, alpha):
    """Each string's outputs (N, T_out), the argmax at each step, reading ``inputs`` (teacher forcing) or,
    if ``greedy``, its own previous choice; and the mean loss per symbol of ``targets``.  ``alpha``
    (N, T_out, T_in) gets the attention's weights (pass an empty array not to keep them)."""
    in_table, out_table = tables(theta)
    t_out = inputs.shape[1]
    trace, d_logits = new_trace(sources.shape[1], t_out), np.empty(V)
    out, loss = np.empty(inputs.shape, np.int64), 0.0
    for b in range(sources.shape[0]):
        forward(theta, attend, in_table, out_table, sources[b], inputs[b], greedy, trace)
        for t in range(t_out):
            out[b, t] = np.argmax(trace[14][t])
            loss += _softmax_loss(trace[14][t], targets[b, t], 1.0, d_logits)
        if attend and alpha.size:
            for t in range(alpha.shape[1]):
                _copy(alpha[b, t], trace[12][t])
    return out, loss / targets.size
