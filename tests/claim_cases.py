"""What a figure's test writes to say where its claims' checks must flip: ``FAILS`` and ``HOLDS``.

Each figure's ``tests/test_<module>.py`` lists, for each of its claims, the cases just across a
threshold, one number changed and the others left at the book's, where the check must say «no es
compleix» (``FAILS``), and the cases just inside one, where it must still hold (``HOLDS``): each
``(claim id, {argument of its check: value})``.  A value may be read from the book's own numbers
when the test runs (:class:`Book`).  ``tests/test_claim_checks.py`` runs them all.
"""

from __future__ import annotations

import numpy as np

from chapter09 import fmt

TINY = 5e-324  # the smallest positive float64
NBSP = fmt.NBSP


class Book:
    """A case's number read from the book (``Book("W4.4", "spacing") * 1.5``): the argument ``name`` of
    claim ``claim_id``'s check, as the registry judged it, then changed."""

    def __init__(self, claim_id: str, name: str, then=lambda x: x, text: str = ""):
        self.claim_id, self.name, self.then, self.text = claim_id, name, then, text or name

    def value(self, numbers: dict):
        """The number, from ``numbers`` (the claim's check's arguments, by name)."""
        return self.then(numbers[self.name])

    def __mul__(self, k):
        return Book(self.claim_id, self.name, lambda x: self.then(x) * k, f"{self.text}·{k!r}")

    __rmul__ = __mul__

    def __add__(self, k):
        return Book(self.claim_id, self.name, lambda x: self.then(x) + k, f"{self.text}+{k!r}")

    def apply(self, function, text: str):
        return Book(self.claim_id, self.name, lambda x: function(self.then(x)), text)

    def __repr__(self):
        return self.text


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
