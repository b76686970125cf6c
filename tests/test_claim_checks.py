"""Every claim's check can say «no es compleix».

Each page module (``chapter09.pages``) judges each claim with a small predicate; the registry keeps
it beside the numbers it judges (``Claim.check``, ``Claim.evidence``).  Here each predicate gets
the book's numbers, which must give the registry's verdict, and then the same numbers with one of
them moved just across a threshold, which must give the opposite one: one case per condition of a
check, so that an ``and`` turned into ``or``, a flipped comparison or a looser tolerance shows up.
"""

import dataclasses
import inspect
from fractions import Fraction

import numpy as np
import pytest

from chapter09 import attention as w4
from chapter09 import claims, fmt
from chapter09 import rnn_gradient as w1
from chapter09.claim import judge
from chapter09.pages import seq2seq_claims as w4b  # the thresholds W4b's checks hold the numbers to

CLAIMS: dict = {}  # claim id → (its page's readout, the claim), from the run's registry (fixture below)


@pytest.fixture(autouse=True)
def claims_of_the_book(registry):
    """Every test here judges the book's numbers: the run's registry, computed once (conftest)."""
    if not CLAIMS:
        CLAIMS.update({c.id: (w, c) for w in registry for c in w.claims})


TINY = 5e-324  # the smallest positive float64
NBSP = fmt.NBSP


def check(claim_id: str):
    """The predicate the claim's page judges it with."""
    return CLAIMS[claim_id][1].check


def book_numbers(claim_id: str) -> dict:
    """The numbers the book computes for the claim, by the names its check gives them."""
    return dict(inspect.signature(check(claim_id)).bind(*CLAIMS[claim_id][1].evidence).arguments)


def judged(claim_id: str, **changes) -> bool:
    """The claim's check on the numbers the book computes, with ``changes`` made to some of them."""
    book = book_numbers(claim_id)
    assert set(changes) <= set(book), f"{claim_id}: {check(claim_id).__name__} takes no {set(changes) - set(book)}"
    return check(claim_id)(**{**book, **resolved(changes)})


def row(w, claim_id: str) -> list[str]:
    """The cells of the row of ``claim_id`` that page ``w`` publishes for the claims page."""
    return next(r for r in claims.rows(w)["claims" if w.authored else "own"] if r[0] == claim_id)


def nudged(x: np.ndarray) -> np.ndarray:
    """``x`` with its first entry moved by one unit in the last place."""
    y = np.array(x, dtype=float)
    y.flat[0] = np.nextafter(y.flat[0], np.inf)
    return y


def dip(curve: np.ndarray, by: float) -> np.ndarray:
    """``curve`` with one point lowered by ``by`` below the one before it."""
    y = np.array(curve, dtype=float)
    y[len(y) // 2] = y[len(y) // 2 - 1] - by
    return y


class Book:
    """A case's numbers that come from the book (``Book("W4.4", "spacing") * 1.5``): read when the test runs."""

    def __init__(self, claim_id: str, name: str, then=lambda x: x, text: str = ""):
        self.claim_id, self.name, self.then, self.text = claim_id, name, then, text or name

    def value(self):
        return self.then(book_numbers(self.claim_id)[self.name])

    def __mul__(self, k):
        return Book(self.claim_id, self.name, lambda x: self.then(x) * k, f"{self.text}·{k!r}")

    __rmul__ = __mul__

    def __add__(self, k):
        return Book(self.claim_id, self.name, lambda x: self.then(x) + k, f"{self.text}+{k!r}")

    def apply(self, function, text: str):
        return Book(self.claim_id, self.name, lambda x: function(self.then(x)), text)

    def __repr__(self):
        return self.text


def resolved(changes: dict) -> dict:
    """A case's changes with the book's numbers read."""
    return {k: v.value() if isinstance(v, Book) else v for k, v in changes.items()}


EIG = Book("W1.1", "eig_radius")
SPACING = Book("W4.4", "spacing")
CURVE = Book("W4.5", "span_curve")
X_RNN = Book("W2.1", "x_rnn")
GAP = Book("W4b.1", "gap")
UNIFORM = Book("W4b.5", "uniform")

# Just across a threshold, one number changed and the others left at the book's: the claim fails.
FAILS = [
    ("W1.1", dict(gelfand_radius=EIG * (1 + 2e-9))),
    ("W1.1", dict(gelfand_radius=EIG * (1 - 2e-9))),
    ("W1.2", dict(relative_error=w1.TOLERANCE)),
    ("W1.2", dict(relative_error=1.5 * w1.TOLERANCE)),
    ("W1.3", dict(below_share=1.0)),
    ("W1.3", dict(below_share=0.0)),
    ("W1.4", dict(flip_radius=None)),
    ("W1.4", dict(flip_radius=0.99)),
    ("W1.4", dict(flip_radius=w1.FLIP_LIMIT)),
    ("W1.4", dict(soon_share=0.5)),
    ("W1.5", dict(radius=1.0)),
    ("W1.5", dict(product=1.0)),
    ("W1.5", dict(vanishes=False)),
    ("W1.5", dict(share=0.5)),
    ("W1.6", dict(explodes=False)),
    ("W1.6", dict(product=1.0)),
    ("W1.6", dict(share=0.5)),
    ("W2.1", dict(x_rnn=X_RNN.apply(nudged, "nudged(x_rnn)"))),
    ("W2.1", dict(d_rnn=X_RNN.apply(lambda x: x.shape[1] + 1, "columns+1"))),
    ("W2.2", dict(pinned_cell_factor=0.95 + 1e-11)),
    ("W2.2", dict(pinned_cell_factor=0.95 - 1e-11)),
    ("W2.2", dict(carry_gap=1e-8)),
    ("W2.3", dict(forget=Book("W2.3", "whole_factor"))),  # f equal to the factor: not above it
    ("W2.3", dict(cell_factor=Book("W2.3", "whole_factor"))),  # the cell path as large: h_t adds nothing
    ("W2.3", dict(whole_factor=0.95, forget=0.95, cell_factor=0.9)),
    ("W2.4", dict(gap_default=0.0004)),
    ("W2.4", dict(gap_default=-0.001)),
    ("W2.4", dict(gap_default=0.004, gap_low=0.0031)),
    ("W2.5", dict(years=17)),
    ("W2.5", dict(years=19)),
    ("W2.5", dict(residual_gap=1e-8)),
    ("W2.5", dict(residual_factor=0.999)),
    ("W2.5", dict(plain_factor=1.0)),
    ("W3.1", dict(sentences=64)),
    ("W3.1", dict(largest_share=1)),
    ("W3.1", dict(most_codes_used=65)),
    ("W3.2", dict(fraction=Fraction(1, 255))),
    ("W3.2", dict(missing_bits=9.0)),
    ("W3.2", dict(V=1023)),
    ("W3.3", dict(missing_text="8,1")),
    ("W3.3", dict(fraction=0.0039)),
    ("W4.1", dict(max_ulp=5)),
    ("W4.1", dict(min_weight=-TINY)),
    ("W4.2", dict(hull_excess=TINY)),
    ("W4.3", dict(hull_excess=TINY)),
    ("W4.3", dict(hull_excess=-TINY)),
    ("W4.4", dict(span=1.5)),
    ("W4.4", dict(span=0.49)),
    ("W4.4", dict(copy_gap=w4.COPY_TOL * SPACING)),
    ("W4.4", dict(copy_gap=1.5 * w4.COPY_TOL * SPACING)),
    ("W4.5", dict(span=6.49)),
    ("W4.5", dict(n_words=8)),
    ("W4.5", dict(span_curve=CURVE.apply(lambda c: dip(c, 2e-12), "dip 2e-12"))),
    ("W4.5", dict(mean_gap=w4.MEAN_TOL * SPACING)),
    ("W4.5", dict(mean_gap=1.5 * w4.MEAN_TOL * SPACING)),
    ("W4b.1", dict(from_length=16)),  # the longest: no length left where the arms separate
    ("W4b.1", dict(from_length=5)),  # not a length of the sweep
    ("W4b.1", dict(gap=GAP.apply(lambda g: (*g[:-1], w4b.MARGIN), "last gap = margin"))),
    ("W4b.1", dict(from_length=4, gap=GAP.apply(lambda g: (w4b.MARGIN / 2, *g[1:]), "first gap = margin/2"))),
    ("W4b.2", dict(first_gain=w4b.MARGIN - 1e-9, last_gain=0.0)),
    ("W4b.2", dict(first_gain=0.3, last_gain=0.3 - w4b.MARGIN + 1e-9)),
    ("W4b.3", dict(attention=Book("W4b.3", "reversed_") + w4b.MARGIN / 2)),
    ("W4b.3", dict(reversed_=Book("W4b.3", "bottleneck") + w4b.MARGIN / 2)),
    ("W4b.3", dict(bottleneck=Book("W4b.3", "chance") + w4b.MARGIN / 2)),
    ("W4b.4", dict(aligned_share=w4b.ALIGNED - 1e-9)),
    ("W4b.5", dict(attention_share=2 * UNIFORM + -1e-9)),
    ("W4b.5", dict(bottleneck_share=2 * UNIFORM)),
    ("W4b.6", dict(attention_steps=Book("W4b.6", "budget").apply(lambda b: b + 1, "budget+1"))),
    ("W4b.6", dict(plain_reached=1)),
    ("W4b.7", dict(gap=w4b.MARGIN)),
    ("W4b.7", dict(still_gaining=w4b.s2s.GAIN - 1e-9)),
    ("W4b.8", dict(greedy_fall=2 * w4b.MARGIN - 1e-9, forced_fall=0.0)),
    ("W4b.8", dict(forced_fall=Book("W4b.8", "greedy_fall").apply(lambda g: g / 2, "greedy_fall/2"))),
    ("W5.1", dict(projection_flops=2**34 + 1)),
    ("W5.1", dict(attention_flops=2**34 - 1)),
    ("W5.2", dict(algebra=2047)),
    ("W5.2", dict(sweep=2048 + 2e-6 * 1024)),
    ("W5.2", dict(sweep=2048 - 2e-6 * 1024)),
    ("W5.3", dict(roots=(-1023, 0))),
    ("W5.3", dict(equal_cost_length=2048)),
    ("W5.4", dict(ratio=Fraction(5))),
    ("W5.4", dict(ratio_text="4,0")),
    ("W5.5", dict(ratio=Fraction(5))),
    ("W5.5", dict(ratio=Fraction(9, 2))),
    ("W5.5", dict(ratio=Fraction(3))),
    ("W5.5", dict(ratio_kaplan=Fraction(4))),
    ("W6.1", dict(state_text="131,1 kB")),
    ("W6.1", dict(state_text=f"131,2{NBSP}kB")),
    ("W6.2", dict(kv_text="268,4MB")),
    ("W6.2", dict(kv_text=f"268,5{NBSP}MB")),
    ("W6.3", dict(kv_bytes=2**34 - 1)),
    ("W6.3", dict(kv_bytes=2**34 + 1)),
    ("W7.1", dict(lstm_bitwise=False)),
    ("W7.1", dict(moe_bitwise=False)),
    ("W7.1", dict(swiglu_gap=1e-15)),
    ("W7.2", dict(lstm_gap=TINY)),
    ("W7.2", dict(moe_gap=-TINY)),
    ("W7.3", dict(swiglu_gap=0.0)),
    ("W7.3", dict(swiglu_gap=np.nextafter(2.0**-51, 1))),
    ("W7.4", dict(switched_off_text=f"87{NBSP}%")),
    ("W7.4", dict(topk_gap=0.1)),
    ("W7.5", dict(swish_range=(0.0, 3.2))),
    ("W7.5", dict(swish_range=(-0.28, 1.0))),
    ("W7.5", dict(sigmoid_range=(0.0, 0.97))),
    ("W7.5", dict(sigmoid_range=(0.04, 1.0))),
    ("W8.1", dict(ulps=np.nextafter(10.0, np.inf), tolerance=10.0)),
    ("W8.2", dict(combines=9216)),
    ("W8.2", dict(rounds=11)),
    ("W8.2", dict(L=2, combines=1, rounds=1)),  # the count is right, but no more work than the loop's
    ("W8.3", dict(slope=Book("W8.3", "mean_log") * (1 + 2 * 1024 * 2.0**-52))),
    ("W8.4", dict(affine=101 * 2.0**-52)),
    ("W8.4", dict(tanh=0.01)),
    ("W8.5", dict(toy_per_token=131_071)),
    ("W8.5", dict(llama_long=131_072 * 131_071)),
]

# Just inside a threshold: the claim still holds (a check made stricter than the book says fails here).
HOLDS = [
    ("W1.1", dict(gelfand_radius=EIG * (1 + 0.5e-9))),
    ("W1.2", dict(relative_error=0.199)),
    ("W1.3", dict(below_share=0.01)),
    ("W1.4", dict(flip_radius=1.0)),
    ("W1.4", dict(soon_share=0.51)),
    ("W1.5", dict(share=0.51)),
    ("W1.6", dict(share=0.51)),
    ("W2.2", dict(carry_gap=0.9e-8)),
    ("W2.4", dict(gap_default=0.004, gap_low=0.00401)),  # prints as 0,004 too: not narrower
    ("W2.4", dict(gap_default=0.0049, gap_low=0.0046)),  # both print as 0,005
    ("W2.5", dict(residual_factor=1.0)),
    ("W3.1", dict(most_codes_used=64)),
    ("W4.1", dict(max_ulp=4)),
    ("W4.1", dict(min_weight=0.0)),
    ("W4.2", dict(hull_excess=-1.0)),
    ("W4.4", dict(span=1.49)),
    ("W4.5", dict(span_curve=CURVE.apply(lambda c: dip(c, 0.5e-12), "dip 0,5e-12"))),
    ("W4b.1", dict(from_length=4, gap=GAP.apply(lambda g: (w4b.MARGIN * 1.5, *g[1:]), "first gap = 1,5 margin"))),
    ("W4b.2", dict(first_gain=w4b.MARGIN, last_gain=0.0)),
    ("W4b.4", dict(aligned_share=w4b.ALIGNED)),
    ("W4b.5", dict(attention_share=2 * UNIFORM)),
    ("W4b.6", dict(attention_steps=Book("W4b.6", "budget"))),
    ("W4b.7", dict(gap=w4b.MARGIN + 1e-9, still_gaining=w4b.s2s.GAIN)),
    ("W4b.8", dict(greedy_fall=2 * w4b.MARGIN, forced_fall=w4b.MARGIN - 1e-9)),
    ("W5.2", dict(sweep=2048 + 0.5e-6 * 1024)),
    ("W7.3", dict(swiglu_gap=2.0**-51)),
    ("W8.1", dict(ulps=10.0, tolerance=10.0)),
    ("W8.3", dict(slope=Book("W8.3", "mean_log") * (1 + 0.5 * 1024 * 2.0**-52))),
    ("W8.4", dict(affine=100 * 2.0**-52, tanh=0.0101)),
]


def case_id(value) -> str:
    """A test's name: the claim, then what was changed (``W4.1-max_ulp=3``)."""
    if isinstance(value, str):
        return value
    return ",".join(f"{k}={v!r}"[:24] for k, v in value.items())


CASES = sorted({claim_id for claim_id, _ in FAILS})  # every claim has one (the first test below)


def test_every_claim_has_a_case_where_its_check_must_fail():
    """A new claim without a case in ``FAILS`` fails here, naming it, and so does a stale case."""
    assert set(CLAIMS) - set(CASES) == set(), "claims without a case where their check must fail"
    assert set(CASES) - set(CLAIMS) == set(), "cases of claims that are gone"


@pytest.mark.parametrize("claim_id", CASES)
def test_the_books_numbers_give_the_registrys_verdict(claim_id):
    w, c = CLAIMS[claim_id]
    assert c.evidence, f"{claim_id}: the registry does not keep the numbers its check judged"
    verdict = judged(claim_id)
    assert verdict in (True, False) and verdict == c.holds == c.expected_to_hold
    assert row(w, claim_id)[2] == ("es compleix" if c.holds else "no es compleix (s'hi espera)")


@pytest.mark.parametrize("claim_id, changes", FAILS, ids=case_id)
def test_just_across_a_threshold_the_claim_fails(claim_id, changes):
    assert not judged(claim_id, **changes)


@pytest.mark.parametrize("claim_id, changes", HOLDS, ids=case_id)
def test_just_inside_a_threshold_the_claim_holds(claim_id, changes):
    assert judged(claim_id, **changes)


@pytest.mark.parametrize("claim_id", CASES)
def test_a_failing_check_shows_no_es_compleix_and_stops_the_build(claim_id, capsys):
    """The first failing case of each claim, through the registry: the claims page says «no es
    compleix» and ``warn_on_broken`` reports it on stderr, which stops the build."""
    w, c = CLAIMS[claim_id]
    changes = next(ch for i, ch in FAILS if i == claim_id)
    failed = dataclasses.replace(c, **judge(check(claim_id), *{**book_numbers(claim_id), **resolved(changes)}.values()))
    page = dataclasses.replace(w, claims=tuple(failed if k is c else k for k in w.claims))
    capsys.readouterr()
    assert row(page, claim_id)[2] == "no es compleix"
    assert claims.warn_on_broken(page) == [f"claim {claim_id} ({w.page}) no longer holds: {w.render(c.computed)}"]
    assert capsys.readouterr().err.startswith(f"claim {claim_id} ({w.page}) no longer holds: ")
