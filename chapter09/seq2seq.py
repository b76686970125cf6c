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
remedy for exploding gradients.  One ``_forward`` and one ``_backward`` serve every arm,
and attention adds its terms when its weights are there.  They are vectorised over the
batch and over a leading axis of ``M`` models trained side by side (every array is
``(M, B, T, …)``): the page trains the six models without attention of one length in one
stack, and the three with attention in another.  Nothing mixes the models, so each learns
bit for bit what it learns alone (tested), and the products run on one BLAS thread, so
that the sums come in the same order on any machine.

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

from . import _check
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


def _stack(models: list[dict]) -> dict[str, np.ndarray]:
    """Several models' parameters side by side: each array gains a leading model axis M."""
    return {k: np.stack([p[k] for p in models]) for k in models[0]}


def _T(w: np.ndarray) -> np.ndarray:
    """Each model's matrix transposed: (M, i, j) → (M, j, i)."""
    return np.swapaxes(w, -1, -2)


def _sigmoid(x: np.ndarray) -> np.ndarray:
    """σ(x) = 1/(1 + e⁻ˣ); e⁻ˣ = ∞ gives 0 exactly."""
    with np.errstate(over="ignore"):
        e = np.exp(-x)
    e += 1
    return np.divide(1, e, out=e)


def _tanh(x: np.ndarray) -> np.ndarray:
    """tanh x = 1 − 2/(e²ˣ + 1), within 4·10⁻¹⁶ of numpy's tanh; e²ˣ = ∞ gives 1 exactly.  numpy's exp is
    vectorised where its tanh is not: the training, which spends most of its time here, takes 30 % less."""
    with np.errstate(over="ignore"):
        e = np.exp(2 * x)
    e += 1
    np.divide(2, e, out=e)
    return np.subtract(1, e, out=e)


def _lstm(a: np.ndarray, c_prev: np.ndarray):
    """One LSTM step from its pre-activations a = [a_i a_f a_o a_g]: the new h and c, and what the step back needs."""
    h = c_prev.shape[-1]
    ifo, g = _sigmoid(a[..., : 3 * h]), _tanh(a[..., 3 * h :])
    c = ifo[..., h : 2 * h] * c_prev + ifo[..., :h] * g
    tc = _tanh(c)
    return ifo[..., 2 * h :] * tc, c, (ifo, g, c_prev, tc)


def _lstm_back(dh: np.ndarray, dc: np.ndarray, saved) -> tuple[np.ndarray, np.ndarray]:
    """Equation (2): the gradient of the pre-activations, and of c_{t-1}."""
    ifo, g, c_prev, tc = saved
    h = dh.shape[-1]
    i, f, o = ifo[..., :h], ifo[..., h : 2 * h], ifo[..., 2 * h :]
    dc = dc + dh * o * (1 - tc * tc)
    d_ifo = np.concatenate([dc * g, dc * c_prev, dh * tc], axis=-1) * ifo * (1 - ifo)
    return np.concatenate([d_ifo, dc * i * (1 - g * g)], axis=-1), dc * f


def _attend(s_prev: np.ndarray, states: np.ndarray, keys: np.ndarray, p):
    """Equation (3): the weights α_tj over the encoder states (M, B, T) and the context ctx_t (M, B, H)."""
    z = _tanh(keys + (s_prev @ p["W_a"])[:, :, None, :])
    e = (z @ p["v_a"][:, None, :, None])[..., 0]
    alpha = np.exp(e - e.max(axis=-1, keepdims=True))
    alpha /= alpha.sum(axis=-1, keepdims=True)
    return (alpha[:, :, None, :] @ states)[:, :, 0], (alpha, z)


def _attend_back(d_context: np.ndarray, states: np.ndarray, saved, p):
    """Equation (4): from ∂ℒ/∂ctx_t to the query s_{t-1}, the keys h_j U_a, the states and v_a."""
    alpha, z = saved
    d_alpha = (states @ d_context[..., None])[..., 0]
    de = alpha * (d_alpha - (alpha * d_alpha).sum(axis=-1, keepdims=True))
    d_pre = de[..., None] * p["v_a"][:, None, None, :] * (1 - z * z)
    d_states = alpha[..., None] * d_context[:, :, None, :]
    return d_pre.sum(axis=2), d_pre, d_states, np.einsum("mbja,mbj->ma", z, de)


# --- one forward pass and one backward pass, for M models side by side, a batch each, every arm ------


def _mm(a: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Each model's ``a @ w`` for a whole sequence at once: a (M, …, i), w (M, i, j) → (M, …, j)."""
    m, i = a.shape[0], a.shape[-1]
    return (a.reshape(m, -1, i) @ w).reshape(*a.shape[:-1], w.shape[-1])


def _outer(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Each model's Σ aᵀb over every other index (batch and time): a weight's gradient, (M, i, j)."""
    m = a.shape[0]
    return _T(a.reshape(m, -1, a.shape[-1])) @ b.reshape(m, -1, b.shape[-1])


def _embed(table: np.ndarray, symbols: np.ndarray) -> np.ndarray:
    """Each model's embedding rows: table (M, V, H), symbols (M, …) → (M, …, H)."""
    models = np.arange(len(table)).reshape(-1, *[1] * (symbols.ndim - 1))
    return table[models, symbols]


def _forward(p, source: np.ndarray, inputs: np.ndarray | None = None, n_out: int | None = None):
    """Logits (M, B, T, V) for the decoder inputs (teacher forcing), or for its own greedy choices if none."""
    attention, (m, b, t_in), width = "W_a" in p, source.shape, p["U_enc"].shape[1]
    n_out = inputs.shape[2] if inputs is not None else n_out
    x_src = _embed(p["E_src"], source)
    pre = _mm(x_src, p["W_enc"]) + p["b_enc"][:, None, None, :]  # every input's share at once
    h_all, c = np.zeros((m, b, t_in + 1, width)), np.zeros((m, b, width))  # h_0 = 0, h_1 … h_T
    enc = []
    for j in range(t_in):
        h_all[:, :, j + 1], c, saved = _lstm(pre[:, :, j] + h_all[:, :, j] @ p["U_enc"], c)
        enc.append(saved)
    states = h_all[:, :, 1:]
    keys = _mm(states, p["U_a"]) if attention else None
    s_all, x_dec = np.empty((m, b, n_out + 1, width)), np.empty((m, b, n_out, width))
    contexts = np.zeros((m, b, n_out, width))
    s_all[:, :, 0], token = h_all[:, :, -1], np.full((m, b), p["E_tgt"].shape[1] - 1)
    logits, dec = np.empty((m, b, n_out, p["b_out"].shape[-1])), []
    for t in range(n_out):
        x_dec[:, :, t] = _embed(p["E_tgt"], inputs[:, :, t] if inputs is not None else token)
        a = x_dec[:, :, t] @ p["W_dec"] + s_all[:, :, t] @ p["U_dec"] + p["b_dec"][:, None, :]
        att = None
        if attention:
            contexts[:, :, t], att = _attend(s_all[:, :, t], states, keys, p)
            a += contexts[:, :, t] @ p["C_dec"]
        s_all[:, :, t + 1], c, saved = _lstm(a, c)
        logits[:, :, t] = s_all[:, :, t + 1] @ p["W_out"] + p["b_out"][:, None, :]
        if attention:
            logits[:, :, t] += contexts[:, :, t] @ p["C_out"]
        token = logits[:, :, t].argmax(axis=-1)
        dec.append((saved, att))
    return logits, (source, inputs, x_src, h_all, enc, x_dec, s_all, contexts, dec)


def _loss(logits: np.ndarray, targets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each model's mean cross-entropy over its batch and the positions (M,), and its gradient in the logits."""
    z = logits - logits.max(axis=-1, keepdims=True)
    log_p = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    picked = np.take_along_axis(log_p, targets[..., None], axis=-1)[..., 0]
    d = np.exp(log_p)
    np.put_along_axis(d, targets[..., None], np.take_along_axis(d, targets[..., None], axis=-1) - 1, axis=-1)
    return -picked.reshape(len(picked), -1).mean(axis=1), d / targets[0].size


def _backward(p, d_logits: np.ndarray, cache_) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """Backpropagation through time: ∂ℒ/∂ every parameter, and ∂ℒ/∂ every input embedding (M, B, T_in, H)."""
    source, inputs, x_src, h_all, enc, x_dec, s_all, contexts, dec = cache_
    attention, g, states = "W_a" in p, {}, h_all[:, :, 1:]
    g["W_out"], g["b_out"] = _outer(s_all[:, :, 1:], d_logits), d_logits.sum(axis=(1, 2))
    d_s_out, d_states, d_keys = _mm(d_logits, _T(p["W_out"])), np.zeros_like(states), np.zeros_like(states)
    d_pre_dec, d_query = np.empty((*inputs.shape, p["U_dec"].shape[-1])), np.zeros_like(x_dec)
    ds, dc = np.zeros_like(states[:, :, 0]), np.zeros_like(states[:, :, 0])
    if attention:
        g["C_out"], g["v_a"], d_ctx_out = _outer(contexts, d_logits), 0, _mm(d_logits, _T(p["C_out"]))
    for t in reversed(range(len(dec))):
        saved, att = dec[t]
        d_pre_dec[:, :, t], dc = _lstm_back(ds + d_s_out[:, :, t], dc, saved)
        ds = d_pre_dec[:, :, t] @ _T(p["U_dec"])
        if attention:
            d_ctx = d_ctx_out[:, :, t] + d_pre_dec[:, :, t] @ _T(p["C_dec"])
            d_query[:, :, t], d_pre, d_st, dv = _attend_back(d_ctx, states, att, p)
            ds += d_query[:, :, t] @ _T(p["W_a"])
            d_keys += d_pre
            d_states += d_st
            g["v_a"] += dv
    g["W_dec"], g["U_dec"] = _outer(x_dec, d_pre_dec), _outer(s_all[:, :, :-1], d_pre_dec)
    g["b_dec"], g["E_tgt"] = d_pre_dec.sum(axis=(1, 2)), np.zeros_like(p["E_tgt"])
    np.add.at(g["E_tgt"], (_models(inputs), inputs), _mm(d_pre_dec, _T(p["W_dec"])))
    if attention:
        g["C_dec"], g["W_a"] = _outer(contexts, d_pre_dec), _outer(s_all[:, :, :-1], d_query)
        g["U_a"] = _outer(states, d_keys)
        d_states += _mm(d_keys, _T(p["U_a"]))
    d_pre_enc = np.empty((*source.shape, p["U_enc"].shape[-1]))
    for j in reversed(range(len(enc))):
        d_pre_enc[:, :, j], dc = _lstm_back(ds + d_states[:, :, j], dc, enc[j])
        ds = d_pre_enc[:, :, j] @ _T(p["U_enc"])
    g["W_enc"], g["U_enc"] = _outer(x_src, d_pre_enc), _outer(h_all[:, :, :-1], d_pre_enc)
    g["b_enc"] = d_pre_enc.sum(axis=(1, 2))
    d_x_src, g["E_src"] = _mm(d_pre_enc, _T(p["W_enc"])), np.zeros_like(p["E_src"])
    np.add.at(g["E_src"], (_models(source), source), d_x_src)
    return {k: g[k] for k in p}, d_x_src


def _models(symbols: np.ndarray) -> np.ndarray:
    """The model index of each symbol of (M, B, T): for scattering into each model's embeddings."""
    return np.arange(len(symbols))[:, None, None]


def _decoder_inputs(targets: np.ndarray, go: int) -> np.ndarray:
    """Teacher forcing: GO, then the target shifted one step right (along the last axis)."""
    return np.concatenate([np.full((*targets.shape[:-1], 1), go), targets[..., :-1]], axis=-1)


def _adam(p, g, m, s, step: int, lr: float, beta1: float = 0.9, beta2: float = 0.999, eps: float = 1e-8) -> None:
    """One Adam step (Kingma & Ba 2015), in place."""
    for k in p:
        m[k] = beta1 * m[k] + (1 - beta1) * g[k]
        s[k] = beta2 * s[k] + (1 - beta2) * g[k] * g[k]
        p[k] -= lr * (m[k] / (1 - beta1**step)) / (np.sqrt(s[k] / (1 - beta2**step)) + eps)


def _clip(g, limit: float) -> np.ndarray:
    """Rescale each model's whole gradient to norm ``limit`` when it is longer (Pascanu et al. 2013);
    the norms before, (M,)."""
    m = len(next(iter(g.values())))
    norm = np.sqrt(sum((v * v).reshape(m, -1).sum(axis=1) for v in g.values()))
    longer = norm > limit
    if longer.any():
        scale = np.where(longer, limit / norm, 1.0)
        for v in g.values():
            v[longer] *= scale[longer].reshape(-1, *[1] * (v.ndim - 1))
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


def _one(p: dict, k: int) -> dict:
    """Model k of a stack, as a stack of one."""
    return {name: v[k : k + 1] for name, v in p.items()}


def _train_many(runs: tuple, length: int, steps: int) -> tuple[Trained, ...]:
    """Train the models ``runs`` = ((arm, seed), …) side by side, all with attention or all without,
    each on its seed's stream with Adam and clipping; then decode the test strings greedily.
    A model learns bit for bit what it learns alone: nothing mixes the models."""
    arms = [arm for arm, _ in runs]
    data = [_data(length, seed, steps) for _, seed in runs]
    train = np.stack([strings for strings, _ in data], axis=1)  # (steps, M, B, L)
    test = np.stack([t for _, t in data])
    source = np.stack([_source(arm, train[:, k]) for k, arm in enumerate(arms)], axis=1)
    p = _stack([_init(_streams(seed)[0], arm == "attention") for arm, seed in runs])
    m, s, losses = {k: np.zeros_like(v) for k, v in p.items()}, {k: np.zeros_like(v) for k, v in p.items()}, []
    with threadpool_limits(1, "blas"):  # one core: the same sums in the same order on any machine
        for step in range(steps):
            logits, saved = _forward(p, source[step], _decoder_inputs(train[step], V))
            loss, d_logits = _loss(logits, train[step])
            g, _ = _backward(p, d_logits, saved)
            _clip(g, CLIP)
            _adam(p, g, m, s, step + 1, LEARNING_RATE)
            losses.append(loss)
        test_source = np.stack([_source(arm, t) for arm, t in zip(arms, test)])
        right = _forward(p, test_source, n_out=length)[0].argmax(axis=-1) == test
    losses = np.array(losses).T
    return tuple(
        Trained(
            arm,
            length,
            seed,
            steps,
            MappingProxyType({name: _check.frozen(v[k]) for name, v in p.items()}),
            _check.frozen(losses[k]),
            float(right[k].mean()),
            _check.frozen(right[k].mean(axis=0)),
            _check.frozen(test[k], np.int64),
        )
        for k, (arm, seed) in enumerate(runs)
    )


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
