"""Seq2seq from scratch: the bottleneck, the reversed source, and Bahdanau's attention.

The task is to copy a random string of ``L`` symbols over ``V = 8``.  An encoder reads
it, a decoder writes it back, and three arms get one budget (600 Adam steps of 32
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

Adam (lr 0.01) follows each step.  Before it, the whole gradient is rescaled to norm 1
when it is longer: gradient-norm clipping, Pascanu, Mikolov & Bengio (2013)'s remedy
for exploding gradients.  One ``_forward`` and one ``_backward`` serve every arm.  They
are vectorised over the batch, and attention adds its terms when its weights are there.

Why an LSTM?  The chapter's other cell is the tanh RNN.  With the tanh RNN, one seed at
L = 16 takes 1,0 s (bottleneck) and 2,4 s (attention) of CPU and reaches 0,13, 0,33 and
0,85 (bottleneck, reversed, attention).  With the LSTM it takes 1,9 s and 3,3 s and
reaches 0,22, 0,35 and 0,97.  The LSTM costs about 1,5 times as much, and the page's
45 trainings (3 arms × ``LENGTHS`` × seeds 0, 1, 2) take 68 to 72 s of CPU in all, 23 to 24 s
per seed (``time.process_time``, two runs, one core).  The products over a whole sequence
are cut into blocks, so that OpenBLAS never spreads them over threads.

Path lengths.  Without attention, ``x_j`` reaches output ``t`` (both counted from 0)
only along the recurrence, ``L − j + t`` steps, or ``j + t + 1`` with the source
reversed.  Attention adds a path of two steps, ``h_j → ctx_t → logits_t``, at any
distance.  :func:`path_gradients` measures ``‖∂ℓ_t/∂x_j‖`` on a trained model.

>>> r = train("attention", 4, steps=200)
>>> bool(r.accuracy > 0.9), bool(r.loss[-1] < r.loss[0] / 10), r.position_accuracy.shape
(True, True, (4,))
>>> a = attention_weights(r)
>>> bool(np.allclose(a.alpha.sum(axis=1), 1)), a.alpha.shape
(True, (4, 4))
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from . import _check
from .common import memo
from .seq2seq_task import MAX_LENGTH, V, _data, _streams

__all__ = [
    "ARMS",
    "LENGTHS",
    "SEEDS",
    "STEPS",
    "Alignment",
    "PathGradients",
    "Sweep",
    "Trained",
    "attention_weights",
    "path_gradients",
    "sweep",
    "train",
]

ARMS = ("bottleneck", "reversed", "attention")
LENGTHS = (4, 7, 10, 13, 16)
SEEDS = (0, 1, 2)  # the first three, never chosen
STEPS = 600  # Adam steps per training
H = 16  # state (and embedding, and attention) width
LEARNING_RATE = 0.01
CLIP = 1.0  # largest gradient norm (Pascanu et al. 2013)
GEMM = 2**18  # OpenBLAS spreads a product of more multiply-adds over threads: stay below, on one core


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


def _lstm(a: np.ndarray, c_prev: np.ndarray):
    """One LSTM step from its pre-activations a = [a_i a_f a_o a_g]: the new h and c, and what the step back needs."""
    h = c_prev.shape[-1]
    ifo, g = 0.5 + 0.5 * np.tanh(0.5 * a[:, : 3 * h]), np.tanh(a[:, 3 * h :])  # σ(x) = (1 + tanh(x/2))/2
    c = ifo[:, h : 2 * h] * c_prev + ifo[:, :h] * g
    tc = np.tanh(c)
    return ifo[:, 2 * h :] * tc, c, (ifo, g, c_prev, tc)


def _lstm_back(dh: np.ndarray, dc: np.ndarray, saved) -> tuple[np.ndarray, np.ndarray]:
    """Equation (2): the gradient of the pre-activations, and of c_{t-1}."""
    ifo, g, c_prev, tc = saved
    h = dh.shape[-1]
    i, f, o = ifo[:, :h], ifo[:, h : 2 * h], ifo[:, 2 * h :]
    dc = dc + dh * o * (1 - tc * tc)
    d_ifo = np.concatenate([dc * g, dc * c_prev, dh * tc], axis=1) * ifo * (1 - ifo)
    return np.concatenate([d_ifo, dc * i * (1 - g * g)], axis=1), dc * f


def _attend(s_prev: np.ndarray, states: np.ndarray, keys: np.ndarray, p):
    """Equation (3): the weights α_tj over the encoder states and the context ctx_t."""
    z = np.tanh(keys + (s_prev @ p["W_a"])[:, None, :])
    e = z @ p["v_a"]
    alpha = np.exp(e - e.max(axis=1, keepdims=True))
    alpha /= alpha.sum(axis=1, keepdims=True)
    return (alpha[:, None, :] @ states)[:, 0], (alpha, z)


def _attend_back(d_context: np.ndarray, states: np.ndarray, saved, p):
    """Equation (4): from ∂ℒ/∂ctx_t to the query s_{t-1}, the keys h_j U_a, the states and v_a."""
    alpha, z = saved
    d_alpha = (states @ d_context[:, :, None])[:, :, 0]
    de = alpha * (d_alpha - (alpha * d_alpha).sum(axis=1, keepdims=True))
    d_pre = de[:, :, None] * p["v_a"] * (1 - z * z)
    d_states = alpha[:, :, None] * d_context[:, None, :]
    return d_pre.sum(axis=1), d_pre, d_states, np.einsum("bja,bj->a", z, de)


# --- one forward pass and one backward pass, for a batch and for every arm ---------------------------


def _mm(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b`` for a whole sequence at once, in blocks of rows small enough for one core."""
    flat, rows = a.reshape(-1, a.shape[-1]), max(1, GEMM // b.size)
    blocks = [flat[i : i + rows] @ b for i in range(0, len(flat), rows)]
    return (blocks[0] if len(blocks) == 1 else np.concatenate(blocks)).reshape(*a.shape[:-1], b.shape[1])


def _forward(p, source: np.ndarray, inputs: np.ndarray | None = None, n_out: int | None = None):
    """Logits (B, T, V) for the decoder inputs (teacher forcing), or for its own greedy choices if none."""
    attention, (b, t_in), width = "W_a" in p, source.shape, len(p["U_enc"])
    n_out = inputs.shape[1] if inputs is not None else n_out
    x_src = p["E_src"][source]
    pre = _mm(x_src, p["W_enc"]) + p["b_enc"]  # every input's share at once
    h_all, c = np.zeros((b, t_in + 1, width)), np.zeros((b, width))  # h_0 = 0, h_1 … h_T
    enc = []
    for j in range(t_in):
        h_all[:, j + 1], c, saved = _lstm(pre[:, j] + h_all[:, j] @ p["U_enc"], c)
        enc.append(saved)
    states = h_all[:, 1:]
    keys = _mm(states, p["U_a"]) if attention else None
    s_all, x_dec, contexts = np.empty((b, n_out + 1, width)), np.empty((b, n_out, width)), np.zeros((b, n_out, width))
    s_all[:, 0], token = h_all[:, -1], np.full(b, len(p["E_tgt"]) - 1)
    logits, dec = np.empty((b, n_out, len(p["b_out"]))), []
    for t in range(n_out):
        x_dec[:, t] = p["E_tgt"][inputs[:, t] if inputs is not None else token]
        a = x_dec[:, t] @ p["W_dec"] + s_all[:, t] @ p["U_dec"] + p["b_dec"]
        att = None
        if attention:
            contexts[:, t], att = _attend(s_all[:, t], states, keys, p)
            a += contexts[:, t] @ p["C_dec"]
        s_all[:, t + 1], c, saved = _lstm(a, c)
        logits[:, t] = s_all[:, t + 1] @ p["W_out"] + p["b_out"] + (contexts[:, t] @ p["C_out"] if attention else 0)
        token = logits[:, t].argmax(axis=1)
        dec.append((saved, att))
    return logits, (source, inputs, x_src, h_all, enc, x_dec, s_all, contexts, dec)


def _loss(logits: np.ndarray, targets: np.ndarray) -> tuple[float, np.ndarray]:
    """Mean cross-entropy over the batch and the positions, and its gradient with respect to the logits."""
    z = logits - logits.max(axis=2, keepdims=True)
    log_p = z - np.log(np.exp(z).sum(axis=2, keepdims=True))
    picked = np.take_along_axis(log_p, targets[:, :, None], axis=2)
    d = np.exp(log_p)
    np.put_along_axis(d, targets[:, :, None], np.take_along_axis(d, targets[:, :, None], axis=2) - 1, axis=2)
    return -float(picked.mean()), d / targets.size


def _outer(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Σ aᵀb over every leading index (batch and time), in blocks for one core: a weight's gradient."""
    a, b = a.reshape(-1, a.shape[-1]), b.reshape(-1, b.shape[-1])
    rows = max(1, GEMM // (a.shape[1] * b.shape[1]))
    return sum(a[i : i + rows].T @ b[i : i + rows] for i in range(0, len(a), rows))


def _backward(p, d_logits: np.ndarray, cache_) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """Backpropagation through time: ∂ℒ/∂ every parameter, and ∂ℒ/∂ every input embedding (B, T_in, H)."""
    source, inputs, x_src, h_all, enc, x_dec, s_all, contexts, dec = cache_
    attention, g, states = "W_a" in p, {}, h_all[:, 1:]
    g["W_out"], g["b_out"] = _outer(s_all[:, 1:], d_logits), d_logits.sum(axis=(0, 1))
    d_s_out, d_states, d_keys = _mm(d_logits, p["W_out"].T), np.zeros_like(states), np.zeros_like(states)
    d_pre_dec, d_query = np.empty((*inputs.shape, p["U_dec"].shape[1])), np.zeros_like(x_dec)
    ds, dc = np.zeros_like(states[:, 0]), np.zeros_like(states[:, 0])
    if attention:
        g["C_out"], g["v_a"], d_ctx_out = _outer(contexts, d_logits), 0, _mm(d_logits, p["C_out"].T)
    for t in reversed(range(len(dec))):
        saved, att = dec[t]
        d_pre_dec[:, t], dc = _lstm_back(ds + d_s_out[:, t], dc, saved)
        ds = d_pre_dec[:, t] @ p["U_dec"].T
        if attention:
            d_ctx = d_ctx_out[:, t] + d_pre_dec[:, t] @ p["C_dec"].T
            d_query[:, t], d_pre, d_st, dv = _attend_back(d_ctx, states, att, p)
            ds += d_query[:, t] @ p["W_a"].T
            d_keys += d_pre
            d_states += d_st
            g["v_a"] += dv
    g["W_dec"], g["U_dec"] = _outer(x_dec, d_pre_dec), _outer(s_all[:, :-1], d_pre_dec)
    g["b_dec"], g["E_tgt"] = d_pre_dec.sum(axis=(0, 1)), np.zeros_like(p["E_tgt"])
    np.add.at(g["E_tgt"], inputs, _mm(d_pre_dec, p["W_dec"].T))
    if attention:
        g["C_dec"], g["W_a"], g["U_a"] = (
            _outer(contexts, d_pre_dec),
            _outer(s_all[:, :-1], d_query),
            _outer(states, d_keys),
        )
        d_states += _mm(d_keys, p["U_a"].T)
    d_pre_enc = np.empty((*source.shape, p["U_enc"].shape[1]))
    for j in reversed(range(len(enc))):
        d_pre_enc[:, j], dc = _lstm_back(ds + d_states[:, j], dc, enc[j])
        ds = d_pre_enc[:, j] @ p["U_enc"].T
    g["W_enc"], g["U_enc"], g["b_enc"] = (
        _outer(x_src, d_pre_enc),
        _outer(h_all[:, :-1], d_pre_enc),
        d_pre_enc.sum((0, 1)),
    )
    d_x_src, g["E_src"] = _mm(d_pre_enc, p["W_enc"].T), np.zeros_like(p["E_src"])
    np.add.at(g["E_src"], source, d_x_src)
    return {k: g[k] for k in p}, d_x_src


def _decoder_inputs(targets: np.ndarray, go: int) -> np.ndarray:
    """Teacher forcing: GO, then the target shifted one step right."""
    return np.concatenate([np.full((len(targets), 1), go), targets[:, :-1]], axis=1)


def _adam(p, g, m, s, step: int, lr: float, beta1: float = 0.9, beta2: float = 0.999, eps: float = 1e-8) -> None:
    """One Adam step (Kingma & Ba 2015), in place."""
    for k in p:
        m[k] = beta1 * m[k] + (1 - beta1) * g[k]
        s[k] = beta2 * s[k] + (1 - beta2) * g[k] * g[k]
        p[k] -= lr * (m[k] / (1 - beta1**step)) / (np.sqrt(s[k] / (1 - beta2**step)) + eps)


def _clip(g, limit: float) -> float:
    """Rescale the whole gradient to norm ``limit`` when it is longer (Pascanu et al. 2013); its norm before."""
    norm = float(np.sqrt(sum(float((v * v).sum()) for v in g.values())))
    if norm > limit:
        for v in g.values():
            v *= limit / norm
    return norm


# --- training and testing one arm ---------------------------------------------------------------------


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
    seconds: float  # CPU seconds (time.process_time) of the training: the one field that varies by run


def _source(arm: str, strings: np.ndarray) -> np.ndarray:
    """What the encoder reads: the string, reversed in the reversed arm."""
    return strings[:, ::-1] if arm == "reversed" else strings


def _train(arm: str, length: int, seed: int, steps: int) -> Trained:
    """Train one arm on the seed's stream with Adam and clipping, then decode the test strings greedily."""
    start = time.process_time()
    train, test = _data(length, seed, steps)
    p = _init(_streams(seed)[0], arm == "attention")
    m, s, losses = {k: np.zeros_like(v) for k, v in p.items()}, {k: np.zeros_like(v) for k, v in p.items()}, []
    for step, strings in enumerate(train, 1):
        logits, saved = _forward(p, _source(arm, strings), _decoder_inputs(strings, V))
        loss, d_logits = _loss(logits, strings)
        g, _ = _backward(p, d_logits, saved)
        _clip(g, CLIP)
        _adam(p, g, m, s, step, LEARNING_RATE)
        losses.append(loss)
    right = _forward(p, _source(arm, test), n_out=length)[0].argmax(axis=2) == test
    params = MappingProxyType({k: _check.frozen(v) for k, v in p.items()})
    curves = (
        _check.frozen(losses),
        float(right.mean()),
        _check.frozen(right.mean(axis=0)),
        _check.frozen(test, np.int64),
    )
    return Trained(arm, length, seed, steps, params, *curves, seconds=time.process_time() - start)


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
    return _train_cached(
        _arm("arm", arm),
        _check.integer("length", length, 4, MAX_LENGTH),
        _check.integer("seed", seed, 0, _check.SEED_MAX),
        _check.integer("steps", steps, 1, 5000),
    )


_train_cached = memo(_train)


# --- what a trained model shows: its attention weights, and how far back its gradient reaches ----------


@dataclass(frozen=True)
class Alignment:
    source: np.ndarray  # (T_in,) the test string
    output: np.ndarray  # (T_out,) the greedy decoding
    alpha: np.ndarray  # (T_out, T_in) α_tj; row t: the weights decoder step t gives the source positions


def attention_weights(trained: Trained, index: int = 0) -> Alignment:
    """The attention weights a trained attention model puts on the positions of one test string.

    Parameters
    ----------
    trained : Trained
        A model of the "attention" arm (from :func:`train` or :func:`sweep`).
    index : int, 0 … 255
        Which held-out string.

    Returns
    -------
    Alignment
        The string, the model's greedy output and α (immutable).
    """
    _check.instance("trained", trained, Trained)
    if trained.arm != "attention":
        raise ValueError(f"trained must be a model of the attention arm, got the {trained.arm} arm")
    string = trained.test[_check.integer("index", index, 0, len(trained.test) - 1)][None]
    logits, (*_, dec) = _forward(dict(trained.params), string, n_out=trained.length)
    alpha = np.stack([att[0][0] for _, att in dec])
    return Alignment(
        _check.frozen(string[0], np.int64), _check.frozen(logits[0].argmax(axis=1), np.int64), _check.frozen(alpha)
    )


@dataclass(frozen=True)
class PathGradients:
    arm: str
    norms: np.ndarray  # (T_out, T_in) mean ‖∂ℓ_t/∂x_j‖ over the strings; j counts the string, not the reading
    distance: np.ndarray  # (T_out, T_in) recurrent steps from reading x_j to emitting y_t, attention aside
    offset: np.ndarray  # (T_out, T_in) |t − j|
    share: np.ndarray  # (T_out, T_in) norms / their row's sum: where the gradient of ℓ_t goes, whatever its size


def path_gradients(trained: Trained, n_strings: int = 64) -> PathGradients:
    """How strongly the loss at each output reaches each input: ‖∂ℓ_t/∂x_j‖, teacher forcing.

    Parameters
    ----------
    trained : Trained
        A trained model of any arm.
    n_strings : int, 1 … 256
        Held-out strings averaged over (the first ones).

    Returns
    -------
    PathGradients
        The mean gradient norms and, for each pair (t, j), the path length along the recurrence (immutable).
    """
    _check.instance("trained", trained, Trained)
    n, L = _check.integer("n_strings", n_strings, 1, len(trained.test)), trained.length
    strings = np.repeat(trained.test[:n], L, axis=0)  # copy t of a string back-propagates ℓ_t alone
    logits, saved = _forward(dict(trained.params), _source(trained.arm, strings), _decoder_inputs(strings, V))
    _, d_logits = _loss(logits, strings)
    d_logits *= strings.size * (np.arange(L) == np.arange(len(strings))[:, None] % L)[:, :, None]
    _, d_x = _backward(dict(trained.params), d_logits, saved)
    norms = np.linalg.norm(d_x, axis=2).reshape(n, L, L).mean(axis=0)
    t, j = np.arange(L)[:, None], np.arange(L)[None, :]
    read = L - 1 - j if trained.arm == "reversed" else j  # the encoder step that reads x_j
    if trained.arm == "reversed":
        norms = norms[:, ::-1]
    return PathGradients(
        trained.arm,
        _check.frozen(norms),
        _check.frozen(L - read + t, np.int64),
        _check.frozen(abs(t - j), np.int64),
        _check.frozen(norms / norms.sum(axis=1, keepdims=True)),
    )


# --- the page's sweep: every arm, length and seed ---------------------------------------------------------


@dataclass(frozen=True)
class Sweep:
    arms: tuple[str, ...]
    lengths: tuple[int, ...]
    seeds: tuple[int, ...]
    accuracy: np.ndarray  # (arms, lengths, seeds)
    models: tuple  # models[a][l][s]: the Trained of arms[a], lengths[l], seeds[s]
    seconds: float  # CPU seconds of all the trainings

    def model(self, arm: str, length: int, seed: int) -> Trained:
        """The model trained for one arm, length and seed."""
        return self.models[self.arms.index(arm)][self.lengths.index(length)][self.seeds.index(seed)]


@memo
def _sweep(arms: tuple, lengths: tuple, seeds: tuple, steps: int) -> Sweep:
    """Every arm at every length and seed (cached: a page calls it many times)."""
    models = tuple(tuple(tuple(_train_cached(a, n, s, steps) for s in seeds) for n in lengths) for a in arms)
    accuracy = [[[m.accuracy for m in row] for row in arm] for arm in models]
    seconds = sum(m.seconds for arm in models for row in arm for m in row)
    return Sweep(arms, lengths, seeds, _check.frozen(accuracy), models, seconds)


def sweep(arms=ARMS, lengths=LENGTHS, seeds=SEEDS, steps: int = STEPS) -> Sweep:
    """Accuracy against length: every arm trained at every length with every seed, one budget.

    Parameters
    ----------
    arms : iterable of str, each "bottleneck", "reversed" or "attention"
        The arms, at most three.
    lengths : iterable of int, each 4 … 20
        String lengths, at most eight.
    seeds : iterable of int, each 0 … 2**63 - 1
        Seeds, at most ten (the page uses 0, 1, 2).
    steps : int, 1 … 5000
        Adam steps per training.

    Returns
    -------
    Sweep
        Accuracies (arms, lengths, seeds) and every trained model (immutable, remembered).
    """
    arms = tuple(_arm(f"arms[{i}]", a) for i, a in enumerate(_check.count("arms", arms, len(ARMS))))
    lengths = tuple(
        _check.integer(f"lengths[{i}]", n, 4, MAX_LENGTH) for i, n in enumerate(_check.count("lengths", lengths, 8))
    )
    return _sweep(arms, lengths, tuple(_check.seeds("seeds", seeds, 10)), _check.integer("steps", steps, 1, 5000))
