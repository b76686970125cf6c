"""Arithmetic with the same bits on every machine: exp, log, tanh, σ, sums and matrix products.

IEEE 754 rounds ``+``, ``−``, ``×``, ``÷`` and ``√`` exactly: the result is the exact one,
rounded to the nearest float, on every CPU.  Nothing rounds ``exp``, ``log`` or ``tanh``
exactly.  numpy picks an implementation for the CPU it runs on (an AVX-512 ``exp`` on one
machine, another elsewhere), and their last bits differ in about 5 % of values.  A BLAS
matrix product adds its terms in whatever order the kernel for this CPU prefers: a 16×16
product differs in 9 of its 16 elements between x86-64 and arm64.  One unit in the last
place (ulp) is nothing to a figure, but 400 steps of training amplify it into whole points
of accuracy, and a share of seeds moves when one seed sits at its threshold.  So where the
printed digits depend on the last bit, the book computes with the functions below, made of
exactly rounded operations in an order the code fixes.

**exp** (fdlibm's ``e_exp.c``, Sun Microsystems 1993).  Write ``x = k ln 2 + r`` with
``k = rint(x/ln 2)``, so that ``|r| ≤ ln 2 / 2``; then ``eˣ = 2ᵏ eʳ``.  ``ln 2`` is split
as ``ln2_hi + ln2_lo``, with ``ln2_hi`` short enough that ``k·ln2_hi`` is exact, so that
``r = (x − k·ln2_hi) − k·ln2_lo`` loses nothing.  On ``|r| ≤ ln 2 / 2``, with
``c = r − r²(P₁ + r²(P₂ + … + r²P₅))`` (a minimax fit of ``r (eʳ + 1)/(eʳ − 1)``)::

    eʳ = 1 + r + r c / (2 − c)                                                            (1)

and ``2ᵏ`` comes from a table of exact powers of two, in two factors so that only the last
product rounds, once, as ``ldexp`` does (when the result is subnormal).

**log** (fdlibm's ``e_log.c``).  Write ``x = 2ᵏ (1 + f)`` with ``√2/2 ≤ 1 + f < √2``
(``frexp``, exact); with ``s = f/(2 + f)``, ``ln(1 + f) = 2 atanh s = 2s + 2s³/3 + …``,
and ``R(s²)``, a minimax polynomial in ``s²`` for the tail::

    ln x = k ln2_hi − ((f²/2 − (s (f²/2 + R) + k ln2_lo)) − f)                            (2)

**tanh** (Moshier's Cephes, as in Go's ``math.Tanh``).  For ``|x| ≥ 0,625``,
``tanh|x| = 1 − 2/(e^{2|x|} + 1)`` from (1); below, where that formula would lose the small
result to cancellation, ``tanh x = x + x·x²·P(x²)/Q(x²)``, a rational minimax fit.

**σ**: ``σ(x) = n/(1 + e)`` with ``e = e^{−|x|}`` and ``n = 1`` for ``x ≥ 0``, ``n = e`` below,
so that nothing overflows.  Rounding ``1 + e`` and the quotient would each cost half an ulp;
both are recovered: ``1 + e = d + δ`` exactly with ``δ = (1 − d) + e``, and with ``q`` the
quotient's first 26 bits and ``d`` cut into two 26-bit halves, ``n − q d`` comes out exact but
for its last 2⁻⁷⁸.  Then ``σ = q + (n − q d − q δ)/d``, rounded once.

Each gives the correctly rounded value or one of its two neighbours over every finite input tried
(``tests/test_portable.py`` measures it against 40-digit decimals).  Measured against the exact value
itself, in ulps of the exact value (the spacing of floats where it lies), on 325,000 inputs in the
ranges the book uses (75,000 each for exp, log and σ, 100,000 for tanh; decimals at 40 digits): exp
is at most 0.84 ulp off, log 0.78, tanh 1.27 and σ 1.43.  A neighbour of the correctly rounded value
can be up to 1.5 ulp from the exact one, so tanh and σ are not "within 1 ulp" of it; exp and log are.

**The floating-point environment.**  The same-bits promise holds where IEEE 754 arithmetic runs as
Python and numpy leave it: binary64, rounding to nearest (ties to even), and subnormal numbers kept
(no flush-to-zero, no denormals-are-zero), with no fused multiply-add the code did not write.  A
process that switches the rounding mode or turns on FTZ/DAZ (some libraries compiled with
``-ffast-math`` do, on loading) gets other bits.

**Sums** are numpy's own: ``np.sum`` adds in the order numpy's source fixes (pairwise, in blocks
of eight, ``loops_utils.h.src``), one scalar loop whatever the CPU.  Only BLAS's do not.

**Matrix products** (:func:`matmul`) add ``a_ik b_kj`` for k = 0, 1, 2, … in that order, in a
loop numba compiles: no BLAS kernel chooses the order.

**Compiled, and still the same bits.**  Each function is written once, for one number, and
numba compiles it into a loop (``exp`` is ``np.vectorize``'s idea without its slowness): one
pass over the data instead of twenty numpy calls.  The compiler keeps IEEE 754's meaning: without
``fastmath`` it neither reassociates a sum nor fuses a product and a sum into one rounding
(``tests/test_portable.py`` checks every function against the same formula written as numpy
calls, bit for bit, and ``tests/test_same_bits.py`` compiles them for other CPUs).  The scalar
versions (``exp1``, ``log1``, ``tanh1``, ``sigmoid1``) are what compiled loops elsewhere
(:mod:`chapter09.seq2seq`) call.

>>> exp(np.array([-1000.0, -745.2, -745.1, 0.0, 1.0, 710.0])).tolist()
[0.0, 0.0, 5e-324, 1.0, 2.7182818284590455, inf]
>>> float(exp(1.0) - np.e) == float(np.spacing(np.e))  # one ulp above the correctly rounded e
True
>>> log(np.array([1.0, 0.0, 2.0**-1074])).tolist()
[0.0, -inf, -744.4400719213812]
>>> tanh(np.array([0.0, -0.5, 30.0])).tolist(), sigmoid(np.array([-800.0, 0.0, 40.0])).tolist()
([0.0, -0.46211715726000974, 1.0], [0.0, 0.5, 1.0])
>>> a = np.arange(12.0).reshape(3, 4) / 7
>>> bool(np.allclose(matmul(a, a.T), a @ a.T, rtol=1e-15))
True
"""

from __future__ import annotations

import math

import numba
import numpy as np
from numba import njit, vectorize

from . import validate
from .common import built_dir

__all__ = ["exp", "log", "matmul", "sigmoid", "tanh"]

# fdlibm e_exp.c, e_log.c
LN2_HI = 6.93147180369123816490e-01  # the first 32 bits of ln 2: k·LN2_HI is exact for |k| < 2¹¹
LN2_LO = 1.90821492927058770002e-10  # ln 2 − LN2_HI
INV_LN2 = 1.44269504088896338700e00
P1, P2, P3 = 1.66666666666666019037e-01, -2.77777777770155933842e-03, 6.61375632143793436117e-05
P4, P5 = -1.65339022054652515390e-06, 4.13813679705723846039e-08
LG1, LG2, LG3 = 6.666666666666735130e-01, 3.999999999940941908e-01, 2.857142874366239149e-01
LG4, LG5, LG6 = 2.222219843214978396e-01, 1.818357216161805012e-01, 1.531383769920937332e-01
LG7 = 1.479819860511658591e-01
# Cephes tanh.c
TP0, TP1, TP2 = -9.64399179425052238628e-1, -9.92877231001918586564e1, -1.61468768441708447952e3
TQ0, TQ1, TQ2 = 1.12811678491632931402e2, 2.23548839060100448583e3, 4.84406305325125486048e3
TANH_SMALL = 0.625
ROUND = 6755399441055744.0  # 1,5·2⁵²: (y + ROUND) − ROUND rounds y to an integer, half to even, for |y| < 2⁵¹
SPLIT = 134217729.0  # 2²⁷ + 1: Veltkamp's splitting into 26-bit halves
D_GRID = 201326592.0  # 1,5·2²⁷: (d + D_GRID) − D_GRID rounds 1 ≤ d ≤ 2 to multiples of 2⁻²⁵
POW2 = np.ldexp(1.0, np.arange(-1074, 1024))  # 2ᵏ for k = −1074 … 1023, every one exact


numba.config.CACHE_DIR = str(built_dir("chapter09.seq2seq.net", "numba"))  # the book's compiled loops
JIT = {"cache": True, "error_model": "numpy"}  # compiled once per machine, beside the source; x/0 = inf, no check
UFUNC = {"cache": True}


@njit(**JIT)
def exp1(x: float) -> float:
    """(1) for one float: eˣ, ±inf and NaN included.  No branch, so that loops of it vectorise."""
    z = min(max(x, -746.0), 710.0) if x == x else 0.0  # beyond: 0 and ∞ all the same; NaN waits at the end
    k = (z * INV_LN2 + ROUND) - ROUND  # rint(z / ln 2)
    hi = z - k * LN2_HI
    lo = k * LN2_LO
    r = hi - lo
    t = r * r
    c = r - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))))
    y = 1.0 - ((lo - (r * c) / (2.0 - c)) - hi)
    n = int(k)  # y 2ⁿ in two exact steps, then one rounding, as ldexp: y 2^{n₁} stays normal
    n1 = min(max(n, -1000), 1023)
    out = (y * POW2[n1 + 1074]) * POW2[n - n1 + 1074]
    return out if x == x else x


@njit(**JIT)
def log1(x: float) -> float:
    """(2) for one float: ln x, 0, ±inf, negatives and NaN included."""
    if not x > 0.0 or x == math.inf:
        return -math.inf if x == 0.0 else x if x == math.inf else math.nan
    m, e = math.frexp(x)  # x = m 2ᵉ, 1/2 ≤ m < 1, exact
    m, k = m * 2.0, float(e - 1)  # 1 ≤ m < 2
    top = math.floor((m - 1.0) * 1048576.0)  # fdlibm's high word of the mantissa, which picks the form
    if top + 0x95F64 >= 1048576.0:  # m ≳ √2 (fdlibm: the carry of hx + 0x95f64): halve it, so that |f| ≤ √2 − 1
        m, k = m * 0.5, k + 1.0
    f = m - 1.0
    s = f / (2.0 + f)
    z = s * s
    w = z * z
    R = z * (LG1 + w * (LG3 + w * (LG5 + w * LG7))) + w * (LG2 + w * (LG4 + w * LG6))
    if 0x6147A <= top <= 0x6B851:
        hfsq = 0.5 * f * f
        return k * LN2_HI - ((hfsq - (s * (hfsq + R) + k * LN2_LO)) - f)
    return k * LN2_HI - ((s * (f - R) - k * LN2_LO) - f)


@njit(**JIT)
def tanh1(x: float) -> float:
    """tanh of one float: Cephes' rational fit below 0,625, ``1 − 2/(e^{2|x|} + 1)`` above (both computed,
    one kept: no branch)."""
    a = abs(x)
    s = x * x
    small = a + a * s * ((TP0 * s + TP1) * s + TP2) / (((s + TQ0) * s + TQ1) * s + TQ2)
    large = 1.0 - 2.0 / (exp1(2.0 * min(a, 20.0)) + 1.0)  # tanh 20 and beyond round to 1
    out = math.copysign(small if a < TANH_SMALL else large, x)
    return out if x == x else x


@njit(**JIT)
def sigmoid1(x: float) -> float:
    """σ of one float, n/(1 + e) with its two roundings recovered (the module's docstring)."""
    e = exp1(-abs(x))  # e^{−|x|} ≤ 1: no overflow on either side
    d = e + 1.0
    d_err = (1.0 - d) + e  # 1 + e = d + d_err exactly (Fast2Sum: 1 ≥ e)
    n = 1.0 if x >= 0 else e  # σ = n / (1 + e)
    q = n / d
    hi = q * SPLIT
    q = (q - hi) + hi  # the quotient's first 26 bits (Veltkamp)
    d1 = (d + D_GRID) - D_GRID  # d (≤ 2) to the grid 2⁻²⁵: 26 bits
    d2 = d - d1  # ≤ 2⁻²⁶, 26 bits
    n = n - d1 * q  # exact: 26 + 26 bits, and q d₁ is within 2⁻²⁵ of n (Sterbenz)
    n = n - d2 * q  # n − q d, all but its last 2⁻⁷⁸
    n = n - d_err * q
    return q + n / d  # q + (n − q d − q d_err)/d, where n/(d + d_err) = q + (n − q d − q d_err)/(d + d_err)


@vectorize(["float64(float64)"], **UFUNC)
def _exp(x):
    return exp1(x)


@vectorize(["float64(float64)"], **UFUNC)
def _log(x):
    return log1(x)


@vectorize(["float64(float64)"], **UFUNC)
def _tanh(x):
    return tanh1(x)


@vectorize(["float64(float64)"], **UFUNC)
def _sigmoid(x):
    return sigmoid1(x)


def exp(x) -> np.ndarray:
    """eˣ by (1), elementwise: float64, the same bits on every machine (round to nearest, subnormals kept),
    the correctly rounded value or its neighbour, less than 1 ulp from the exact value (0.84 at most, measured).

    Parameters
    ----------
    x : array_like of float, any shape
        Any values: ±inf give ∞ and 0, NaN gives NaN.

    Returns
    -------
    numpy.ndarray
        eˣ, float64, of x's shape.
    """
    x = validate.real_array("x", x)
    with np.errstate(all="ignore"):  # what ±inf and NaN raise on their way to their result
        return _array(_exp(x))


def log(x) -> np.ndarray:
    """ln x by (2), elementwise: float64, the same bits on every machine (round to nearest, subnormals kept),
    the correctly rounded value or its neighbour, less than 1 ulp from the exact value (0.78 at most, measured).

    Parameters
    ----------
    x : array_like of float, any shape
        Any values: 0 gives −∞, ∞ gives ∞, a negative number or NaN gives NaN.

    Returns
    -------
    numpy.ndarray
        ln x, float64, of x's shape.
    """
    x = validate.real_array("x", x)
    with np.errstate(all="ignore"):  # what ±inf and NaN raise on their way to their result
        return _array(_log(x))


def tanh(x) -> np.ndarray:
    """tanh x, elementwise: Cephes' rational fit below 0,625, ``1 − 2/(e^{2|x|} + 1)`` above;
    float64, the same bits on every machine (round to nearest, subnormals kept), the correctly rounded
    value or its neighbour: up to 1.27 ulp from the exact value (measured; the module's docstring).

    Parameters
    ----------
    x : array_like of float, any shape
        Any values: ±inf give ±1, NaN gives NaN.

    Returns
    -------
    numpy.ndarray
        tanh x, float64, of x's shape, odd to the bit (tanh(−x) = −tanh x).
    """
    x = validate.real_array("x", x)
    with np.errstate(all="ignore"):  # what ±inf and NaN raise on their way to their result
        return _array(_tanh(x))


def sigmoid(x) -> np.ndarray:
    """σ(x) = 1/(1 + e⁻ˣ) (``eˣ/(1 + eˣ)`` for x < 0), elementwise: float64, the same bits on every
    machine (round to nearest, subnormals kept), the correctly rounded value or its neighbour: up to
    1.43 ulp from the exact value (measured; the module's docstring).

    Parameters
    ----------
    x : array_like of float, any shape
        Any values: −inf gives 0, +inf gives 1, NaN gives NaN.

    Returns
    -------
    numpy.ndarray
        σ(x), float64, of x's shape, every value in [0, 1].
    """
    x = validate.real_array("x", x)
    with np.errstate(all="ignore"):  # what ±inf and NaN raise on their way to their result
        return _array(_sigmoid(x))


def _array(y) -> np.ndarray:
    """A ufunc's result as an array, a 0-d one for a 0-d input."""
    return np.asarray(y, dtype=np.float64)


@njit(**JIT)
def products(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Each matrix product of the stacks a (S, n, K) and b (S, K, m), each sum over k in the order k = 0, 1, …
    (what :func:`matmul` computes, for callers that pass such stacks; it checks nothing)."""
    S, n, K = a.shape
    out = np.zeros((S, n, b.shape[2]))
    for s in range(S):
        for i in range(n):
            for k in range(K):
                aik = a[s, i, k]
                for j in range(b.shape[2]):
                    out[s, i, j] += aik * b[s, k, j]
    return out


def matmul(a, b) -> np.ndarray:
    """``a @ b``, each entry's sum in the order k = 0, 1, …: the same bits on every machine.

    Parameters
    ----------
    a : array_like of float, shape (..., n, K), finite
        The left matrices.
    b : array_like of float, shape (..., K, m), finite, its leading axes broadcasting with a's
        The right matrices.

    Returns
    -------
    numpy.ndarray, shape (..., n, m)
        The products.
    """
    a, b = validate.array("a", a, min_ndim=2), validate.array("b", b, min_ndim=2)
    if b.shape[-2] != a.shape[-1]:
        raise ValueError(f"b must have as many rows as a has columns ({a.shape[-1]}), got {b.shape[-2]}")
    try:
        lead = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    except ValueError:
        raise ValueError(f"b must stack matrices as a does, got {b.shape[:-2]} and {a.shape[:-2]}") from None
    a = np.ascontiguousarray(np.broadcast_to(a, (*lead, *a.shape[-2:]))).reshape(-1, *a.shape[-2:])
    b = np.ascontiguousarray(np.broadcast_to(b, (*lead, *b.shape[-2:]))).reshape(-1, *b.shape[-2:])
    return products(a, b).reshape(*lead, a.shape[-2], b.shape[-1])
