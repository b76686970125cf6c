"""chapter09.portable: exp, log, tanh and σ within 1 ulp of the correctly rounded value, matrix
products within their bound and exact slice by slice, and refused inputs named.

The reference is Python's ``decimal`` at 40 digits, rounded once to float64."""

import decimal
import math
from fractions import Fraction

import numpy as np
import pytest

from chapter09 import portable

D = decimal.Context(prec=40)


def ulps(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """How many floats lie between a and b (0 when equal), for finite values of either sign."""
    ia, ib = (np.where(x.view(np.int64) < 0, np.int64(-(2**63)) - x.view(np.int64), x.view(np.int64)) for x in (a, b))
    return np.abs(ia - ib)


def correctly_rounded(f, xs: np.ndarray) -> np.ndarray:
    return np.array([float(f(decimal.Decimal(float(x)))) for x in xs])


def exp_(d):
    return D.exp(d)


def log_(d):
    return D.ln(d)


def tanh_(d):
    e = D.exp(2 * d)
    return D.divide(e - 1, e + 1)


def sigmoid_(d):
    return D.divide(1, 1 + D.exp(-d))


RNG = np.random.default_rng(20261203)
N = 3000
WIDE = RNG.uniform(-745, 709, N)  # every exponent exp has a result for
USED = RNG.normal(0, 4, N)  # pre-activations, scores, logits
SMALL = RNG.uniform(-1, 1, N) * 10.0 ** RNG.uniform(-12, 0, N)  # near 0, where tanh and log need care
NEAR_ONE = 1 + RNG.uniform(-1e-4, 1e-4, N)
CASES = [
    ("exp", portable.exp, exp_, np.concatenate([WIDE, USED, SMALL])),
    ("log", portable.log, log_, np.concatenate([np.exp(RNG.uniform(-700, 700, N)), NEAR_ONE, np.abs(USED) + 1e-300])),
    ("tanh", portable.tanh, tanh_, np.concatenate([USED, SMALL, RNG.uniform(-25, 25, N), RNG.uniform(0.6, 0.65, N)])),
    ("sigmoid", portable.sigmoid, sigmoid_, np.concatenate([USED, SMALL, RNG.uniform(-740, 40, N)])),
]


@pytest.mark.parametrize("name, f, reference, xs", CASES, ids=[c[0] for c in CASES])
def test_within_one_ulp_of_the_correctly_rounded_value(name, f, reference, xs):
    off = ulps(f(xs), correctly_rounded(reference, xs))
    assert off.max() <= 1, f"{name}({xs[off.argmax()]!r}) is {off.max()} ulps off"
    assert np.mean(off == 0) > 0.8, f"{name}: only {np.mean(off == 0):.0%} correctly rounded"


def test_what_numpy_gives_is_not_always_what_portable_gives():
    """The point of the module: numpy's own exp is not the same function (its last bit differs from the
    correctly rounded one somewhere in these values on every machine tried), portable's is pinned."""
    xs = np.concatenate([WIDE, USED])
    reference = correctly_rounded(exp_, xs)
    assert ulps(portable.exp(xs), reference).max() <= 1 and ulps(np.exp(xs), reference).max() <= 1
    assert portable.exp(xs).tobytes() == portable.exp(xs.copy()).tobytes()


@pytest.mark.parametrize(
    "f, x, expected",
    [
        (portable.exp, [-np.inf, -746.0, 0.0, 710.0, np.inf], [0.0, 0.0, 1.0, np.inf, np.inf]),
        (portable.log, [0.0, 1.0, np.inf, 2.0**-1074], [-np.inf, 0.0, np.inf, -1074 * math.log(2)]),
        (portable.tanh, [-np.inf, -0.0, 0.0, 20.0, np.inf], [-1.0, -0.0, 0.0, 1.0, 1.0]),
        (portable.sigmoid, [-np.inf, -800.0, 0.0, 800.0, np.inf], [0.0, 0.0, 0.5, 1.0, 1.0]),
    ],
)
def test_the_ends(f, x, expected):
    with np.errstate(all="raise"):  # no warning escapes
        got = f(np.array(x))
    assert got.tolist() == expected and np.array_equal(np.signbit(got), np.signbit(expected))


def test_nan_in_nan_out_and_a_negative_log_is_nan():
    with np.errstate(all="raise"):
        for f in (portable.exp, portable.tanh, portable.sigmoid, portable.log):
            assert np.isnan(f(np.array([np.nan]))).all()
        assert np.isnan(portable.log(np.array([-1.0]))).all()


def test_shapes_are_kept_and_tanh_is_odd_to_the_bit():
    x = USED.reshape(30, 100)
    assert portable.tanh(x).shape == x.shape and portable.exp(np.float64(1.5)).shape == ()
    assert np.array_equal(portable.tanh(-x), -portable.tanh(x))
    assert np.array_equal(portable.sigmoid(x) + portable.sigmoid(-x) - 1 <= 2**-52, np.ones(x.shape, bool))


# --- matrix products ---------------------------------------------------------------------------------


def exact_product(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a @ b in exact rational arithmetic, rounded once to float64 per element."""
    rows = [[sum(Fraction(x) * Fraction(y) for x, y in zip(u, v)) for v in b.T.tolist()] for u in a.tolist()]
    return np.array([[float(q) for q in row] for row in rows])


@pytest.mark.parametrize("n, k, m", [(3, 16, 5), (7, 64, 4), (2, 384, 3)])
def test_a_product_is_within_its_bound_and_thirty_two_times_an_ordinary_one(n, k, m):
    a, b = RNG.normal(size=(n, k)), RNG.normal(size=(k, m)) * 10.0 ** RNG.uniform(-3, 3, (1, m))
    got, exact = portable.matmul(a, b), exact_product(a, b)
    (_, e_a), (_, e_b), bits = np.frexp(np.abs(a).max()), np.frexp(np.abs(b).max()), portable.Cut(a, k).bits
    assert np.abs(got - exact).max() <= k * 2.0 ** (e_a + e_b + 1 - 2 * bits)  # (3)
    ordinary = k * 2.0**-53 * np.abs(a).max() * np.abs(b).max() * k  # γ_K |A||B|, by the matrices' largest entries
    assert np.abs(got - exact).max() <= 32 * ordinary


def test_every_slice_product_is_exact_so_no_order_changes_it():
    a, b = RNG.normal(size=(5, 64)), RNG.normal(size=(64, 6))
    ca, cb = portable.Cut(a, 64), portable.Cut(b, 64)
    for x, y in [(ca.hi, cb.hi), (ca.hi, cb.lo), (ca.lo, cb.hi)]:
        blas = x @ y
        assert np.array_equal(blas, exact_product(x, y))  # each slice product is exact
        assert np.array_equal(blas, (x[:, ::-1] @ y[::-1]))  # so the order of the sum cannot matter
    assert np.array_equal(portable.matmul(a, b), portable.matmul(ca, cb))


def test_a_cut_serves_either_side_and_a_stack_is_its_matrices_one_by_one():
    a = RNG.normal(size=(4, 6, 8))
    b = RNG.normal(size=(4, 8, 3))
    together = portable.matmul(a, b)
    alone = np.stack([portable.matmul(a[i], b[i]) for i in range(4)])
    assert np.array_equal(together, alone)
    cut = portable.Cut(a, 8)
    assert np.array_equal(portable.matmul(cut[1:3], b[1:3]), together[1:3])
    assert np.array_equal(portable.matmul(cut.T.T, b), together)


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: portable.exp("1"), "^x must"),
        (lambda: portable.tanh([1, None]), "^x must"),
        (lambda: portable.matmul(np.ones(3), np.ones((3, 2))), "^a must"),
        (lambda: portable.matmul(np.ones((2, 3)), np.ones((4, 2))), "^b must"),
        (lambda: portable.matmul(np.full((2, 2), np.nan), np.ones((2, 2))), "^a must"),
        (lambda: portable.Cut(np.ones((2, 2)), 0), "^k must"),
        (lambda: portable.matmul(portable.Cut(np.ones((2, 300)), 2), portable.Cut(np.ones((300, 2)), 2)), "^a and b"),
    ],
)
def test_bad_input_is_refused_naming_the_parameter(call, match):
    with pytest.raises(ValueError, match=match):
        call()
