"""Every claim's check can say «no es compleix».

Each page module (``chapter09.pages``) judges each claim with a small predicate; the registry keeps
it beside the numbers it judges (``Claim.check``, ``Claim.evidence``).  Here each predicate gets
the book's numbers, which must give the registry's verdict, and then the same numbers with one of
them moved just across a threshold, which must give the opposite one: one case per condition of a
check, so that an ``and`` turned into ``or``, a flipped comparison or a looser tolerance shows up.
Each figure's test lists its claims' cases (``FAILS``, ``HOLDS``: ``tests/claim_cases.py``).
"""

import dataclasses
import importlib
import inspect

import pytest
from claim_cases import Book

from chapter09 import claims
from chapter09.claim import judge
from chapter09.widgets import WIDGETS

CLAIMS: dict = {}  # claim id → (its page's readout, the claim), from the run's registry (fixture below)


@pytest.fixture(autouse=True)
def claims_of_the_book(registry):
    """Every test here judges the book's numbers: the run's registry, computed once (conftest)."""
    if not CLAIMS:
        CLAIMS.update({c.id: (w, c) for w in registry for c in w.claims})


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
    return next(r for table in ("claims", "own") for r in claims.rows(w)[table] if r[0] == claim_id)


def resolved(changes: dict) -> dict:
    """A case's changes with the book's numbers read."""
    return {k: v.value(book_numbers(v.claim_id)) if isinstance(v, Book) else v for k, v in changes.items()}


# Each figure's cases, in its own test (tests/claim_cases.py says how they are written).
CASE_MODULES = [importlib.import_module(f"test_{w.module}") for w in WIDGETS]
FAILS = [case for m in CASE_MODULES for case in m.FAILS]
HOLDS = [case for m in CASE_MODULES for case in m.HOLDS]


def case_id(value) -> str:
    """A test's name: the claim, then what was changed (``W4.1-max_ulp=3``)."""
    if isinstance(value, str):
        return value
    return ",".join(f"{k}={v!r}"[:24] for k, v in value.items())


CASES = sorted({claim_id for claim_id, _ in FAILS})  # every claim has one (the first test below)


def test_every_claim_has_a_case_where_its_check_must_fail():
    """A new claim without a case in its figure's ``FAILS`` fails here, naming it, and so does a stale case."""
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
