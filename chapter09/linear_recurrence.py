"""Widget 8 — the door back: a gated linear recurrence, its parallel scan, and the memory of
real models.

The recurrence, channel by channel (⊙ is elementwise; the page writes λ_t for the gates and x_t
for the inputs, as Martin and Cundy (2018) do; the code calls them ``a`` and ``b``)::

    h_t = λ_t ⊙ h_{t-1} + x_t,      λ_t = σ(z_t) ∈ (0, 1)

is the form of minGRU (Feng et al. 2024) and of Mamba's selective scan (Gu and Dao 2023):
page 07's σ(a)⊙b with the state as one of the two branches.  Step t is the affine map
f_t(h) = λ_t h + x_t, and affine maps compose into affine maps, first (λ₁, x₁) then (λ₂, x₂)::

    (λ₁, x₁) ∘ (λ₂, x₂) = (λ₂λ₁, λ₂x₁ + x₂)

an associative operation on pairs of numbers.  So h_t = (f_1 ∘ … ∘ f_t)(h_0) is a prefix
"sum", and a parallel scan reaches every prefix in far fewer rounds than L.  Two scans:

* Hillis and Steele (1986): R = ⌈log₂ L⌉ rounds; in round r each position i ≥ 2^r combines the
  pair 2^r places back into its own, L − 2^r combines at once.  Work: Σ_r (L − 2^r) =
  L·R − 2^R + 1 combines, against the loop's L steps (depth L): more work, in fewer rounds.
* Blelloch (1990), the work-efficient scan Martin and Cundy (2018) use: an up-sweep combines
  neighbouring blocks along a binary tree (position 2^{r+1}k + 2^{r+1} − 1 takes in the block of 2^r
  before it), then a down-sweep fills in the prefixes the tree skipped (position 2^{r+1}k + 3·2^r − 1
  takes in the prefix ending 2^r before it).  About 2L combines in about 2⌈log₂ L⌉ rounds
  (2L − R − 2 in 2R − 1 when L = 2^R): the loop's work, up to a factor of two, and a depth of order log L.

The gradient is an identity: ∂h_T/∂h_{T−k} = ∏_{t=T−k+1}^{T} λ_t, elementwise, so
ln|∂h_T/∂h_{T−k}| = Σ ln λ_t and its slope over the T steps is the mean of ln λ_t, the log of the
gates' geometric mean, exactly (page 01's tanh RNN had only an estimate, ln(ρ·tanh′)).

A tanh step, h ↦ tanh(w h + x), does not compose that way: tanh(w₂ tanh(w₁h + x₁) + x₂) is of
the form tanh(w h + x) only if its pre-activation w₂ tanh(w₁h + x₁) + x₂ is affine in h, and it
is not: the family tanh(w h + x) is not closed under composition, so no scan over it combines two
steps into one step of the family.  That is all :func:`compose` shows.  A tanh RNN can still be
evaluated in parallel another way: Newton-type iterations that linearise the whole sequence and
solve each linearisation, a linear recurrence, with a scan (DEER, Lim et al. 2024).

Memory at inference, in bytes: a KV cache keeps, per token and attention layer, the numbers of
its keys and values; a recurrent layer keeps a fixed state.  :data:`MODELS` holds published
configurations, each with its source (a key of book/referencies.bib).

>>> s = scan([[0.5], [0.5], [0.5]], [[1.0], [1.0], [1.0]])
>>> s.h[:, 0].tolist(), s.rounds, s.combines
([1.0, 1.5, 1.75], 2, 3)
>>> work(1024)
Work(loop_depth=1024, loop_work=1024, scan_depth=10, scan_work=9217, tree_depth=19, tree_work=2036)
>>> t = tree_scan([[0.5], [0.5], [0.5]], [[1.0], [1.0], [1.0]])
>>> t.h[:, 0].tolist(), t.rounds, t.combines
([1.0, 1.5, 1.75], 2, 2)
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
    "tree_scan",
    "work",
]

STEPS, CHANNELS = 1024, 16  # the page's sequence: L = T steps of 16 channels (page 07's 16)
GATE_MEAN, GATE_SCALE = 3.0, 1.0  # z_t ~ N(3, 1): gates σ(z) near 1, a state that remembers
STEP_SLOPES = (0.5, 3.0)  # two tanh steps' weights w1, w2 are drawn from this range (steps())
UNIT_ROUNDOFF = 2.0**-53  # u, fp64's unit roundoff (page 07's too): a rounding moves a number by at most u of it
MAX_VALUE = 1e100  # |b|, |h0| at most this: L sums of them stay finite
MAX_LENGTH = 2**20
MAX_WORK = 10**8  # L·d numbers in one recurrence (a few seconds)


@dataclass(frozen=True)
class Scan:
    h: np.ndarray  # (L, d): h_1 … h_L
    rounds: int  # rounds that combine at least one pair: ⌈log₂ L⌉ for Hillis–Steele
    combines: int  # pairs of affine maps combined, counted


@dataclass(frozen=True)
class Work:
    loop_depth: int
    loop_work: int
    scan_depth: int  # Hillis–Steele's rounds, ⌈log₂ L⌉
    scan_work: int  # and its combines, L·⌈log₂ L⌉ − 2^⌈log₂ L⌉ + 1
    tree_depth: int  # Blelloch's work-efficient scan: its rounds, about 2⌈log₂ L⌉
    tree_work: int  # and its combines, about 2L


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
    # sliding-window attention, version 0.1 (Jiang et al. 2023): 32 layers of 8 key–value heads of 128
    # numbers, like Llama-3.1-8B, and a window of 4.096 tokens; v0.2 dropped the window
    Memory("Mistral-7B-v0.1", 32, 2 * 8 * 128, 2, "jiang2023", window=4096),
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
    h0 : float, array_like of float of shape (d,), or None
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
    h0 : float, array_like of float of shape (d,), or None
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


def _tree_rounds(L: int) -> list[tuple[int, int]]:
    """Blelloch's rounds over L positions, in order: (first position, stride) of each round's targets,
    each target i taking in the pair stride/2 places back; the up-sweep, then the down-sweep."""
    R = (L - 1).bit_length()
    up = [(2 ** (r + 1) - 1, 2 ** (r + 1)) for r in range(R)]
    down = [(3 * 2**r - 1, 2 ** (r + 1)) for r in range(R - 2, -1, -1)]
    return [(first, stride) for first, stride in up + down if first < L]


def tree_scan(a, b, h0=None) -> Scan:
    """The same recurrence by Blelloch's work-efficient scan: an up-sweep along a binary tree, then a
    down-sweep that fills in the prefixes it skipped.

    Parameters
    ----------
    a : array_like of float, shape (L,) or (L, d), in [0, 1]
        The gates.
    b : array_like of float, shape like a, magnitude ≤ 1e100
        The inputs.
    h0 : float, array_like of float of shape (d,), or None
        The state before the first step (None: zeros).

    Returns
    -------
    Scan
        ``h`` (L, d), the ``rounds`` run (about 2⌈log₂ L⌉) and the ``combines`` counted (about 2L).
    """
    A, B = (x.copy() for x in _pairs(a, b))
    h0 = _start(h0, A.shape[1])
    rounds = _tree_rounds(len(A))
    for first, stride in rounds:  # each target at once: (A, B)[i − stride/2] ∘ (A, B)[i]
        i = np.arange(first, len(A), stride)
        j = i - stride // 2
        A[i], B[i] = A[i] * A[j], A[i] * B[j] + B[i]
    combines = sum(len(range(first, len(A), stride)) for first, stride in rounds)
    return Scan(validate.frozen(A * h0 + B), len(rounds), combines)


def work(L: int) -> Work:
    """Depth (sequential rounds) and work (maps applied or combined) of the loop and of the scan.

    Parameters
    ----------
    L : int, 1 … 2**40
        Steps.

    Returns
    -------
    Work
        The loop's depth and work, L and L; Hillis and Steele's scan's, ⌈log₂ L⌉ and
        L·⌈log₂ L⌉ − 2^⌈log₂ L⌉ + 1; Blelloch's, its rounds and its combines (2⌈log₂ L⌉ − 1 and
        2L − ⌈log₂ L⌉ − 2 when L is a power of two).
    """
    L = validate.integer("L", L, 1, 2**40)
    R = (L - 1).bit_length()  # ⌈log₂ L⌉
    tree = _tree_rounds(L)
    tree_work = sum((L - 1 - first) // stride + 1 for first, stride in tree)
    return Work(L, L, R, L * R - 2**R + 1, len(tree), tree_work)


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
    and the mean of ln a (the log of the gates' geometric mean)."""
    a, _ = draw(seed=seed)
    return float(np.log(gradient(a)[-1]).mean() / len(a)), float(np.log(a).mean())


def uniform_gates(a: float, T: int) -> tuple[float, float]:
    """Every gate ``a``: the slope of the log-gradient per step, ln a, and ∂h_T/∂h_0 = a^T, exactly."""
    return float(np.log(a)), a**T


@memo
def scan_gap(seed: int) -> float:
    """On the draw of ``seed``: how far the scan's states are from the loop's, in units of rounding u."""
    a, b = draw(seed=seed)
    return rounding_units_apart(scan(a, b).h, loop(a, b))


def steps(seed: int) -> tuple[float, float, float, float]:
    """Two steps (w1, x1, w2, x2) drawn from ``seed``: weights in ``STEP_SLOPES``, inputs N(0, 1)."""
    rng = np.random.default_rng(seed)
    (w1, w2), (x1, x2) = rng.uniform(*STEP_SLOPES, 2), rng.normal(size=2)
    return float(w1), float(x1), float(w2), float(x2)


def compose(w1: float, x1: float, w2: float, x2: float, points: int = 201) -> Composition:
    """Two steps composed, affine and tanh, and how far each is from one step of its own kind.

    Parameters
    ----------
    w1 : float, −10 … 10
        The first step's weight: h ↦ w1·h + x1 (or its tanh).
    x1 : float, −10 … 10
        The first step's input.
    w2 : float, −10 … 10
        The second step's weight: h ↦ w2·h + x2 (or its tanh).
    x2 : float, −10 … 10
        The second step's input.
    points : int, 2 … 100000
        Points of the grid h ∈ [−3, 3] on which the best line is fitted.

    Returns
    -------
    Composition
        The relative residual (RMS residual over RMS deviation from the mean, 0 for a constant)
        of the least-squares line through w2·(w1·h + x1) + x2, and through the pre-activation
        w2·tanh(w1·h + x1) + x2 of the composed tanh steps: 0 exactly when the composition is one
        step h ↦ w·h + x (or tanh(w·h + x)).
    """
    w1, x1, w2, x2 = (validate.real(n, v, -10, 10) for n, v in zip(("w1", "x1", "w2", "x2"), (w1, x1, w2, x2)))
    h = np.linspace(-3, 3, validate.integer("points", points, 2, 100_000))
    return Composition(_line_residual(h, w2 * (w1 * h + x1) + x2), _line_residual(h, w2 * tanh(w1 * h + x1) + x2))


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


def stacked_span(model: Memory) -> int:
    """How far back the last layer of a sliding-window model can reach, through the layers below it:
    each layer looks ``window`` tokens back, so ``attention_layers · window`` (Jiang et al. 2023, §2)."""
    return model.attention_layers * model.window


def rounding_units_apart(x: np.ndarray, y: np.ndarray) -> float:
    """max |x − y| in units of rounding of the largest |y|: u·max|y|, u = 2⁻⁵³ (``UNIT_ROUNDOFF``)."""
    return float(np.abs(x - y).max() / (UNIT_ROUNDOFF * max(np.abs(y).max(), np.finfo(float).tiny)))
