"""An encoder–decoder of attention alone (Vaswani et al. 2017, one layer each, pre-LN), compiled: a batch of
strings forward and back, and a training, on the copy task of :mod:`chapter09.seq2seq`.

A model's parameters are one flat vector ``θ``, block after block (:data:`BLOCKS`, starting at :data:`AT`),
as in :mod:`chapter09.seq2seq.net`.  Widths: ``d = 16``, two heads of ``d_k = 8``, a feed-forward layer of
``F = 32``.  Rows are positions; the strings of a batch lie side by side, each in its own lane (the last
axis of every array), so that one loop over the lanes does a step for all of them (and vectorises) while
each string's numbers are computed exactly as it alone would have them.  ``N`` is a LayerNorm,
``N(x) = γ ⊙ x̂ + β`` with ``x̂ = (x − μ)/√(σ² + ε)``, each with its own γ and β, and ``att(Q, K, V)`` the two
heads of scaled dot-product attention side by side, one head (its ``d_k`` columns) being ::

    s_ij = Q_i · K_j / √d_k       α_ij = softmax_j(s_ij)  over every j, or j ≤ i (causal)       A_i = Σ_j α_ij V_j   (1)

(:mod:`chapter09.transformer.layers` has each row's forward and back: (1), LayerNorm's (4), attention's
(5)).  The encoder, on ``x_j = E_src[source_j] (+ P_j)``::

    a = N₁(x)     x' = x + att(a W_q, a W_k, a W_v) W_o     b = N₂(x')     m = N_f(x' + relu(b W₁ + c₁) W₂ + c₂)   (2)

and the decoder, on ``y_t = E_tgt[input_t] (+ P_t)`` (GO, then the target: teacher forcing; or its own argmax),
with a causal self-attention, then a cross-attention whose queries are its own and whose keys and values are
made of the encoder's ``m``::

    a = N₁(y)     y' = y + att_causal(a W_q, a W_k, a W_v) W_o     b = N₂(y')
    y'' = y' + att(b W_q^c, m W_k^c, m W_v^c) W_o^c     c = N₃(y'')     z = N_f(y'' + relu(c W₁ + c₁) W₂ + c₂)
    logits = z W_out + b_out                                                                                  (3)

The loss is :mod:`chapter09.seq2seq.net`'s (3), the cross-entropy of the logits, weighted.  ``P`` is Vaswani et
al.'s sinusoidal positional encoding, ``P[p, 2i] = sin(p ω_i)``, ``P[p, 2i+1] = cos(p ω_i)``,
``ω_i = 10000^{−2i/d}``, rounded to multiples of 2⁻¹⁶ (:data:`PE`, page 04's
:func:`chapter09.qkv.sinusoidal_positions`); the arm without positions adds nothing.

**Backward**, sublayer by sublayer from the output down, each row in order, from
``δlogits_t = w_t (p_t − onehot(y_t))``.  A product ``u = x W``: ``δW += xᵀ δu``, ``δx += δu Wᵀ``; a residual
``y' = y + f(y)``: ``δy = δy' + δ(through f)``; relu: ``δu = δr ⊙ [u > 0]``; LayerNorm (4) and attention (5).
The cross-attention's keys and values send their gradient to ``m``, and from there back through the encoder.
Each string's share of ∂ℓ/∂θ is kept in its lane; the batch's gradient adds the shares in string order.
In the decoder, each row's forward reads the rows before it only: teacher forcing and greedy decoding compute
the same bits for the same inputs, and the mask is exact (a later input changes no earlier output).

Every sum runs in the order its loop is written, numba compiles without ``fastmath``
(:data:`chapter09.portable.JIT`), exp and ln are :mod:`chapter09.portable`'s, √ and ÷ are exactly rounded:
a training gives the same bits on every machine.  Inputs are trusted (the caller is
:mod:`chapter09.transformer.training`).
"""

from __future__ import annotations

import numba
import numpy as np
from numba import njit

from ..common import built_dir
from ..portable import JIT
from ..qkv import sinusoidal_positions
from ..seq2seq.task import MAX_LENGTH, V
from .layers import (
    HEADS,
    add_outer,
    add_times_t,
    attend,
    attend_back,
    feed_forward,
    feed_forward_back,
    norm,
    norm_back,
    softmax_loss,
    times,
)

__all__: list[str] = []

# Compiled beside the book's other loops, but in a folder named after this network's sources (numba checks a cached
# loop against its own file only: a change in transformer_layers must recompile what calls it), then put back.
OUTER_CACHE, numba.config.CACHE_DIR = numba.config.CACHE_DIR, str(built_dir("chapter09.transformer.net", "numba"))

D, F = 16, 32  # model width (HEADS heads of D_K), feed-forward width


def _layer(prefix: str, cross: bool) -> dict:
    """The blocks of one layer: LayerNorms, attentions (W_q, W_k, W_v, W_o), feed-forward, final LayerNorm."""
    att = {f"{prefix}_W{p}": (D, D) for p in "qkvo"}
    out = {f"{prefix}_g1": (D,), f"{prefix}_b1": (D,), **att, f"{prefix}_g2": (D,), f"{prefix}_b2": (D,)}
    if cross:
        out |= {f"{prefix}_Wq_c": (D, D), f"{prefix}_Wk_c": (D, D), f"{prefix}_Wv_c": (D, D), f"{prefix}_Wo_c": (D, D)}
        out |= {f"{prefix}_g3": (D,), f"{prefix}_b3": (D,)}
    out |= {f"{prefix}_W1": (D, F), f"{prefix}_c1": (F,), f"{prefix}_W2": (F, D), f"{prefix}_c2": (D,)}
    return out | {f"{prefix}_gf": (D,), f"{prefix}_bf": (D,)}


SHAPES = {"E_src": (V, D), "E_tgt": (V + 1, D), **_layer("enc", False), **_layer("dec", True),
          "W_out": (D, V), "b_out": (V,)}  # fmt: skip
BLOCKS = tuple(SHAPES)
AT = np.cumsum([0] + [int(np.prod(shape)) for shape in SHAPES.values()])  # where each block starts; θ's length
SIZE = int(AT[-1])
ROWS = np.array([shape[0] for shape in SHAPES.values()])
# Block numbers and trace fields are numpy integers: numba compiles a function once per *Python* int constant it
# is called with (a literal type), once in all for an int64.
E_SRC, E_TGT = np.int64(0), np.int64(1)
# the first block of each: (γ, β), (W_q…W_o), (W₁, c₁, W₂, c₂)
ENC_N1, ENC_ATT, ENC_N2, ENC_FFN, ENC_NF = np.array([2, 4, 8, 10, 14])
DEC_N1, DEC_ATT, DEC_N2, DEC_CROSS, DEC_N3, DEC_FFN, DEC_NF = np.array([16, 18, 22, 24, 28, 30, 34])
W_OUT, B_OUT = np.int64(36), np.int64(37)
assert BLOCKS[ENC_NF] == "enc_gf" and BLOCKS[DEC_CROSS] == "dec_Wq_c" and BLOCKS[W_OUT] == "W_out"

# The rows of one string a forward pass keeps (trace fields, each (rows, D)): shared by encoder and decoder …
X, N1, A1, Q, K, VV, AO, X1, N2, A2 = np.arange(10)  # AO: the heads' outputs
# … then the encoder's: its last residual, its normalised output (x̂ and m), the cross-attention's keys and values
X2, NF, M, KC, VC = np.arange(10, 15)
# … and the decoder's: cross-attention's queries and output, its residual, N₃, the last residual, z
QC, OC, Y2, N3, A3, Y3, NFD, Z = np.arange(10, 18)
CAUSAL, FULL = np.bool_(True), np.bool_(False)


PE = np.ascontiguousarray(sinusoidal_positions(MAX_LENGTH, D))  # the positions, one table for the book


# --- blocks of θ, and of a gradient kept string by string -----------------------------------------------


@njit("float64[:, ::1](float64[::1], int64)", **JIT)
def _matrix(theta, k):
    """Block ``k`` of θ as its matrix (a view)."""
    return theta[AT[k] : AT[k + 1]].reshape(ROWS[k], -1)


@njit("float64[::1](float64[::1], int64)", **JIT)
def _vector(theta, k):
    """Block ``k`` of θ, a vector (a view)."""
    return theta[AT[k] : AT[k + 1]]


@njit("float64[:, :, ::1](float64[:, ::1], int64)", **JIT)
def _matrix_lanes(lanes, k):
    """Block ``k`` of a gradient kept string by string (SIZE, strings) as (rows, columns, strings) (a view)."""
    return lanes[AT[k] : AT[k + 1]].reshape(ROWS[k], -1, lanes.shape[1])


@njit("float64[:, ::1](float64[:, ::1], int64)", **JIT)
def _vector_lanes(lanes, k):
    """Block ``k`` of a gradient kept string by string, a vector per string (a view)."""
    return lanes[AT[k] : AT[k + 1]]


# --- a batch of strings forward ----------------------------------------------------------------------------


def new_trace(strings: int, t_in: int, t_out: int) -> tuple:
    """Empty arrays for :func:`forward` of ``strings`` strings, each string in the last axis: the encoder's rows,
    norms' 1/σ, feed-forward (u, r) and α, row by row, and the source read; the same for the decoder (α of its
    self- and cross-attention, the inputs read) and its logits."""
    return (
        np.zeros((15, t_in, D, strings)), np.empty((3, t_in, strings)), np.empty((t_in, 2, F, strings)),
        np.zeros((t_in, HEADS, t_in, strings)), np.empty((t_in, strings), np.int8),
        np.zeros((18, t_out, D, strings)), np.empty((4, t_out, strings)), np.empty((t_out, 2, F, strings)),
        np.zeros((t_out, HEADS, t_out, strings)), np.zeros((t_out, HEADS, t_in, strings)),
        np.empty((t_out, V, strings)), np.empty((t_out, strings), np.int8),
    )  # fmt: skip


@njit(**JIT)
def _input_row(table, symbols, t, positions, out):
    """E[symbol] (+ P_t) for every string."""
    for k in range(D):
        for b in range(symbols.size):
            out[k, b] = table[symbols[b], k] + PE[t, k] if positions else table[symbols[b], k]


@njit(**JIT)
def _self_attention_in(theta, first_norm, first_att, r, inv, t):
    """Row t of N₁ and its queries, keys and values."""
    norm(r[X, t], _vector(theta, first_norm), _vector(theta, first_norm + 1), r[N1, t], r[A1, t], inv[0, t])
    times(r[A1, t], _matrix(theta, first_att), r[Q, t])
    times(r[A1, t], _matrix(theta, first_att + 1), r[K, t])
    times(r[A1, t], _matrix(theta, first_att + 2), r[VV, t])


@njit(**JIT)
def _feed_forward(theta, first, x, kept, out):
    """The feed-forward layer whose blocks start at ``first``, on one row; ``kept`` gets (u, r)."""
    W1, c1, W2, c2 = (_matrix(theta, first), _vector(theta, first + 1), _matrix(theta, first + 2),
                      _vector(theta, first + 3))  # fmt: skip
    feed_forward(x, W1, c1, W2, c2, kept[0], kept[1], out)


@njit(**JIT)
def _residual(x, w, a, out):
    """out = x + a w (a sublayer's output, projected, added to the residual stream)."""
    times(a, w, out)
    for k in range(D):
        for b in range(x.shape[1]):
            out[k, b] += x[k, b]


@njit(**JIT)
def encode(theta, positions, sources, trace):
    """(2) over the sources (strings, L): the encoder's rows, and the cross-attention's keys and values
    m W_k^c, m W_v^c."""
    r, inv, ffn, alpha, read = trace[0], trace[1], trace[2], trace[3], trace[4]
    n = sources.shape[1]
    f = np.empty((D, sources.shape[0]))
    for j in range(n):
        for b in range(sources.shape[0]):
            read[j, b] = sources[b, j]
        _input_row(_matrix(theta, E_SRC), read[j], j, positions, r[X, j])
        _self_attention_in(theta, ENC_N1, ENC_ATT, r, inv, j)
    for j in range(n):
        attend(r[Q, j], r[K], r[VV], n, alpha[j], r[AO, j])
        _residual(r[X, j], _matrix(theta, ENC_ATT + 3), r[AO, j], r[X1, j])
        norm(r[X1, j], _vector(theta, ENC_N2), _vector(theta, ENC_N2 + 1), r[N2, j], r[A2, j], inv[1, j])
        _feed_forward(theta, ENC_FFN, r[A2, j], ffn[j], f)
        for k in range(D):
            for b in range(f.shape[1]):
                r[X2, j, k, b] = r[X1, j, k, b] + f[k, b]
        norm(r[X2, j], _vector(theta, ENC_NF), _vector(theta, ENC_NF + 1), r[NF, j], r[M, j], inv[2, j])
        times(r[M, j], _matrix(theta, DEC_CROSS + 1), r[KC, j])
        times(r[M, j], _matrix(theta, DEC_CROSS + 2), r[VC, j])


@njit(**JIT)
def _argmax(logits, b):
    """The first symbol of highest logit, for string b."""
    best = 0
    for k in range(1, logits.shape[0]):
        if logits[k, b] > logits[best, b]:
            best = k
    return best


@njit(**JIT)
def decode(theta, positions, sources, inputs, greedy, trace):
    """(3) row by row, after :func:`encode`: on ``inputs`` (teacher forcing) or, if ``greedy``, each string on its
    own argmax after GO (``inputs[:, 0]``)."""
    enc = trace[0]
    r, inv, ffn, a_self, a_cross, logits, read = trace[5], trace[6], trace[7], trace[8], trace[9], trace[10], trace[11]
    lanes = sources.shape[0]
    f = np.empty((D, lanes))
    for t in range(logits.shape[0]):
        for b in range(lanes):
            read[t, b] = _argmax(logits[t - 1], b) if greedy and t > 0 else inputs[b, t]
        _input_row(_matrix(theta, E_TGT), read[t], t, positions, r[X, t])
        _self_attention_in(theta, DEC_N1, DEC_ATT, r, inv, t)
        attend(r[Q, t], r[K], r[VV], t + 1, a_self[t], r[AO, t])  # causal: rows ≤ t
        _residual(r[X, t], _matrix(theta, DEC_ATT + 3), r[AO, t], r[X1, t])
        norm(r[X1, t], _vector(theta, DEC_N2), _vector(theta, DEC_N2 + 1), r[N2, t], r[A2, t], inv[1, t])
        times(r[A2, t], _matrix(theta, DEC_CROSS), r[QC, t])
        attend(r[QC, t], enc[KC], enc[VC], sources.shape[1], a_cross[t], r[OC, t])
        _residual(r[X1, t], _matrix(theta, DEC_CROSS + 3), r[OC, t], r[Y2, t])
        norm(r[Y2, t], _vector(theta, DEC_N3), _vector(theta, DEC_N3 + 1), r[N3, t], r[A3, t], inv[2, t])
        _feed_forward(theta, DEC_FFN, r[A3, t], ffn[t], f)
        for k in range(D):
            for b in range(lanes):
                r[Y3, t, k, b] = r[Y2, t, k, b] + f[k, b]
        norm(r[Y3, t], _vector(theta, DEC_NF), _vector(theta, DEC_NF + 1), r[NFD, t], r[Z, t], inv[3, t])
        times(r[Z, t], _matrix(theta, W_OUT), logits[t])
        b_out = _vector(theta, B_OUT)
        for k in range(V):
            for b in range(lanes):
                logits[t, k, b] += b_out[k]


def forward(theta, positions, sources, inputs, greedy, trace) -> None:
    """(2)–(3) for a batch: the encoder over ``sources`` (strings, L), then the decoder; fills ``trace``."""
    encode(theta, positions, sources, trace)
    decode(theta, positions, sources, inputs, greedy, trace)


# --- a batch of strings back -------------------------------------------------------------------------------


@njit(**JIT)
def _add_through(d_out, w, a, d_w, d_a):
    """Back through ``a w``: δw += aᵀ δout (string by string), δa += δout wᵀ."""
    add_outer(a, d_out, d_w)
    add_times_t(d_out, w, d_a)


@njit(**JIT)
def _add_rows(d, top, bottom, t):
    """δbottom += δtop at row t (through a residual)."""
    for k in range(D):
        for b in range(d.shape[3]):
            d[bottom, t, k, b] += d[top, t, k, b]


@njit(**JIT)
def _feed_forward_sublayer_back(theta, lanes, first_norm, first, r, d, inv, ffn, t, top, bottom, x_hat, normed):
    """Row t of ``top = bottom + FFN(N(bottom))`` (``inv``: N's 1/σ, row by row): δbottom += δtop and what goes
    through N and the FFN."""
    _add_rows(d, top, bottom, t)
    feed_forward_back(d[top, t], r[normed, t], ffn[t, 0], ffn[t, 1], _matrix(theta, first), _matrix(theta, first + 2),
                      _matrix_lanes(lanes, first), _vector_lanes(lanes, first + 1), _matrix_lanes(lanes, first + 2),
                      _vector_lanes(lanes, first + 3), d[normed, t])  # fmt: skip
    norm_back(d[normed, t], r[x_hat, t], inv[t], _vector(theta, first_norm), _vector_lanes(lanes, first_norm),
              _vector_lanes(lanes, first_norm + 1), d[bottom, t])  # fmt: skip


@njit(**JIT)
def _self_attention_back(theta, lanes, first_norm, att, r, d, inv, alpha, causal):
    """Every row of ``x1 = x + att(N₁(x) W_q, N₁(x) W_k, N₁(x) W_v) W_o``, from δx1: δx and the blocks' gradients."""
    n = r.shape[1]
    for t in range(n):
        _add_rows(d, X1, X, t)
        _add_through(d[X1, t], _matrix(theta, att + 3), r[AO, t], _matrix_lanes(lanes, att + 3), d[AO, t])
        attend_back(d[AO, t], r[Q, t], r[K], r[VV], t + 1 if causal else n, alpha[t], d[Q, t], d[K], d[VV])
    for t in range(n):
        for i, field in enumerate((Q, K, VV)):
            _add_through(d[field, t], _matrix(theta, att + i), r[A1, t], _matrix_lanes(lanes, att + i), d[A1, t])
        norm_back(d[A1, t], r[N1, t], inv[0, t], _vector(theta, first_norm), _vector_lanes(lanes, first_norm),
                  _vector_lanes(lanes, first_norm + 1), d[X, t])  # fmt: skip


@njit(**JIT)
def _embedding_back(d_rows, read, table):
    """δE[symbol] += δx_t of each row t that read the symbol, string by string."""
    for t in range(read.shape[0]):
        for k in range(D):
            for b in range(read.shape[1]):
                table[read[t, b], k, b] += d_rows[t, k, b]


@njit(**JIT)
def backward(theta, targets, weights, trace, lanes, losses):
    """(4)–(5) for a batch traced by :func:`forward` (teacher forcing); ``targets`` and ``weights`` are (L, strings):
    adds each string's ∂ℓ/∂θ to its lane of ``lanes`` (SIZE, strings) and its ℓ to ``losses``; returns δx, the
    gradient of each source row ``x_j`` (L, D, strings)."""
    enc, e_inv, e_ffn, e_alpha, e_read, r, inv, ffn, a_self, a_cross, logits, read = trace
    n_in, n_out, n = enc.shape[1], logits.shape[0], logits.shape[2]
    d, de = np.zeros((18, n_out, D, n)), np.zeros((15, n_in, D, n))
    d_logits = np.empty((V, n))
    for t in range(n_out):  # the output, N_f and the feed-forward sublayer
        softmax_loss(logits[t], targets[t], weights[t], d_logits, losses)
        _add_through(d_logits, _matrix(theta, W_OUT), r[Z, t], _matrix_lanes(lanes, W_OUT), d[Z, t])
        b_out = _vector_lanes(lanes, B_OUT)
        for k in range(V):
            for b in range(n):
                b_out[k, b] += d_logits[k, b]
        norm_back(d[Z, t], r[NFD, t], inv[3, t], _vector(theta, DEC_NF), _vector_lanes(lanes, DEC_NF),
                  _vector_lanes(lanes, DEC_NF + 1), d[Y3, t])  # fmt: skip
        _feed_forward_sublayer_back(theta, lanes, DEC_N3, DEC_FFN, r, d, inv[2], ffn, t, Y3, Y2, N3, A3)
    for t in range(n_out):  # the cross-attention sublayer: y'' = y' + att(…) W_o^c
        _add_rows(d, Y2, X1, t)
        _add_through(d[Y2, t], _matrix(theta, DEC_CROSS + 3), r[OC, t], _matrix_lanes(lanes, DEC_CROSS + 3), d[OC, t])
        attend_back(d[OC, t], r[QC, t], enc[KC], enc[VC], n_in, a_cross[t], d[QC, t], de[KC], de[VC])
        _add_through(d[QC, t], _matrix(theta, DEC_CROSS), r[A2, t], _matrix_lanes(lanes, DEC_CROSS), d[A2, t])
        norm_back(d[A2, t], r[N2, t], inv[1, t], _vector(theta, DEC_N2), _vector_lanes(lanes, DEC_N2),
                  _vector_lanes(lanes, DEC_N2 + 1), d[X1, t])  # fmt: skip
    _self_attention_back(theta, lanes, DEC_N1, DEC_ATT, r, d, inv, a_self, CAUSAL)
    _embedding_back(d[X], read, _matrix_lanes(lanes, E_TGT))
    for j in range(n_in):  # the encoder: m feeds the cross-attention's keys and values; N_f; the feed-forward
        for i, field in ((np.int64(1), KC), (np.int64(2), VC)):
            _add_through(de[field, j], _matrix(theta, DEC_CROSS + i), enc[M, j], _matrix_lanes(lanes, DEC_CROSS + i),
                         de[M, j])  # fmt: skip
        norm_back(de[M, j], enc[NF, j], e_inv[2, j], _vector(theta, ENC_NF), _vector_lanes(lanes, ENC_NF),
                  _vector_lanes(lanes, ENC_NF + 1), de[X2, j])  # fmt: skip
        _feed_forward_sublayer_back(theta, lanes, ENC_N2, ENC_FFN, enc, de, e_inv[1], e_ffn, j, X2, X1, N2, A2)
    _self_attention_back(theta, lanes, ENC_N1, ENC_ATT, enc, de, e_inv, e_alpha, FULL)
    _embedding_back(de[X], e_read, _matrix_lanes(lanes, E_SRC))
    return de[X]


# --- a batch, a training, a test ---------------------------------------------------------------------------


@njit(**JIT)
def add_lanes(lanes, losses, grad):
    """The batch's gradient in ``grad`` (set) and its loss: each string's share added in string order."""
    for i in range(grad.size):
        total = 0.0
        for b in range(lanes.shape[1]):
            total += lanes[i, b]
        grad[i] = total
    loss = 0.0
    for b in range(losses.size):
        loss += losses[b]
    return loss


def _lanes_gradient(theta, positions, sources, inputs, targets, weights, grad, trace, lanes) -> tuple:
    """The batch's loss and gradient (``grad``, set) with buffers made once; and δx (L, D, strings)."""
    lanes[:] = 0.0
    losses = np.zeros(sources.shape[0])
    forward(theta, positions, sources, inputs, False, trace)
    d_x = backward(theta, np.ascontiguousarray(targets.T), np.ascontiguousarray(weights.T), trace, lanes, losses)
    return add_lanes(lanes, losses, grad), d_x


def gradient(theta, positions, sources, inputs, targets, weights, grad, d_x) -> float:
    """One model's loss Σ_b ℓ_b over a batch, and its gradient in ``grad`` (set, not added): each string's share
    computed in its own lane, then the shares added in string order; ``d_x`` (B, T_in, D) gets each string's
    ∂ℓ/∂x_j."""
    strings, t_in = sources.shape
    trace, lanes = new_trace(strings, t_in, targets.shape[1]), np.empty((SIZE, strings))
    loss, d_source = _lanes_gradient(theta, positions, sources, inputs, targets, weights, grad, trace, lanes)
    d_x[...] = d_source.transpose(2, 0, 1)
    return loss


@njit(**JIT)
def adam(theta, first, second, power, grad, hyper):
    """One Adam step of one model, in place: the gradient rescaled to norm ``clip`` when longer (Pascanu et al.
    2013), then Adam, exactly as :func:`chapter09.seq2seq.net.train_steps` does for the recurrent arms.
    ``hyper`` = (lr, β₁, β₂, clip, ε); ``power`` = (β₁ᵗ, β₂ᵗ) before the step."""
    lr, beta1, beta2, clip, eps = hyper
    squares = 0.0
    for i in range(grad.size):
        squares += grad[i] * grad[i]
    norm = np.sqrt(squares)
    if norm > clip:
        scale = clip / norm
        for i in range(grad.size):
            grad[i] *= scale
    power[0] *= beta1
    power[1] *= beta2
    for i in range(theta.size):
        first[i] = beta1 * first[i] + (1 - beta1) * grad[i]
        second[i] = beta2 * second[i] + (1 - beta2) * grad[i] * grad[i]
        step_size = lr * (first[i] / (1 - power[0]))
        theta[i] -= step_size / (np.sqrt(second[i] / (1 - power[1])) + eps)


def train_steps(thetas, firsts, seconds, powers, positions, active, sources, inputs, targets, hyper, losses) -> None:
    """Adam steps of the models ``active`` of a stack, in place, one batch per step: each model's gradient
    (:func:`gradient`), then :func:`adam`.  ``positions[q]``: whether model q adds P."""
    batch, t_in, t_out = sources.shape[2], sources.shape[3], targets.shape[3]
    weights = np.full((batch, t_out), 1.0 / (batch * t_out))
    grad, trace, lanes = np.empty(SIZE), new_trace(batch, t_in, t_out), np.empty((SIZE, batch))
    for step in range(sources.shape[0]):
        for q in np.flatnonzero(active):
            losses[step, q] = _lanes_gradient(thetas[q], bool(positions[q]), sources[step, q], inputs[step, q],
                                              targets[step, q], weights, grad, trace, lanes)[0]  # fmt: skip
            adam(thetas[q], firsts[q], seconds[q], powers[q], grad, hyper)


CHUNK = 64  # strings a test decodes side by side


def predict(theta, positions, sources, inputs, targets, greedy) -> tuple[np.ndarray, float]:
    """Each string's outputs (N, T_out), the argmax at each step, reading ``inputs`` (teacher forcing) or, if
    ``greedy``, its own previous choice; and the mean loss per symbol of ``targets`` (each string's ℓ, added in
    string order).  The strings go CHUNK at a time."""
    out, loss = np.empty(inputs.shape, np.int64), 0.0
    for start in range(0, len(sources), CHUNK):
        chunk = slice(start, start + CHUNK)
        n = len(sources[chunk])
        trace = new_trace(n, sources.shape[1], inputs.shape[1])
        forward(theta, positions, sources[chunk], inputs[chunk], greedy, trace)
        logits, d_logits, losses = trace[10], np.empty((V, n)), np.zeros(n)
        out[chunk] = logits.argmax(axis=1).T  # the first of equal logits, as the decoder reads it
        expected, ones = np.ascontiguousarray(targets[chunk].T), np.ones(n)
        for t in range(inputs.shape[1]):
            softmax_loss(logits[t], expected[t], ones, d_logits, losses)
        for value in losses:  # each string's ℓ, in string order
            loss += float(value)
    return out, loss / targets.size


numba.config.CACHE_DIR = OUTER_CACHE
