"""Widget 8 — the door back: a gated linear recurrence, its parallel scan, and the memory of
real models.

The recurrence, channel by channel (⊙ is elementwise)::

    h_t = a_t ⊙ h_{t-1} + b_t,      a_t = σ(z_t) ∈ (0, 1)

is the form of minGRU (Feng et al. 2024) and of Mamba's selective scan (Gu and Dao 2023):
page 07's σ(a)⊙b with the state as one of the two branches.  Step t is the affine map
f_t(x) = a_t x + b_t, and affine maps compose into affine maps, first (a₁, b₁) then (a₂, b₂)::

    (a₁, b₁) ∘ (a₂, b₂) = (a₂a₁, a₂b₁ + b₂)

an associative operation on pairs of numbers.  So h_t = (f_1 ∘ … ∘ f_t)(h_0) is a prefix
"sum", and the Hillis–Steele inclusive scan (Hillis and Steele 1986) reaches every prefix in
R = ⌈log₂ L⌉ rounds: in round r each position i ≥ 2^r combines the pair 2^r places back into its
own, L − 2^r combines at once.  Work: Σ_r (L − 2^r) = L·R − 2^R + 1 combines, against the loop's
L steps (depth L): more work, done in fewer rounds.

The gradient is an identity: ∂h_T/∂h_{T−k} = ∏_{t=T−k+1}^{T} a_t, elementwise, so
ln|∂h_T/∂h_{T−k}| = Σ ln a_t and its slope over the T steps is the mean of ln a_t exactly (page
01's tanh RNN had only an estimate, ln(ρ·tanh′)).

A tanh step, x ↦ tanh(w x + u), does not compose that way: tanh(a₂ tanh(a₁x + b₁) + b₂) is of
the form tanh(αx + β) only if its pre-activation u(x) = a₂ tanh(a₁x + b₁) + b₂ is affine in x,
and it is not: no family of fixed size closes under composition, and the loop stays serial.

Memory at inference, in bytes: a KV cache keeps, per token and attention layer, the numbers of
its keys and values; a recurrent layer keeps a fixed state.  :data:`MODELS` holds published
configurations, each with its source (a key of book/referencies.bib).

>>> s = scan([[0.5], [0.5], [0.5]], [[1.0], [1.0], [1.0]])
>>> s.h[:, 0].tolist(), s.rounds, s.combines
([1.0, 1.5, 1.75], 2, 3)
>>> work(1024)
Work(loop_depth=1024, loop_work=1024, scan_depth=10, scan_work=9217)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import validate
from .common import memo
from .portable import sigmoid, tanh

__all__ = [
    "CHANNELS",
    "GATE_MEAN",
    "GATE_SCALE",
    "MODELS",
    "STEPS",
    "Composition",
    "Memory",
    "Scan",
    "Work",
    "cache_bytes",
    "compose",
    "crossover",
    "draw",
    "gradient",
    "loop",
    "matrix_state_bytes",
    "scan",
    "work",
]

STEPS, CHANNELS = 1024, 16  # the page's sequence: L = T steps of 16 channels (page 07's 16)
GATE_MEAN, GATE_SCALE = 3.0, 1.0  # z_t ~ N(3, 1): gates σ(z) near 1, a state that remembers
STEP_SLOPES = (0.5, 3.0)  # two tanh steps' slopes a1, a2 are drawn from this range (steps())
MAX_VALUE = 1e100  # |b|, |h0| at most this: L sums of them stay finite
MAX_LENGTH = 2**20
MAX_WORK = 10**8  # L·d numbers in one recurrence (a few seconds)


@dataclass(frozen=True)
class Scan:
    h: np.ndarray  # (L, d): h_1 … h_L
    rounds: int  # ⌈log₂ L⌉
    combines: int  # pairs of affine maps combined, counted


@dataclass(frozen=True)
class Work:
    loop_depth: int
    loop_work: int
    scan_depth: int
    scan_work: int


@dataclass(frozen=True)
class Composition:
    affine: float  # relative residual of the best line through the composed affine maps
    tanh: float  # relative residual of the best line through the composed tanh step's pre-activation


MEMORY_FIELDS = (  # a Memory's counts and the values each may take: (field, lowest, highest)
    ("attention_layers", 0, 10_000),
    ("kv_numbers", 0, 10**9),
    ("bytes_per_number", 1, 16),
    ("window", 0, 10**9),
    ("state_numbers", 0, 10**15),
    ("state_layers", 0, 10_000),
)


@dataclass(frozen=True)
class Memory:
    """A model's memory at inference: a KV cache of ``kv_numbers`` per token and attention layer
    (keys and values together) over ``attention_layers`` layers, kept for at most ``window``
    tokens (0: all of them), and a fixed state of ``state_numbers`` in all."""

    name: str
    attention_layers: int
    kv_numbers: int
    bytes_per_number: int
    source: str  # the bibliography key of the configuration
    window: int = 0
    state_numbers: int = 0
    state_layers: int = 0  # the layers that keep the state

    def __post_init__(self):
        """Refuse what no model can be (NaN, negative or fractional counts): ``cache_bytes`` counts them."""
        validate.text("name", self.name), validate.text("source", self.source)
        for field, lo, hi in MEMORY_FIELDS:
            object.__setattr__(self, field, validate.integer(field, getattr(self, field), lo, hi))
        if self.state_numbers and not self.state_layers:
            raise ValueError(
                f"state_layers must be an integer from 1 to {MEMORY_FIELDS[-1][2]} when state_numbers > 0, got 0"
            )

    @property
    def per_token(self) -> int:
        """Bytes the cache grows by with each token (inside the window)."""
        return self.attention_layers * self.kv_numbers * self.bytes_per_number

    @property
    def layer_state_numbers(self) -> int:
        """The numbers of the fixed state of one of its recurrent layers (0 without a state)."""
        return self.state_numbers // self.state_layers if self.state_layers else 0


MODELS = (
    # multi-head attention: a key and a value of d_model = 5.120 numbers in each of 40 layers, fp16
    Memory("OPT-13B", 40, 2 * 5120, 2, "zhang2022"),
    # grouped-query attention: 8 key–value heads of 128 numbers, 32 layers, bf16
    Memory("Llama-3.1-8B", 32, 2 * 8 * 128, 2, "grattafiori2024"),
    # multi-head latent attention: a latent of kv_lora_rank 512 and a RoPE key of 64, 61 layers
    Memory("DeepSeek-V3", 61, 512 + 64, 2, "deepseek2024"),
    # sliding-window attention: Llama-3.1-8B's geometry, a window of 4.096 tokens
    Memory("Mistral-7B", 32, 2 * 8 * 128, 2, "jiang2023", window=4096),
    # hybrid: 12 gated-attention layers of 48 (every 4th: 2 key–value heads of 256), and 36 Gated
    # DeltaNet layers of 32 value heads, each a 128×128 matrix, plus a convolution of 3 past inputs
    # over 2·16·128 + 32·128 channels; bf16 like the cache
    Memory(
        "Qwen3-Next-80B-A3B",
        12,
        2 * 2 * 256,
        2,
        "qwen2025",
        state_numbers=36 * (32 * 128 * 128 + 3 * 8192),
        state_layers=36,
    ),
)


def _pairs(a, b) -> tuple[np.ndarray, np.ndarray]:
    """The gates ``a`` in [0, 1] and the inputs ``b``, as (L, d) float64 of one shape."""
    a, b = validate.array("a", a), validate.array("b", b)
    if a.ndim not in (1, 2) or a.shape != b.shape:
        raise ValueError(f"a and b must be arrays of one shape (L,) or (L, d), got {a.shape} and {b.shape}")
    if np.any((a < 0) | (a > 1)):
        raise ValueError("a must hold gates in [0, 1]")
    if np.any(np.abs(b) > MAX_VALUE):
        raise ValueError(f"b must hold numbers of magnitude at most {MAX_VALUE:g}")
    validate.size("a", a.size, MAX_WORK, "L·d")
    return (a, b) if a.ndim == 2 else (a[:, None], b[:, None])


def _start(h0, d: int) -> np.ndarray:
    if h0 is None:
        return np.zeros(d)
    h0 = validate.array("h0", h0)
    if h0.shape not in ((), (d,)) or np.any(np.abs(h0) > MAX_VALUE):
        raise ValueError(f"h0 must be a number or {d} numbers of magnitude at most {MAX_VALUE:g}")
    return np.broadcast_to(h0, (d,))


@memo
def draw(L: int = STEPS, d: int = CHANNELS, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Gates and inputs for L steps of d channels: a = σ(z), z ~ N(GATE_MEAN, GATE_SCALE²), b ~ N(0, 1).

    Parameters
    ----------
    L : int, 1 … 2**20
        Steps.
    d : int, 1 … 4096
        Channels (L·d at most 10**8).
    seed : int, 0 … 2**63 − 1
        The seed of numpy's default generator.

    Returns
    -------
    tuple of numpy.ndarray, each (L, d), read-only
        The gates a (in (0, 1)) and the inputs b.
    """
    L, d = validate.integer("L", L, 1, MAX_LENGTH), validate.integer("d", d, 1, 4096)
    validate.size("L, d", L * d, MAX_WORK, "L·d")
    rng = np.random.default_rng(validate.integer("seed", seed, 0, validate.SEED_MAX))
    z = rng.normal(GATE_MEAN, GATE_SCALE, (L, d))
    return validate.frozen(sigmoid(z)), validate.frozen(rng.normal(size=(L, d)))


def loop(a, b, h0=None) -> np.ndarray:
    """The recurrence step by step: h_t = a_t ⊙ h_{t−1} + b_t, L sequential steps.

    Parameters
    ----------
    a : array_like of float, shape (L,) or (L, d), in [0, 1]
        The gates.
    b : array_like of float, shape like a, magnitude ≤ 1e100
        The inputs.
    h0 : float, array_like of d floats, or None
        The state before the first step (None: zeros).

    Returns
    -------
    numpy.ndarray, shape (L, d)
        h_1 … h_L (d = 1 for one-dimensional a).
    """
    a, b = _pairs(a, b)
    h, out = _start(h0, a.shape[1]).copy(), np.empty_like(a)
    for t in range(len(a)):
        h = a[t] * h + b[t]
        out[t] = h
    return out


def scan(a, b, h0=None) -> Scan:
    """The same recurrence by a Hillis–Steele inclusive scan of the affine maps (a_t, b_t).

    Parameters
    ----------
    a : array_like of float, shape (L,) or (L, d), in [0, 1]
        The gates.
    b : array_like of float, shape like a, magnitude ≤ 1e100
        The inputs.
    h0 : float, array_like of d floats, or None
        The state before the first step (None: zeros).

    Returns
    -------
    Scan
        ``h`` (L, d), the ``rounds`` run (⌈log₂ L⌉) and the ``combines`` counted.
    """
    A, B = (x.copy() for x in _pairs(a, b))
    h0 = _start(h0, A.shape[1])
    L, shift, rounds, combines = len(A), 1, 0, 0
    while shift < L:  # every position i ≥ shift at once: (A, B)[i − shift] ∘ (A, B)[i]
        A[shift:], B[shift:] = A[shift:] * A[:-shift], A[shift:] * B[:-shift] + B[shift:]
        rounds, combines, shift = rounds + 1, combines + L - shift, 2 * shift
    return Scan(validate.frozen(A * h0 + B), rounds, combines)


def work(L: int) -> Work:
    """Depth (sequential rounds) and work (maps applied or combined) of the loop and of the scan.

    Parameters
    ----------
    L : int, 1 … 2**40
        Steps.

    Returns
    -------
    Work
        The loop's depth and work, L and L; the scan's, ⌈log₂ L⌉ and L·⌈log₂ L⌉ − 2^⌈log₂ L⌉ + 1.
    """
    L = validate.integer("L", L, 1, 2**40)
    R = (L - 1).bit_length()  # ⌈log₂ L⌉
    return Work(L, L, R, L * R - 2**R + 1)


def gradient(a) -> np.ndarray:
    """∂h_T/∂h_{T−k} for k = 0 … T, by backpropagation through the loop (one step back at a time).

    Parameters
    ----------
    a : array_like of float, shape (T,) or (T, d), in [0, 1]
        The gates.

    Returns
    -------
    numpy.ndarray, shape (T + 1, d)
        Row k is the diagonal Jacobian ∂h_T/∂h_{T−k}: 1 at k = 0, then a_T, a_T·a_{T−1}, …
    """
    a = validate.array("a", a)
    a, _ = _pairs(a, np.zeros_like(a))
    out = np.ones((len(a) + 1, a.shape[1]))
    for k in range(1, len(a) + 1):
        out[k] = out[k - 1] * a[-k]  # the chain rule: ∂h_{T−k+1}/∂h_{T−k} = a_{T−k+1}
    return out


@memo
def measured_slope(seed: int) -> tuple[float, float]:
    """On the draw of ``seed``: the measured slope, ln|∂h_T/∂h_0| / T (backprop, mean over channels),
    and the mean of ln a."""
    a, _ = draw(seed=seed)
    return float(np.log(gradient(a)[-1]).mean() / len(a)), float(np.log(a).mean())


def uniform_gates(a: float, T: int) -> tuple[float, float]:
    """Every gate ``a``: the slope of the log-gradient per step, ln a, and ∂h_T/∂h_0 = a^T, exactly."""
    return float(np.log(a)), a**T


@memo
def scan_gap(seed: int) -> float:
    """On the draw of ``seed``: how far the scan's states are from the loop's, in units of rounding."""
    a, b = draw(seed=seed)
    return ulps_apart(scan(a, b).h, loop(a, b))


def steps(seed: int) -> tuple[float, float, float, float]:
    """Two steps (a1, b1, a2, b2) drawn from ``seed``: slopes in ``STEP_SLOPES``, offsets N(0, 1)."""
    rng = np.random.default_rng(seed)
    (a1, a2), (b1, b2) = rng.uniform(*STEP_SLOPES, 2), rng.normal(size=2)
    return float(a1), float(b1), float(a2), float(b2)


def compose(a1: float, b1: float, a2: float, b2: float, points: int = 201) -> Composition:
    """Two steps composed, affine and tanh, and how far each is from one step of its own kind.

    Parameters
    ----------
    a1 : float, −10 … 10
        The first step's slope: x ↦ a1·x + b1 (or its tanh).
    b1 : float, −10 … 10
        The first step's offset.
    a2 : float, −10 … 10
        The second step's slope: x ↦ a2·x + b2 (or its tanh).
    b2 : float, −10 … 10
        The second step's offset.
    points : int, 2 … 100000
        Points of the grid x ∈ [−3, 3] on which the best line is fitted.

    Returns
    -------
    Composition
        The relative residual (RMS residual over RMS deviation from the mean, 0 for a constant)
        of the least-squares line through a2·(a1·x + b1) + b2, and through the pre-activation
        a2·tanh(a1·x + b1) + b2 of the composed tanh steps: 0 exactly when the composition is one
        step x ↦ αx + β (or tanh(αx + β)).
    """
    a1, b1, a2, b2 = (validate.real(n, v, -10, 10) for n, v in zip(("a1", "b1", "a2", "b2"), (a1, b1, a2, b2)))
    x = np.linspace(-3, 3, validate.integer("points", points, 2, 100_000))
    return Composition(_line_residual(x, a2 * (a1 * x + b1) + b2), _line_residual(x, a2 * tanh(a1 * x + b1) + b2))


def _line_residual(x: np.ndarray, y: np.ndarray) -> float:
    """RMS residual of the least-squares line through (x, y) over the RMS deviation of y (0 if y is flat):
    the line's slope is Σ(x − x̄)(y − ȳ) / Σ(x − x̄)², in arithmetic whose last bit no CPU changes."""
    dx, dy = x - x.mean(), y - y.mean()
    spread = np.sqrt(np.mean(dy * dy))
    if spread <= 1e-300 + 4 * np.finfo(float).eps * np.abs(y).max():
        return 0.0
    residual = dy - (np.sum(dx * dy) / np.sum(dx * dx)) * dx
    return float(np.sqrt(np.mean(residual * residual)) / spread)


def cache_bytes(model: Memory, L: int) -> int:
    """What ``model`` keeps in memory after L tokens: its KV cache (inside its window) and its state.

    Parameters
    ----------
    model : Memory
        A configuration (one of :data:`MODELS`).
    L : int, 1 … 10**9
        Tokens of context.

    Returns
    -------
    int
        Bytes: ``per_token · min(L, window)`` plus ``state_numbers · bytes_per_number``.
    """
    model = validate.instance("model", model, Memory)
    L = validate.integer("L", L, 1, 10**9)
    kept = min(L, model.window) if model.window else L
    return model.per_token * kept + model.state_numbers * model.bytes_per_number


def matrix_state_bytes(d: int, layers: int, bytes_per_number: int = 2) -> int:
    """A fixed state of one d×d matrix per layer (an mLSTM-like memory), in bytes.

    Parameters
    ----------
    d : int, 1 … 10**6
        The matrix's side.
    layers : int, 1 … 10000
        Layers, one matrix each.
    bytes_per_number : int, 1 … 16
        Bytes per number (2: bf16).

    Returns
    -------
    int
        ``layers · d² · bytes_per_number``.
    """
    d, layers = validate.integer("d", d, 1, 10**6), validate.integer("layers", layers, 1, 10_000)
    return layers * d * d * validate.integer("bytes_per_number", bytes_per_number, 1, 16)


def crossover(state_bytes: int, per_token: int) -> int:
    """The context length at which a growing cache of ``per_token`` bytes a token reaches a fixed
    state of ``state_bytes``: beyond it the fixed state is the smaller.

    Parameters
    ----------
    state_bytes : int, 1 … 10**18
        The fixed state.
    per_token : int, 1 … 10**12
        What the cache grows by with each token.

    Returns
    -------
    int
        ⌈state_bytes / per_token⌉, in tokens.
    """
    state_bytes = validate.integer("state_bytes", state_bytes, 1, 10**18)
    return -(-state_bytes // validate.integer("per_token", per_token, 1, 10**12))


def ulps_apart(x: np.ndarray, y: np.ndarray) -> float:
    """max |x − y| in units of rounding of the largest |y|: ε·max|y|."""
    return float(np.abs(x - y).max() / (np.finfo(float).eps * max(np.abs(y).max(), np.finfo(float).tiny)))
