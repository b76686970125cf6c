"""The next-symbol networks of :mod:`chapter09.language`, compiled: three cells that read a string and predict
each symbol from the ones before it, forward and back, with the gradient cut every ``T`` steps.

A model reads ``u_0 = GO`` (symbol ``V``), then ``u_t = x_{t−1}``; after reading ``u_t`` its state ``h_t``
predicts ``x_t``.  ``W[u]`` is row ``u`` of the input table (a one-hot input times ``W``), vectors are rows,
and a string starts from ``h = c = 0``::

    RNN (page 01)       h_t = tanh(W[u_t] + h_{t−1} U + b)                                                 (1)

    GRU (Cho et al.     [a_z a_r] = W_zr[u_t] + h_{t−1} U + b_zr           z_t, r_t = σ(a_z), σ(a_r)
    2014a)              n_t = tanh(W_n[u_t] + (r_t ⊙ h_{t−1}) U_n + b_n)
                        h_t = z_t ⊙ h_{t−1} + (1 − z_t) ⊙ n_t                                                 (2)

    LSTM (page 02)      [a_i a_f a_o a_g] = W[u_t] + h_{t−1} U + b        i, f, o = σ(…),  g = tanh(a_g)
                        c_t = f ⊙ c_{t−1} + i ⊙ g                          h_t = o ⊙ tanh(c_t)                (3)

    every cell          logits_t = h_t W_out + b_out,     ℓ = Σ_t w_t (ln Σ_s e^{logits_ts} − logits_t,x_t)   (4)

In (2) the state's own path is ``∂h_t/∂h_{t−1} = diag(z_t) + …`` (the rest through the gates and ``n_t``): the
update gate plays the part of the LSTM's forget gate, whose cell path is ``∂c_t/∂c_{t−1} = diag(f_t)``.

**Backward**, given ``δh = ∂ℓ/∂h_t`` (from the output and from step ``t + 1``)::

    RNN    δa = δh ⊙ (1 − h_t²)                           δh_{t−1} = δa Uᵀ
    GRU    δa_z = δh ⊙ (h_{t−1} − n_t) ⊙ z(1 − z)         δa_n = δh ⊙ (1 − z) ⊙ (1 − n²)       δm = δa_n U_nᵀ
           δa_r = δm ⊙ h_{t−1} ⊙ r(1 − r)                 δh_{t−1} = δh ⊙ z + δm ⊙ r + [δa_z δa_r] Uᵀ
    LSTM   δc ← δc + δh ⊙ o ⊙ (1 − tanh² c_t)             δa = [δc ⊙ g ⊙ i(1−i), δc ⊙ c_{t−1} ⊙ f(1−f),
           δh ⊙ tanh c_t ⊙ o(1−o), δc ⊙ i ⊙ (1−g²)]        δh_{t−1} = δa Uᵀ,  δc_{t−1} = f ⊙ δc
    all    δW[u_t] += δa    δb += δa    δU += h_{t−1}ᵀ δa  (GRU: [δa_z δa_r]; and δU_n += (r ⊙ h_{t−1})ᵀ δa_n)  (5)

**Truncation.**  A batch of strings is read in windows of ``T`` symbols.  Each window starts from the state the
one before it ended in (the forward pass is the whole string's), but its backward pass starts from
``δh_T = δc_T = 0``: no gradient crosses a window's edge, and Adam steps after every window (Williams & Peng
1990; Karpathy's min-char-rnn reads windows of 25).  ``T = L`` is backpropagation through the whole string.

The strings of a batch lie side by side, each in its own lane (the last axis), as in
:mod:`chapter09.transformer.layers`, whose products this module uses; a gradient keeps each string's share in
its lane and adds the shares in string order.  Every sum runs in the order its loop is written, without
``fastmath``; σ, tanh, exp and ln are :mod:`chapter09.portable`'s: a training gives the same bits on every
machine.  Inputs are trusted (the caller is :mod:`chapter09.language.training`).
"""

from __future__ import annotations

import numba
import numpy as np
from numba import njit

from ..common import built_dir
from ..portable import JIT, sigmoid1, tanh1
from ..transformer.layers import add_outer, add_times_t, softmax_loss, times
from ..transformer.net import adam, add_lanes

__all__: list[str] = []

# Compiled in a folder named after this file's sources and all it calls (numba checks its own file only).
OUTER_CACHE, numba.config.CACHE_DIR = numba.config.CACHE_DIR, str(built_dir("chapter09.language.net", "numba"))

H = 16  # the state's width
CELLS = ("rnn", "gru", "lstm")
RNN, GRU, LSTM = range(3)
WIDTH = (H, 3 * H, 4 * H)  # each cell's pre-activations: a; [a_z a_r a_n]; [a_i a_f a_o a_g]
BLOCKS = ("W", "U", "U_n", "b", "W_out", "b_out")  # U_n is the GRU's only (0 columns in the others)
W_IN, U_REC, U_N, BIAS, W_OUT, B_OUT = range(6)


def layout(cell: int, V: int) -> tuple[np.ndarray, int]:
    """Where each block lies in θ, (start, rows, columns) per row of :data:`BLOCKS`, and θ's length."""
    G = WIDTH[cell]
    shapes = np.array([(V + 1, G), (H, 2 * H if cell == GRU else G), (H, H if cell == GRU else 0), (1, G), (H, V),
                       (1, V)])  # fmt: skip
    ends = np.cumsum(shapes[:, 0] * shapes[:, 1])
    return np.column_stack([ends - shapes[:, 0] * shapes[:, 1], shapes]).astype(np.int64), int(ends[-1])


@njit(**JIT)
def _block(theta, at, k):
    """Block ``k`` of θ as its matrix (a view)."""
    start, rows, cols = at[k, 0], at[k, 1], at[k, 2]
    return theta[start : start + rows * cols].reshape(rows, cols)


@njit(**JIT)
def _lane_block(lanes, at, k):
    """Block ``k`` of a gradient kept in lanes (size, strings), as (rows, columns, strings) (a view)."""
    start, rows, cols = at[k, 0], at[k, 1], at[k, 2]
    return lanes[start : start + rows * cols].reshape(rows, cols, lanes.shape[1])


@njit(**JIT)
def new_trace(steps, strings, G, V):
    """Empty arrays for :func:`forward`: h, c (steps + 1, H, strings); the gates after their nonlinearity
    (steps, G, strings); tanh c_t and r ⊙ h_{t−1} (steps, H, strings); the logits (steps, V, strings)."""
    e = np.empty
    return (np.zeros((steps + 1, H, strings)), np.zeros((steps + 1, H, strings)), e((steps, G, strings)),
            e((steps, H, strings)), e((steps, H, strings)), e((steps, V, strings)))  # fmt: skip


@njit(**JIT)
def forward(cell, theta, at, inputs, trace):
    """(1)–(4) over one window of every string, from the state in ``trace``'s first rows: fills ``trace``."""
    h, c, act, tc, m, logits = trace
    W, U, U_n, b = _block(theta, at, W_IN), _block(theta, at, U_REC), _block(theta, at, U_N), _block(theta, at, BIAS)
    W_out, b_out = _block(theta, at, W_OUT), _block(theta, at, B_OUT)
    strings = inputs.shape[1]
    a, n_in = np.empty((U.shape[1], strings)), np.empty((H, strings))
    for t in range(inputs.shape[0]):
        u = inputs[t]
        times(h[t], U, a)
        if cell == RNN:
            for k in range(H):
                for s in range(strings):
                    act[t, k, s] = tanh1((W[u[s], k] + a[k, s]) + b[0, k])
                    h[t + 1, k, s] = act[t, k, s]
        elif cell == GRU:
            for k in range(2 * H):
                for s in range(strings):
                    act[t, k, s] = sigmoid1((W[u[s], k] + a[k, s]) + b[0, k])
            for k in range(H):
                for s in range(strings):
                    m[t, k, s] = act[t, H + k, s] * h[t, k, s]
            times(m[t], U_n, n_in)
            for k in range(H):
                for s in range(strings):
                    n = tanh1((W[u[s], 2 * H + k] + n_in[k, s]) + b[0, 2 * H + k])
                    z = act[t, k, s]
                    act[t, 2 * H + k, s] = n
                    h[t + 1, k, s] = z * h[t, k, s] + (1.0 - z) * n
        else:
            for k in range(3 * H):
                for s in range(strings):
                    act[t, k, s] = sigmoid1((W[u[s], k] + a[k, s]) + b[0, k])
            for k in range(H):
                for s in range(strings):
                    g = tanh1((W[u[s], 3 * H + k] + a[3 * H + k, s]) + b[0, 3 * H + k])
                    act[t, 3 * H + k, s] = g
                    c[t + 1, k, s] = act[t, H + k, s] * c[t, k, s] + act[t, k, s] * g
                    tc[t, k, s] = tanh1(c[t + 1, k, s])
                    h[t + 1, k, s] = act[t, 2 * H + k, s] * tc[t, k, s]
        times(h[t + 1], W_out, logits[t])
        for k in range(logits.shape[1]):
            for s in range(strings):
                logits[t, k, s] += b_out[0, k]


@njit(**JIT)
def backward(cell, theta, at, inputs, targets, weights, trace, lanes, losses):
    """(4)–(5) over the window traced by :func:`forward`, from δh = δc = 0 at its end: each string's ∂ℓ/∂θ added
    to its lane of ``lanes`` (size, strings), its ℓ to ``losses``."""
    h, c, act, tc, m, logits = trace
    U, U_n, W_out = _block(theta, at, U_REC), _block(theta, at, U_N), _block(theta, at, W_OUT)
    dW, dU, dU_n, db = (_lane_block(lanes, at, W_IN), _lane_block(lanes, at, U_REC), _lane_block(lanes, at, U_N),
                        _lane_block(lanes, at, BIAS))  # fmt: skip
    dW_out, db_out = _lane_block(lanes, at, W_OUT), _lane_block(lanes, at, B_OUT)
    steps, strings = inputs.shape
    G, gu = act.shape[1], U.shape[1]
    dh, dc, dm = np.zeros((H, strings)), np.zeros((H, strings)), np.empty((H, strings))
    da, d_logits = np.empty((G, strings)), np.empty((logits.shape[1], strings))
    for t in range(steps - 1, -1, -1):
        u = inputs[t]
        softmax_loss(logits[t], targets[t], weights[t], d_logits, losses)
        add_outer(h[t + 1], d_logits, dW_out)
        for k in range(d_logits.shape[0]):
            for s in range(strings):
                db_out[0, k, s] += d_logits[k, s]
        add_times_t(d_logits, W_out, dh)
        if cell == RNN:
            for k in range(H):
                for s in range(strings):
                    da[k, s] = dh[k, s] * (1.0 - h[t + 1, k, s] * h[t + 1, k, s])
                    dh[k, s] = 0.0
        elif cell == GRU:
            for k in range(H):
                for s in range(strings):
                    z, n = act[t, k, s], act[t, 2 * H + k, s]
                    da[k, s] = dh[k, s] * (h[t, k, s] - n) * z * (1.0 - z)
                    da[2 * H + k, s] = dh[k, s] * (1.0 - z) * (1.0 - n * n)
            dm[:] = 0.0
            add_times_t(da[2 * H :], U_n, dm)
            add_outer(m[t], da[2 * H :], dU_n)
            for k in range(H):
                for s in range(strings):
                    r = act[t, H + k, s]
                    da[H + k, s] = dm[k, s] * h[t, k, s] * r * (1.0 - r)
                    dh[k, s] = dh[k, s] * act[t, k, s] + dm[k, s] * r
        else:
            for k in range(H):
                for s in range(strings):
                    i, f, o, g = act[t, k, s], act[t, H + k, s], act[t, 2 * H + k, s], act[t, 3 * H + k, s]
                    c_grad = dc[k, s] + dh[k, s] * o * (1.0 - tc[t, k, s] * tc[t, k, s])
                    da[k, s] = c_grad * g * i * (1.0 - i)
                    da[H + k, s] = c_grad * c[t, k, s] * f * (1.0 - f)
                    da[2 * H + k, s] = dh[k, s] * tc[t, k, s] * o * (1.0 - o)
                    da[3 * H + k, s] = c_grad * i * (1.0 - g * g)
                    dc[k, s] = c_grad * f
                    dh[k, s] = 0.0
        add_times_t(da[:gu], U, dh)  # δh_{t−1}
        add_outer(h[t], da[:gu], dU)
        for k in range(G):
            for s in range(strings):
                db[0, k, s] += da[k, s]
                dW[u[s], k, s] += da[k, s]


def inputs_of(strings: np.ndarray, V: int) -> np.ndarray:
    """What the model reads, (L, strings): GO, then each string shifted one step right."""
    go = np.full((1, strings.shape[0]), V, np.int64)
    return np.concatenate([go, strings[:, :-1].T.astype(np.int64)])


def window_gradient(cell, theta, at, inputs, targets, weights, trace, lanes, grad) -> float:
    """One window's loss Σ_s w ℓ_s and its gradient in ``grad`` (set), from the state in ``trace``'s first rows,
    held fixed: the truncated gradient."""
    lanes[:] = 0.0
    losses = np.zeros(inputs.shape[1])
    forward(cell, theta, at, inputs, trace)
    backward(cell, theta, at, inputs, targets, weights, trace, lanes, losses)
    return add_lanes(lanes, losses, grad)


def train_steps(cell, at, thetas, firsts, seconds, powers, batches, window, hyper, losses) -> None:
    """Adam steps of a stack of models of one cell, in place: model q reads ``batches[step, q]`` (strings, L)
    window by window, its state carried from one window to the next, one Adam step
    (:func:`chapter09.transformer.net.adam`) after each; ``losses[step, q]`` gets the batch's mean loss per
    symbol before its updates."""
    strings, length = batches.shape[2], batches.shape[3]
    V, G = int(at[B_OUT, 2]), WIDTH[cell]
    weights = np.full((window, strings), 1.0 / (strings * window))
    size = thetas.shape[1]
    trace, lanes, grad = new_trace(window, strings, G, V), np.empty((size, strings)), np.empty(size)
    for step in range(batches.shape[0]):
        for q in range(thetas.shape[0]):
            inputs, targets = inputs_of(batches[step, q], V), np.ascontiguousarray(batches[step, q].T.astype(np.int64))
            trace[0][0], trace[1][0] = 0.0, 0.0  # a string starts from h = c = 0
            total = 0.0
            for start in range(0, length, window):
                part = slice(start, start + window)
                total += window_gradient(cell, thetas[q], at, inputs[part], targets[part], weights, trace, lanes, grad)
                trace[0][0], trace[1][0] = trace[0][window], trace[1][window]  # carried forward
                adam(thetas[q], firsts[q], seconds[q], powers[q], grad, hyper)
            losses[step, q] = total * window / length


def symbol_losses(cell, theta, at, strings: np.ndarray) -> np.ndarray:
    """Each symbol's loss ℓ (nats), (N, L): the model reads every string whole, from h = c = 0."""
    V, G = int(at[B_OUT, 2]), WIDTH[cell]
    inputs, targets = inputs_of(strings, V), np.ascontiguousarray(strings.T.astype(np.int64))
    n, length = strings.shape
    trace = new_trace(length, n, G, V)
    forward(cell, theta, at, inputs, trace)
    out, d_logits, ones = np.empty((length, n)), np.empty((V, n)), np.ones(n)
    for t in range(length):
        losses = np.zeros(n)
        softmax_loss(trace[5][t], targets[t], ones, d_logits, losses)
        out[t] = losses
    return out.T


numba.config.CACHE_DIR = OUTER_CACHE
