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

and ``2ᵏ`` is ``np.ldexp``, exact (rounded once when the result is subnormal).

**log** (fdlibm's ``e_log.c``).  Write ``x = 2ᵏ (1 + f)`` with ``√2/2 ≤ 1 + f < √2``
(``np.frexp``, exact); with ``s = f/(2 + f)``, ``ln(1 + f) = 2 atanh s = 2s + 2s³/3 + …``,
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

Each is within 1 ulp of the correctly rounded value over every finite input tried
(``tests/test_portable.py`` measures it against 40-digit decimals).

**Sums** are numpy's own: ``np.sum`` adds in the order numpy's source fixes (pairwise, in blocks
of eight, ``loops_utils.h.src``), one scalar loop whatever the CPU.  Only BLAS's do not.

**Matrix products** (:func:`matmul`, Ozaki, Ogita, Oishi & Rump 2012).  A product whose every
partial sum is exactly representable comes out exact, whatever order, blocking or fused
multiply–add the BLAS kernel uses.  So each matrix is cut into two slices of β bits (a
:class:`Cut`): with ``2^e`` a power of two above its largest entry, ``A₁`` is A rounded to
multiples of ``2^(e − β)`` and ``A₂`` the rest rounded to multiples of ``2^(e − 2β)``.  A product
of two slices is a sum of K integers of at most 2β bits times one power of two, at most
``2β + log₂ K ≤ 53`` bits: exact in float64, in any order.  Then ::

    A B ≈ A₁B₁ + (A₁B₂ + A₂B₁)                                                           (3)

added in that order.  What it leaves out (the bits below ``2^(e − 2β)`` and ``A₂B₂``) is at most
``K·2^(e_A + e_B + 1 − 2β)`` in each entry: for K = 16 (β = 24), 2⁻⁴³ of ``2^(e_A + e_B)``, at
most 32 times the worst case of an ordinary float64 product, ``K u max|A| max|B| K``.  It holds
while no slice product underflows (entries above 2⁻⁹⁰⁰, true of everything here).

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

import contextlib
import ctypes
import sys

import numpy as np

from . import _check

__all__ = ["Cut", "exp", "log", "matmul", "sigmoid", "tanh"]

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


def _keep_freed_memory() -> None:
    """Ask glibc's allocator to keep what it frees (Linux only; elsewhere nothing to do).

    Each function here writes a dozen temporary arrays of about 100 KB.  By default glibc gives
    memory back to the system as soon as 128 KB lie free at the top of the heap, and takes it
    back page by page, one page fault per 4 KB, at the next temporary: a third of a training's
    time.  Keeping up to 256 MB (and serving arrays up to 32 MB from the heap) removes it.  It
    changes how fast, never what is computed."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL("libc.so.6")
            libc.mallopt(-1, 256 << 20)  # M_TRIM_THRESHOLD
            libc.mallopt(-3, 32 << 20)  # M_MMAP_THRESHOLD


_keep_freed_memory()


def exp(x) -> np.ndarray:
    """eˣ by (1), elementwise: float64, the same bits on every machine, within 1 ulp.

    Parameters
    ----------
    x : array_like of float, any shape
        Any values: ±inf give ∞ and 0, NaN gives NaN.

    Returns
    -------
    numpy.ndarray
        eˣ, float64, of x's shape.
    """
    x = _check._real_array("x", x)
    with np.errstate(all="ignore"):  # eˣ = ∞ above ln(2¹⁰²⁴), 0 below ln(2⁻¹⁰⁷⁵), and NaN
        return _exp(np.clip(x.reshape(-1), -746.0, 710.0)).reshape(x.shape)  # beyond: 0 and ∞ all the same


def _exp(x: np.ndarray) -> np.ndarray:
    """(1) for x in [−746, 710], written over x (a scratch array of the caller's)."""
    k = x * INV_LN2
    np.rint(k, out=k)
    hi = k * LN2_HI
    np.subtract(x, hi, out=hi)  # x − k ln2_hi, exact
    lo = np.multiply(k, LN2_LO, out=x)
    r = hi - lo
    t = r * r
    c = t * P5  # c = r − t(P1 + t(P2 + t(P3 + t(P4 + t P5)))), Horner's rule from the inside
    for coefficient in (P4, P3, P2, P1):
        c += coefficient
        c *= t
    np.subtract(r, c, out=c)
    r *= c  # r c
    np.subtract(2.0, c, out=c)
    r /= c  # r c / (2 − c)
    np.subtract(lo, r, out=r)
    r -= hi
    np.subtract(1.0, r, out=r)  # eʳ
    return np.ldexp(r, k.astype(np.int32), out=r)


def log(x) -> np.ndarray:
    """ln x by (2), elementwise: float64, the same bits on every machine, within 1 ulp.

    Parameters
    ----------
    x : array_like of float, any shape
        Any values: 0 gives −∞, ∞ gives ∞, a negative number or NaN gives NaN.

    Returns
    -------
    numpy.ndarray
        ln x, float64, of x's shape.
    """
    x = _check._real_array("x", x)
    with np.errstate(all="ignore"):  # what 0, ±inf, negatives and NaN raise on their way to their result
        return _log(x)


def _log(x: np.ndarray) -> np.ndarray:
    m, k = np.frexp(x)  # x = m 2ᵏ, 1/2 ≤ m < 1
    m, k = m * 2.0, (k - 1).astype(np.float64)  # 1 ≤ m < 2
    top = np.floor((m - 1.0) * 2.0**20)  # fdlibm's high word of the mantissa, which picks the form
    big = top + 0x95F64 >= 2.0**20  # m ≳ √2 (fdlibm: the carry of hx + 0x95f64): halve it, so that |f| ≤ √2 − 1
    f = np.where(big, m * 0.5, m) - 1.0
    k = k + big
    s = f / (2.0 + f)
    z = s * s
    w = z * z
    R = z * (LG1 + w * (LG3 + w * (LG5 + w * LG7))) + w * (LG2 + w * (LG4 + w * LG6))
    hfsq = 0.5 * f * f
    near_sqrt2 = (top >= 0x6147A) & (top <= 0x6B851)
    out = np.where(
        near_sqrt2,
        k * LN2_HI - ((hfsq - (s * (hfsq + R) + k * LN2_LO)) - f),
        k * LN2_HI - ((s * (f - R) - k * LN2_LO) - f),
    )
    special = ~np.isfinite(x) | (x <= 0)
    return np.where(special, np.log(x), out) if special.any() else out  # 0, ∞, negatives, NaN: exact


def tanh(x) -> np.ndarray:
    """tanh x, elementwise: Cephes' rational fit below 0,625, ``1 − 2/(e^{2|x|} + 1)`` above;
    float64, the same bits on every machine, within 1 ulp.

    Parameters
    ----------
    x : array_like of float, any shape
        Any values: ±inf give ±1, NaN gives NaN.

    Returns
    -------
    numpy.ndarray
        tanh x, float64, of x's shape, odd to the bit (tanh(−x) = −tanh x).
    """
    x = _check._real_array("x", x)
    with np.errstate(all="ignore"):  # what ±inf and NaN raise on their way to their result
        flat = x.reshape(-1)
        a = np.abs(flat)
        large = np.minimum(a, 20.0)  # tanh 20 and beyond round to 1
        large *= 2.0
        large = _exp(large)
        large += 1.0
        np.divide(2.0, large, out=large)
        np.subtract(1.0, large, out=large)
        s = flat * flat
        num = s * TP0  # x + x s P(s)/Q(s), P and Q by Horner's rule
        num += TP1
        num *= s
        num += TP2
        den = s + TQ0
        den *= s
        den += TQ1
        den *= s
        den += TQ2
        small = np.multiply(a, s, out=s)
        small *= num
        small /= den
        small += a
        out = np.where(a < TANH_SMALL, small, large)
        return np.copysign(out, flat, out=out).reshape(x.shape)


def sigmoid(x) -> np.ndarray:
    """σ(x) = 1/(1 + e⁻ˣ) (``eˣ/(1 + eˣ)`` for x < 0), elementwise: float64, the same bits on every
    machine, within 1 ulp.

    Parameters
    ----------
    x : array_like of float, any shape
        Any values: −inf gives 0, +inf gives 1, NaN gives NaN.

    Returns
    -------
    numpy.ndarray
        σ(x), float64, of x's shape, every value in [0, 1].
    """
    x = _check._real_array("x", x)
    with np.errstate(all="ignore"):  # what ±inf and NaN raise on their way to their result
        flat = x.reshape(-1)
        e = np.abs(flat)
        np.negative(e, out=e)
        e = _exp(np.maximum(e, -746.0, out=e))  # e^{−|x|} ≤ 1: no overflow on either side
        d = e + 1.0
        d_err = np.subtract(1.0, d)
        d_err += e  # 1 + e = d + d_err exactly (Fast2Sum: 1 ≥ e)
        n = np.where(flat >= 0, 1.0, e)  # σ = n / (1 + e)
        q = _head(n / d)  # the quotient's first 26 bits
        d1 = d + 201326592.0  # 1,5·2²⁷: d to the grid 2⁻²⁵, 26 bits (d ≤ 2)
        d1 -= 201326592.0
        d2 = np.subtract(d, d1, out=e)  # ≤ 2⁻²⁶, 26 bits
        d1 *= q  # exact: 26 + 26 bits
        n -= d1  # exact (Sterbenz: q d₁ is within 2⁻²⁵ of n)
        d2 *= q  # exact
        n -= d2  # n − q d, all but its last 2⁻⁷⁸
        d_err *= q
        n -= d_err
        n /= d
        n += q  # q + (n − q d − q d_err)/d, where n/(d + d_err) = q + (n − q d − q d_err)/(d + d_err)
        return n.reshape(x.shape)


def _head(a: np.ndarray) -> np.ndarray:
    """The first 26 significant bits of a (Veltkamp's splitting), written over a."""
    hi = a * 134217729.0  # 2²⁷ + 1
    a -= hi
    a += hi  # (a − hi) + hi, each step rounded: a's head
    return a


def _bits(k: int) -> int:
    """Bits per slice for sums of k products: 2·bits + log₂ k ≤ 53."""
    return (53 - (k - 1).bit_length()) // 2


class Cut:
    """A stack of matrices (last two axes), each cut on one grid into two slices of ``bits`` bits:
    ``a = hi + lo + (what lies below 2^(e − 2 bits))``, where 2^e bounds the matrix.  Cut once, a
    matrix serves any number of products, on either side (``.T`` is its transpose, on the same grid).

    Adding and subtracting ``σ = 1,5·2^(e − bits + 52)``, whose ulp is 2^(e − bits), rounds a to
    that grid (to nearest, ties to even) and loses nothing else (Rump, Ogita & Oishi 2008).

    Parameters
    ----------
    a : array_like of float, shape (..., n, m), finite
        The matrices.
    k : int, 1 … 2**40
        The longest sum of products it will enter (its partner's bits must be as few as its own).
    """

    def __init__(self, a, k: int):
        a = _check._real_array("a", a)
        if a.ndim < 2:
            raise ValueError(f"a must have at least 2 dimensions (a stack of matrices), got shape {a.shape}")
        self.bits = _bits(_check.integer("k", k, 1, 2**40))
        largest = np.maximum.reduce(np.abs(a).reshape(*a.shape[:-2], -1), axis=-1, initial=0.0)
        if not np.isfinite(largest).all():
            raise ValueError("a must hold finite numbers (no NaN or inf), got one that is not")
        _, e = np.frexp(largest[..., None, None])  # max|a| < 2^e
        sigma = np.ldexp(1.5, e - (self.bits - 52))
        self.hi = a + sigma
        self.hi -= sigma
        self.lo = a - self.hi
        sigma *= 2.0**-self.bits
        self.lo += sigma
        self.lo -= sigma

    @property
    def T(self) -> Cut:
        """The transposed matrices, on the same grid."""
        return self._view(np.swapaxes(self.hi, -1, -2), np.swapaxes(self.lo, -1, -2))

    def __getitem__(self, index) -> Cut:
        """Some matrices of the stack (an index of its leading axes), each on its own grid still."""
        return self._view(self.hi[index], self.lo[index])

    def _view(self, hi: np.ndarray, lo: np.ndarray) -> Cut:
        view = object.__new__(Cut)
        view.bits, view.hi, view.lo = self.bits, hi, lo
        return view


def matmul(a, b) -> np.ndarray:
    """``a @ b`` by (3): the same bits on every machine, whatever BLAS kernel multiplies.

    Parameters
    ----------
    a : array_like of float, shape (..., n, K), finite; or a ``Cut`` of it
        The left matrices.
    b : array_like of float, shape (..., K, m), finite, its leading axes broadcasting with a's; or a ``Cut``
        The right matrices.

    Returns
    -------
    numpy.ndarray, shape (..., n, m)
        The product, within ``K·2^(e_a + e_b + 1 − 2β)`` of the exact one in every entry (3).
    """
    a = a if isinstance(a, Cut) else Cut(a, max(np.shape(a)[-1:] or [1]))
    b = b if isinstance(b, Cut) else Cut(b, max(np.shape(b)[-2:-1] or [1]))
    k = a.hi.shape[-1]
    if b.hi.shape[-2] != k:
        raise ValueError(f"b must have as many rows as a has columns ({k}), got {b.hi.shape[-2]}")
    if a.bits + b.bits + (k - 1).bit_length() > 53:
        raise ValueError(f"a and b must be cut for sums of {k} products, got cuts of {a.bits} and {b.bits} bits")
    out = a.hi @ b.lo
    out += a.lo @ b.hi
    out += a.hi @ b.hi  # a₁b₁ + (a₁b₂ + a₂b₁), each product exact
    return out
