"""Seq2seq from scratch: the bottleneck, the reversed source, and Bahdanau's attention.

The task is to copy a random string of ``L`` symbols over ``V = 8``.  An encoder reads
it, a decoder writes it back, and three arms get one budget (400 Adam steps of 32
strings, state 16).  In the *bottleneck* arm the decoder starts from the encoder's last
state only (Sutskever et al. 2014).  The *reversed* arm is the same model reading the
string backwards, as Sutskever did.  The *attention* arm is the same decoder with
Bahdanau et al. (2015)'s additive attention over every encoder state.

The cell is the chapter's LSTM (widget 2's equations), with row vectors, ``a = x W + h U + b``::

    [a_i a_f a_o a_g] = x_t W + h_{t-1} U + b  (+ ctx_t C)    i, f, o = σ(a_i, a_f, a_o),  g = tanh(a_g)
    c_t = f ⊙ c_{t-1} + i ⊙ g                                  h_t = o ⊙ tanh(c_t)                       (1)

The encoder runs it from ``h_0 = c_0 = 0`` on ``x_j = E_src[source_j]``.  The decoder
starts from the encoder's last ``(h_L, c_L)`` and reads ``E_tgt[y_{t-1}]``, with
``y_0 = GO``: the target itself during training (teacher forcing), its own argmax at
test time (greedy).  Its outputs are ``logits_t = s_t W_out + b_out (+ ctx_t C_out)``, and
the loss is the cross-entropy averaged over strings and positions.  The attention
arm's context, which goes to both the cell and the output, is ::

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

Adam (lr 0.01) follows each step.  Before it, each model's whole gradient is rescaled to
norm 1 when it is longer: gradient-norm clipping, Pascanu, Mikolov & Bengio (2013)'s
remedy for exploding gradients.  One ``_forward`` and one ``_backward`` serve every arm.
They are vectorised over the batch and over a leading axis of ``M`` models trained side by
side (every array is ``(M, B, T, …)``, attention's weights only for the last models of the
stack): the page trains the nine models of one length in one stack.  Nothing mixes the
models, so each learns bit for bit what it learns alone (tested).

Every number of a training is the same on every machine: σ, tanh, exp, log and the matrix
products come from :mod:`chapter09.portable`, and the rest is elementwise arithmetic, which
IEEE 754 rounds exactly, and numpy's own sums.  An input enters only through ``x W`` with
``x = E[symbol]``, so ``x W`` is read from the table ``E W`` and the gradients of ``W`` and
``E`` come from one sum per symbol of ``∂ℒ/∂(x W)``: no product per input.

Why an LSTM?  The chapter's other cell is the tanh RNN.  When the cell was chosen (one
seed, L = 16, 600 steps, before the models were stacked) the tanh RNN took 1,0 s
(bottleneck) and 2,4 s (attention) of CPU and reached 0,13, 0,33 and 0,85 (bottleneck,
reversed, attention); the LSTM took 1,9 s and 3,3 s and reached 0,22, 0,35 and 0,97.
Half as much again for a cell that learns the task: the page's whole sweep fits its
budget either way (``make bench`` measures it).

What the trained models show (the sweep over lengths, attention weights, path gradients) is
:mod:`chapter09.seq2seq_sweep`.

>>> r = train("attention", 4, steps=200)
>>> bool(r.accuracy > 0.9), bool(r.loss[-1] < r.loss[0] / 10), r.position_accuracy.shape
(True, True, (4,))
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

import numpy as np
from threadpoolctl import threadpool_limits

from . import _check, portable
from .common import memo
from .seq2seq_task import MAX_LENGTH, V, _data, _streams

__all__ = ["ARMS", "LENGTHS", "SEEDS", "STEPS", "Trained", "train"]

ARMS = ("bottleneck", "reversed", "attention")
LENGTHS = (4, 6, 8, 10, 12)
SEEDS = (0, 1, 2)  # the first three, never chosen
STEPS = 400  # Adam steps per training
H = 16  # state (and embedding, and attention) width
LEARNING_RATE = 0.01
CLIP = 1.0  # largest gradient norm (Pascanu et al. 2013)
BETAS = (0.9, 0.999)  # Adam's decay rates (Kingma & Ba 2015)


# --- the model: parameters, one LSTM step forward and back, one attention step forward and back -----


def _init(rng: np.random.Generator, attention: bool, v: int = V, h: int = H) -> dict[str, np.ndarray]:
    """Weights N(0, 1/fan-in), embeddings N(0, 1), biases 0 but the forget gates' (1)."""

    def draw(*shape):
        return rng.normal(0.0, 1.0 / np.sqrt(shape[0]), shape)

    gate_bias = np.concatenate([np.zeros(h), np.ones(h), np.zeros(2 * h)])
    p = {"E_src": rng.normal(size=(v, h)), "E_tgt": rng.normal(size=(v + 1, h))}
    p |= {"W_enc": draw(h, 4 * h), "U_enc": draw(h, 4 * h), "b_enc": gate_bias.copy()}
    p |= {"W_dec": draw(h, 4 * h), "U_dec": draw(h, 4 * h), "b_dec": gate_bias.copy()}
    p |= {"W_out": draw(h, v), "b_out": np.zeros(v)}
    if attention:
        p |= {"C_dec": draw(h, 4 * h), "C_out": draw(h, v), "W_a": draw(h, h), "U_a": draw(h, h), "v_a": draw(h)}
    return p


ATTENTION_KEYS = ("C_dec", "C_out", "W_a", "U_a", "v_a")


def _stack(models: list[dict]) -> dict[str, np.ndarray]:
    """Several models' parameters side by side, those with attention last: each array gains a leading
    model axis, of all M models for the parameters they share and of the last M_a for attention's."""
    keys = dict.fromkeys(k for p in models for k in p)
    return {k: np.stack([p[k] for p in models if k in p]) for k in keys}


def _attending(p) -> slice:
    """The models of a stack that attend: the last ``len(p["W_a"])``."""
    m = len(next(v for k, v in p.items() if k not in ATTENTION_KEYS))
    n = len(p["W_a"]) if "W_a" in p else 0
    return slice(m - n, m)


def _T(w: np.ndarray) -> np.ndarray:
    """Each model's matrix transposed: (M, i, j) → (M, j, i)."""
    return np.swapaxes(w, -1, -2)


def _lstm(a: np.ndarray, c_prev: np.ndarray):
    """One LSTM step from its pre-activations a = [a_i a_f a_o a_g]: the new h and c, and what the step back needs."""
    h = c_prev.shape[-1]
    ifo, g = portable.sigmoid(a[..., : 3 * h]), portable.tanh(a[..., 3 * h :])
    c = ifo[..., h : 2 * h] * c_prev + ifo[..., :h] * g
    tc = portable.tanh(c)
    return ifo[..., 2 * h :] * tc, c, (ifo, g, c_prev, tc)


def _lstm_back(dh: np.ndarray, dc: np.ndarray, saved) -> tuple[np.ndarray, np.ndarray]:
    """Equation (2): the gradient of the pre-activations, and of c_{t-1}."""
    ifo, g, c_prev, tc = saved
    h = dh.shape[-1]
    i, f, o = ifo[..., :h], ifo[..., h : 2 * h], ifo[..., 2 * h :]
    dc = dc + dh * o * (1 - tc * tc)
    d_ifo = np.concatenate([dc * g, dc * c_prev, dh * tc], axis=-1) * ifo * (1 - ifo)
    return np.concatenate([d_ifo, dc * i * (1 - g * g)], axis=-1), dc * f


def _softmax(e: np.ndarray) -> np.ndarray:
    """softmax along the last axis."""
    p = portable.exp(e - e.max(axis=-1, keepdims=True))
    return p / p.sum(axis=-1, keepdims=True)


def _attend(query: np.ndarray, states: np.ndarray, keys: np.ndarray, p):
    """Equation (3), given the query s_{t-1} W_a (M, B, H): the weights α_tj over the encoder states
    (M, B, T) and the context ctx_t (M, B, H).  Its sums are short (H or T terms) and many (one per
    string): a fixed-order sum of products costs less there than cutting operands for a BLAS product."""
    z = portable.tanh(keys + query[:, :, None, :])
    alpha = _softmax((z * p["v_a"][:, None, None, :]).sum(axis=-1))
    return (alpha[..., None] * states).sum(axis=2), (alpha, z)


def _attend_back(d_context: np.ndarray, states: np.ndarray, saved, p):
    """Equation (4): from ∂ℒ/∂ctx_t to the query s_{t-1}, the keys h_j U_a, the states and v_a."""
    alpha, z = saved
    d_alpha = (states * d_context[:, :, None, :]).sum(axis=-1)
    de = alpha * (d_alpha - (alpha * d_alpha).sum(axis=-1, keepdims=True))
    d_pre = de[..., None] * p["v_a"][:, None, None, :] * (1 - z * z)
    d_states = alpha[..., None] * d_context[:, :, None, :]
    d_v = (de[..., None] * z).reshape(len(z), -1, z.shape[-1]).sum(axis=1)
    return d_pre.sum(axis=2), d_pre, d_states, d_v


# --- one forward pass and one backward pass, for M models side by side, a batch each, every arm ------


def _mm(a: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Each model's ``a @ w`` (portable): a (M, …, i), w (M, i, j) → (M, …, j)."""
    m, i = a.shape[0], a.shape[-1]
    return portable.matmul(a.reshape(m, -1, i), w).reshape(*a.shape[:-1], w.shape[-1])


def _outer(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Each model's Σ aᵀb over every other index (batch and time): a weight's gradient, (M, i, j)."""
    m = a.shape[0]
    return portable.matmul(_T(a.reshape(m, -1, a.shape[-1])), b.reshape(m, -1, b.shape[-1]))


def _embed(table: np.ndarray, symbols: np.ndarray) -> np.ndarray:
    """Each model's embedding rows: table (M, V, H), symbols (M, …) → (M, …, H)."""
    models = np.arange(len(table)).reshape(-1, *[1] * (symbols.ndim - 1))
    return table[models, symbols]


def _one_hot(symbols: np.ndarray, n: int) -> np.ndarray:
    """Symbols (M, …) as rows of n zeros and a one, (M, …, n)."""
    return (symbols[..., None] == np.arange(n)).astype(np.float64)


def _factors(*parts: np.ndarray) -> np.ndarray:
    """What multiplies a layer's weights and bias, [x₁ | x₂ | … | 1], (M, B, T, Σ widths): its weights'
    gradient is factorsᵀ δ summed over batch and time (the column of ones gives the bias's)."""
    return np.concatenate([*parts, np.ones((*parts[0].shape[:-1], 1))], axis=-1)


def _by_step(x: np.ndarray, batch: int) -> portable.Cut:
    """x (M, B, T, i) as one matrix (B, i) per model and step, each cut on its own grid: (M, T, B, i)."""
    return portable.Cut(np.ascontiguousarray(np.swapaxes(x, 1, 2)), batch)


def _split(blocks: np.ndarray, *parts: np.ndarray) -> list[np.ndarray]:
    """The gradients of [x₁ | x₂ | … | 1]ᵀ δ, one per part, and the bias's (its last row)."""
    edges = np.cumsum([x.shape[-1] for x in parts])
    return [*np.split(blocks[:, :-1], edges[:-1], axis=1), blocks[:, -1]]


def _forward(p, source: np.ndarray, inputs: np.ndarray | None = None, n_out: int | None = None):
    """Logits (M, B, T, V) for the decoder inputs (teacher forcing), or for its own greedy choices if none."""
    att, (m, b, t_in), width = _attending(p), source.shape, p["U_enc"].shape[1]
    attention, n_out = att.start < m, inputs.shape[2] if inputs is not None else n_out
    w = {k: portable.Cut(p[k], width) for k in ("U_enc", "U_dec", "W_a", "C_dec") if k in p}  # cut once
    pre = _embed(portable.matmul(p["E_src"], p["W_enc"]), source) + p["b_enc"][:, None, None, :]  # x W = (E W)[x]
    h_all, c = np.zeros((m, b, t_in + 1, width)), np.zeros((m, b, width))  # h_0 = 0, h_1 … h_T
    enc = []
    for j in range(t_in):
        h_all[:, :, j + 1], c, saved = _lstm(pre[:, :, j] + portable.matmul(h_all[:, :, j], w["U_enc"]), c)
        enc.append(saved)
    states = h_all[att, :, 1:]
    keys = _mm(states, p["U_a"]) if attention else None
    input_share = portable.matmul(p["E_tgt"], p["W_dec"])
    s_all = np.empty((m, b, n_out + 1, width))
    contexts = np.zeros((att.stop - att.start, b, n_out, width))
    s_all[:, :, 0], token = h_all[:, :, -1], np.full((m, b), p["E_tgt"].shape[1] - 1)
    logits, dec = np.empty((m, b, n_out, p["b_out"].shape[-1])), []
    for t in range(n_out):
        symbol = inputs[:, :, t] if inputs is not None else token
        a = _embed(input_share, symbol) + portable.matmul(s_all[:, :, t], w["U_dec"]) + p["b_dec"][:, None, :]
        att_saved = None
        if attention:
            query = portable.matmul(s_all[att, :, t], w["W_a"])
            contexts[:, :, t], att_saved = _attend(query, states, keys, p)
            a[att] += portable.matmul(contexts[:, :, t], w["C_dec"])
        s_all[:, :, t + 1], c, saved = _lstm(a, c)
        dec.append((saved, att_saved))
        if inputs is None:  # greedy: the next input is this step's choice
            logits[:, :, t] = _output(p, s_all[:, :, t + 1], contexts[:, :, t])
            token = logits[:, :, t].argmax(axis=-1)
    if inputs is not None:  # every step's output at once (row by row the same numbers)
        logits = _output(p, s_all[:, :, 1:], contexts)
    return logits, (source, inputs, h_all, enc, s_all, contexts, dec)


def _output(p, s: np.ndarray, contexts: np.ndarray) -> np.ndarray:
    """logits = s W_out + b_out (+ ctx C_out for the models that attend), for states (M, …, H)."""
    logits = _mm(s, p["W_out"]) + p["b_out"].reshape(len(s), *[1] * (s.ndim - 2), -1)
    if "C_out" in p:
        logits[_attending(p)] += _mm(contexts, p["C_out"])
    return logits


def _loss(logits: np.ndarray, targets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each model's mean cross-entropy over its batch and the positions (M,), and its gradient in the logits."""
    z = logits - logits.max(axis=-1, keepdims=True)
    e = portable.exp(z)
    norm = e.sum(axis=-1, keepdims=True)
    picked = np.take_along_axis(z, targets[..., None], axis=-1)[..., 0] - portable.log(norm[..., 0])
    d = e / norm
    np.put_along_axis(d, targets[..., None], np.take_along_axis(d, targets[..., None], axis=-1) - 1, axis=-1)
    return -picked.reshape(len(picked), -1).sum(axis=1) / targets[0].size, d / targets[0].size


def _backward(p, d_logits: np.ndarray, cache_) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """Backpropagation through time: ∂ℒ/∂ every parameter, and ∂ℒ/∂ the encoder's input pre-activations
    x_j W_enc (M, B, T_in, 4H).  The inputs x = E[symbol] enter only through x W, so that with S, the
    sum of ∂ℒ/∂(x W) over the places each symbol is read, ∂ℒ/∂W = Eᵀ S and ∂ℒ/∂E = S Wᵀ.  The gradients
    of the recurrent layers' weights are summed step by step, last step first."""
    source, inputs, h_all, enc, s_all, contexts, dec = cache_
    att, g, width = _attending(p), {}, h_all.shape[-1]
    attention, states, gates, batch = att.start < len(h_all), h_all[att, :, 1:], 4 * width, source.shape[1]
    k = max(gates, batch)  # δ_t enters sums of 4H terms (δ_t Uᵀ) and of B terms (its weights' gradient)
    w = {key: portable.Cut(_T(p[key]), k) for key in ("U_enc", "U_dec", "C_dec") if key in p}  # cut once
    if attention:
        w["W_a"] = portable.Cut(_T(p["W_a"]), width)
    g["W_out"], g["b_out"] = _split(_outer(_factors(s_all[:, :, 1:]), d_logits), s_all)
    d_s_out, ds, dc = _mm(d_logits, _T(p["W_out"])), np.zeros_like(s_all[:, :, 0]), np.zeros_like(s_all[:, :, 0])
    if attention:
        g["C_out"] = _outer(contexts, d_logits[att])
        g["v_a"], d_ctx_out, d_keys = 0, _mm(d_logits[att], _T(p["C_out"])), np.zeros_like(states)
        d_states, d_query, c_total = np.zeros_like(states), np.zeros_like(contexts), 0
        context_factors = _by_step(contexts, batch)
    dec_parts = [s_all[:, :, :-1], _one_hot(inputs, p["E_tgt"].shape[1])]
    dec_factors, dec_total = _by_step(_factors(*dec_parts), batch), 0
    for t in reversed(range(len(dec))):
        saved, att_saved = dec[t]
        d_pre, dc = _lstm_back(ds + d_s_out[:, :, t], dc, saved)
        d_pre = portable.Cut(d_pre, k)  # cut once: for δ Uᵀ and for the weights' gradient
        dec_total = dec_total + portable.matmul(dec_factors[:, t].T, d_pre)
        ds = portable.matmul(d_pre, w["U_dec"])
        if attention:
            c_total = c_total + portable.matmul(context_factors[:, t].T, d_pre[att])
            d_ctx = d_ctx_out[:, :, t] + portable.matmul(d_pre[att], w["C_dec"])
            d_query[:, :, t], d_pre_att, d_st, dv = _attend_back(d_ctx, states, att_saved, p)
            ds[att] += portable.matmul(d_query[:, :, t], w["W_a"])
            d_keys += d_pre_att
            d_states += d_st
            g["v_a"] += dv
    g["U_dec"], by_input, g["b_dec"] = _split(dec_total, *dec_parts)
    g["W_dec"], g["E_tgt"] = _mm(_T(p["E_tgt"]), by_input), _mm(by_input, _T(p["W_dec"]))
    if attention:
        g["C_dec"], g["W_a"], g["U_a"] = c_total, _outer(s_all[att, :, :-1], d_query), _outer(states, d_keys)
        d_states += _mm(d_keys, _T(p["U_a"]))
    enc_parts = [h_all[:, :, :-1], _one_hot(source, p["E_src"].shape[1])]
    enc_factors, d_pre_enc, enc_total = _by_step(_factors(*enc_parts), batch), np.empty((*source.shape, gates)), 0
    for j in reversed(range(len(enc))):
        if attention:
            ds[att] += d_states[:, :, j]  # the state h_j reaches the loss through the attention too
        d_pre_enc[:, :, j], dc = _lstm_back(ds, dc, enc[j])
        d_pre = portable.Cut(d_pre_enc[:, :, j], k)
        enc_total = enc_total + portable.matmul(enc_factors[:, j].T, d_pre)
        ds = portable.matmul(d_pre, w["U_enc"])
    g["U_enc"], by_source, g["b_enc"] = _split(enc_total, *enc_parts)
    g["W_enc"], g["E_src"] = _mm(_T(p["E_src"]), by_source), _mm(by_source, _T(p["W_enc"]))
    return {key: g[key] for key in p}, d_pre_enc


def _input_gradient(p, d_pre_enc: np.ndarray) -> np.ndarray:
    """∂ℒ/∂x_j for every encoder input (M, B, T_in, H), from ∂ℒ/∂(x_j W_enc)."""
    return _mm(d_pre_enc, _T(p["W_enc"]))


def _decoder_inputs(targets: np.ndarray, go: int) -> np.ndarray:
    """Teacher forcing: GO, then the target shifted one step right (along the last axis)."""
    return np.concatenate([np.full((*targets.shape[:-1], 1), go), targets[..., :-1]], axis=-1)


def _adam(p, g, m, s, powers: tuple[float, float], lr: float, eps: float = 1e-8) -> None:
    """One Adam step (Kingma & Ba 2015), in place; ``powers`` = (β₁ᵗ, β₂ᵗ)."""
    beta1, beta2 = BETAS
    for k in p:
        m[k] = beta1 * m[k] + (1 - beta1) * g[k]
        s[k] = beta2 * s[k] + (1 - beta2) * g[k] * g[k]
        p[k] -= lr * (m[k] / (1 - powers[0])) / (np.sqrt(s[k] / (1 - powers[1])) + eps)


def _clip(g, limit: float) -> np.ndarray:
    """Rescale each model's whole gradient to norm ``limit`` when it is longer (Pascanu et al. 2013);
    the norms before, (M,)."""
    att, squares = _attending(g), 0.0
    for key, v in g.items():  # each model's Σ v², parameter after parameter
        part = (v * v).reshape(len(v), -1).sum(axis=1)
        if key in ATTENTION_KEYS:
            squares[att] += part
        else:
            squares = squares + part
    norm = np.sqrt(squares)
    scale = np.where(norm > limit, limit / norm, 1.0)
    for key, v in g.items():
        v *= scale[att if key in ATTENTION_KEYS else slice(None)].reshape(-1, *[1] * (v.ndim - 1))
    return norm


# --- training and testing, several models side by side ---------------------------------------------


@dataclass(frozen=True)
class Trained:
    arm: str
    length: int
    seed: int
    steps: int
    params: MappingProxyType  # name → read-only array
    loss: np.ndarray  # (steps,) training cross-entropy at each step, before its update
    accuracy: float  # share of the test strings' output symbols right, greedy decoding
    position_accuracy: np.ndarray  # (length,) the same, output position by position
    test: np.ndarray  # (N_TEST, length) the held-out strings


def _source(arm: str, strings: np.ndarray) -> np.ndarray:
    """What the encoder reads: the string, reversed in the reversed arm."""
    return strings[..., ::-1] if arm == "reversed" else strings


def _train_many(runs: tuple, length: int, steps: int) -> tuple[Trained, ...]:
    """Train the models ``runs`` = ((arm, seed), …) side by side, each on its seed's stream with Adam
    and clipping; then decode the test strings greedily.  The stack holds those with attention last.
    A model learns bit for bit what it learns alone: nothing mixes the models."""
    order = sorted(range(len(runs)), key=lambda k: runs[k][0] == "attention")
    runs_ = [runs[k] for k in order]
    arms = [arm for arm, _ in runs_]
    data = [_data(length, seed, steps) for _, seed in runs_]
    train = np.stack([strings for strings, _ in data], axis=1)  # (steps, M, B, L)
    test = np.stack([t for _, t in data])
    source = np.stack([_source(arm, train[:, k]) for k, arm in enumerate(arms)], axis=1)
    p = _stack([_init(_streams(seed)[0], arm == "attention") for arm, seed in runs_])
    m, s, losses = {k: np.zeros_like(v) for k, v in p.items()}, {k: np.zeros_like(v) for k, v in p.items()}, []
    powers = (1.0, 1.0)
    with threadpool_limits(1, "blas"):  # products this small: a second thread would only wait
        for step in range(steps):
            logits, saved = _forward(p, source[step], _decoder_inputs(train[step], V))
            loss, d_logits = _loss(logits, train[step])
            g, _ = _backward(p, d_logits, saved)
            _clip(g, CLIP)
            powers = (powers[0] * BETAS[0], powers[1] * BETAS[1])  # β₁ᵗ, β₂ᵗ by products, not by libm's pow
            _adam(p, g, m, s, powers, LEARNING_RATE)
            losses.append(loss)
        test_source = np.stack([_source(arm, t) for arm, t in zip(arms, test)])
        right = _forward(p, test_source, n_out=length)[0].argmax(axis=-1) == test
    losses, att = np.array(losses).T, _attending(p)

    def params(k: int) -> MappingProxyType:
        at = {key: k - att.start for key in ATTENTION_KEYS}
        return MappingProxyType({key: _check.frozen(v[at.get(key, k)]) for key, v in p.items() if at.get(key, k) >= 0})

    trained = [
        Trained(
            arm,
            length,
            seed,
            steps,
            params(k),
            _check.frozen(losses[k]),
            float(right[k].mean()),
            _check.frozen(right[k].mean(axis=0)),
            _check.frozen(test[k], np.int64),
        )
        for k, (arm, seed) in enumerate(runs_)
    ]
    return tuple(trained[order.index(k)] for k in range(len(runs)))


def _arm(name: str, value) -> str:
    """An arm's name, validated."""
    if _check.text(name, value) not in ARMS:
        raise ValueError(f"{name} must be one of {', '.join(ARMS)}, got {value!r}")
    return value


def train(arm: str, length: int, seed: int = 0, steps: int = STEPS) -> Trained:
    """Train one encoder–decoder to copy random strings, and measure it on held-out strings.

    Parameters
    ----------
    arm : str, "bottleneck", "reversed" or "attention"
        The decoder starts from the encoder's last state; "reversed" reads the source backwards;
        "attention" adds Bahdanau's additive attention over every encoder state.
    length : int, 4 … 20
        Symbols per string (input and output).
    seed : int, 0 … 2**63 - 1
        Seed of the initial weights, the training stream and the test strings (three streams).
    steps : int, 1 … 5000
        Adam steps, one mini-batch of 32 strings each.

    Returns
    -------
    Trained
        The readout (immutable): the weights, the loss curve, the test accuracy overall and by position.
    """
    return _train_one(
        _arm("arm", arm),
        _check.integer("length", length, 4, MAX_LENGTH),
        _check.integer("seed", seed, 0, _check.SEED_MAX),
        _check.integer("steps", steps, 1, 5000),
    )


@memo
def _train_one(arm: str, length: int, seed: int, steps: int) -> Trained:
    """One model, trained alone (a stack of one)."""
    return _train_many(((arm, seed),), length, steps)[0]
