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

The backward pass is equations (2) and (4) of :mod:`chapter09.seq2seq_steps`.

Adam (lr 0.01) follows each step.  Before it, each model's whole gradient is rescaled to
norm 1 when it is longer: gradient-norm clipping, Pascanu, Mikolov & Bengio (2013)'s
remedy for exploding gradients.  One ``_forward`` and one ``_backward`` serve every arm.
They are vectorised over the batch and over a leading axis of ``M`` models trained side by
side (every array is ``(M, B, T, …)``, attention's weights only for the last models of the
stack): the page trains the nine models of one length in one stack.  Nothing mixes the
models, so each learns bit for bit what it learns alone (tested).

Every number of a training is the same on every machine.  The steps that run once per symbol
(an LSTM step forward and back, an attention step forward and back, equations (1) to (4)) are
:mod:`chapter09.seq2seq_steps`, loops that numba compiles; the rest is elementwise arithmetic,
which IEEE 754 rounds exactly, numpy's own sums and portable's products.  An input enters only
through ``x W`` with ``x = E[symbol]``, so ``x W`` is read from the table ``E W`` and the
gradients of ``W`` and ``E`` come from one sum per symbol of ``∂ℒ/∂(x W)``: no product per input.

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

from . import _check, portable
from .common import memo
from .portable import products
from .seq2seq_steps import attention_step, attention_step_back, lstm_step, lstm_step_back
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


# --- the model's parameters, M models side by side -----------------------------------------------------


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
    """Each model's matrix transposed: (M, i, j) → (M, j, i), contiguous (what the compiled steps read)."""
    return np.ascontiguousarray(np.swapaxes(w, -1, -2))


# --- one forward pass and one backward pass, for M models side by side, a batch each, every arm ------


def _mm(a: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Each model's ``a @ w``, every sum in order: a (M, …, i), w (M, i, j) → (M, …, j)."""
    m, i = a.shape[0], a.shape[-1]
    flat = np.ascontiguousarray(a).reshape(m, -1, i)
    return products(flat, np.ascontiguousarray(w)).reshape(*a.shape[:-1], w.shape[-1])


def _outer(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Each model's Σ aᵀb over every other index (batch and time): a weight's gradient, (M, i, j)."""
    m = a.shape[0]
    return products(_T(a.reshape(m, -1, a.shape[-1])), np.ascontiguousarray(b).reshape(m, -1, b.shape[-1]))


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


def _split(blocks: np.ndarray, *parts: np.ndarray) -> list[np.ndarray]:
    """The gradients of [x₁ | x₂ | … | 1]ᵀ δ, one per part, and the bias's (its last row)."""
    edges = np.cumsum([x.shape[-1] for x in parts])
    return [*np.split(blocks[:, :-1], edges[:-1], axis=1), blocks[:, -1]]


def _forward(p, source: np.ndarray, inputs: np.ndarray | None = None, n_out: int | None = None):
    """Logits (M, B, T, V) for the decoder inputs (teacher forcing), or for its own greedy choices if none."""
    att, (m, b, t_in), width = _attending(p), source.shape, p["U_enc"].shape[1]
    attention, n_out = att.start < m, inputs.shape[2] if inputs is not None else n_out
    x_enc = _embed(_mm(p["E_src"], p["W_enc"]), source)  # x W = (E W)[x]
    h_all, c = np.zeros((m, b, t_in + 1, width)), np.zeros((m, b, width))  # h_0 = 0, h_1 … h_T
    none, enc = np.zeros((m, b, 4 * width)), []
    for j in range(t_in):
        h, c_new, ifo, g, tc = lstm_step(
            np.ascontiguousarray(x_enc[:, :, j]), p["b_enc"], none, h_all[:, :, j], p["U_enc"], c
        )
        h_all[:, :, j + 1] = h
        enc.append((ifo, g, c, tc))
        c = c_new
    states = np.ascontiguousarray(h_all[att, :, 1:])
    keys = _mm(states, p["U_a"]) if attention else None
    input_share = _mm(p["E_tgt"], p["W_dec"])
    s_all = np.empty((m, b, n_out + 1, width))
    contexts = np.zeros((att.stop - att.start, b, n_out, width))
    s_all[:, :, 0], token = h_all[:, :, -1], np.full((m, b), p["E_tgt"].shape[1] - 1)
    logits, dec = np.empty((m, b, n_out, p["b_out"].shape[-1])), []
    for t in range(n_out):
        symbol = inputs[:, :, t] if inputs is not None else token
        extra, att_saved = none, None
        if attention:
            query = _mm(s_all[att, :, t], p["W_a"])
            contexts[:, :, t], *att_saved = attention_step(query, states, keys, p["v_a"])
            extra = np.zeros_like(none)
            extra[att] = _mm(contexts[:, :, t], p["C_dec"])
        h, c_new, ifo, g, tc = lstm_step(_embed(input_share, symbol), p["b_dec"], extra, s_all[:, :, t], p["U_dec"], c)
        s_all[:, :, t + 1] = h
        dec.append(((ifo, g, c, tc), att_saved))
        c = c_new
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
    attention, states, gates = att.start < len(h_all), np.ascontiguousarray(h_all[att, :, 1:]), 4 * width
    g["W_out"], g["b_out"] = _split(_outer(_factors(s_all[:, :, 1:]), d_logits), s_all)
    d_s_out, ds, dc = _mm(d_logits, _T(p["W_out"])), np.zeros_like(s_all[:, :, 0]), np.zeros_like(s_all[:, :, 0])
    if attention:
        g["C_out"], g["v_a"] = _outer(contexts, d_logits[att]), np.zeros_like(p["v_a"])
        d_ctx_out, d_keys = _mm(d_logits[att], _T(p["C_out"])), np.zeros_like(states)
        d_states, d_query = np.zeros_like(states), np.zeros_like(contexts)
        g["C_dec"], C_dec_T, W_a_T = np.zeros_like(p["C_dec"]), _T(p["C_dec"]), _T(p["W_a"])
    dec_parts = [s_all[:, :, :-1], _one_hot(inputs, p["E_tgt"].shape[1])]
    dec_factors = _factors(*dec_parts)
    dec_total, U_dec_T = np.zeros((len(h_all), dec_factors.shape[-1], gates)), _T(p["U_dec"])
    for t in reversed(range(len(dec))):
        saved, att_saved = dec[t]
        factors = np.ascontiguousarray(dec_factors[:, :, t])
        d_pre, dc, ds = lstm_step_back(ds + d_s_out[:, :, t], dc, *saved, U_dec_T, factors, dec_total)
        if attention:
            d_att = np.ascontiguousarray(d_pre[att])
            g["C_dec"] += _outer(contexts[:, :, t], d_att)
            d_ctx = d_ctx_out[:, :, t] + _mm(d_att, C_dec_T)
            d_query[:, :, t] = attention_step_back(d_ctx, states, *att_saved, p["v_a"], d_states, d_keys, g["v_a"])
            ds[att] += _mm(d_query[:, :, t], W_a_T)
    g["U_dec"], by_input, g["b_dec"] = _split(dec_total, *dec_parts)
    g["W_dec"], g["E_tgt"] = _mm(_T(p["E_tgt"]), by_input), _mm(by_input, _T(p["W_dec"]))
    if attention:
        g["W_a"], g["U_a"] = _outer(s_all[att, :, :-1], d_query), _outer(states, d_keys)
        d_states += _mm(d_keys, _T(p["U_a"]))
    enc_parts = [h_all[:, :, :-1], _one_hot(source, p["E_src"].shape[1])]
    enc_factors, d_pre_enc = _factors(*enc_parts), np.empty((*source.shape, gates))
    enc_total, U_enc_T = np.zeros((len(h_all), enc_factors.shape[-1], gates)), _T(p["U_enc"])
    for j in reversed(range(len(enc))):
        if attention:
            ds[att] += d_states[:, :, j]  # the state h_j reaches the loss through the attention too
        factors = np.ascontiguousarray(enc_factors[:, :, j])
        d_pre_enc[:, :, j], dc, ds = lstm_step_back(ds, dc, *enc[j], U_enc_T, factors, enc_total)
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
