"""Widget 3 — the seq2seq bottleneck, by the pigeonhole principle.

An encoder that hands the decoder one vector of ``d`` components, each stored
with ``q`` bits, can hand over at most ``2^(d·q)`` different codes.  There are
``V^L`` sentences of ``L`` words from a vocabulary of ``V``.  When there are
fewer codes than sentences, some sentences share a code, and no decoder can
tell them apart: at most ``2^(d·q)`` sentences come back, a fraction

    2^(d·q) / V^L = 2^(d·q − L·log₂V)

of them, whatever the encoder is.  The exponent's ``L·log₂V − d·q`` are the bits
missing.  Everything is exact: integers and ``fractions.Fraction`` (``V^L`` is
never a float, so it never overflows).

>>> b = bottleneck()
>>> b.codes, b.sentences, b.missing_bits, b.fraction
(4294967296, 1099511627776, 8.0, Fraction(1, 256))

With realistic sizes the bound does not bind.  Bahdanau et al.'s encoder–decoder without
attention (RNNencdec) handed over 1.000 numbers, 32.000 bits as float32; a 50-word sentence
over their 30.000 words needs about 744, and only sentences of 2.152 words or more would no
longer all fit (2.151 is the longest that does).  Sutskever et al.'s deep LSTM handed over
8.000 (four layers, h and c, 1.000 cells each):

>>> r = bottleneck(*REALISTIC)
>>> r.fits, round(r.L * math.log2(r.V), 1), longest_sentence(*REALISTIC[:3])
(True, 743.6, 2151)
>>> bottleneck(*REALISTIC[:3], L=2152).fits, SUTSKEVER[0], longest_sentence(*SUTSKEVER)
(False, 8000, 15717)

The principle at work, on a case small enough to enumerate: all ``4⁴ = 256`` sentences
through a toy encoder into ``2^(2·3) = 64`` codes.

>>> p = pigeonhole()
>>> p.bound.sentences, p.bound.codes, p.distinct_codes <= p.bound.codes
(256, 64, True)
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import numpy as np

from . import validate
from .common import N_SEEDS, memo

__all__ = [
    "D_MAX",
    "ENUMERATION_LIMIT",
    "REALISTIC",
    "SUTSKEVER",
    "SUTSKEVER_CELLS",
    "SUTSKEVER_LAYERS",
    "Bottleneck",
    "D",
    "L",
    "Pigeonhole",
    "Q",
    "V",
    "bottleneck",
    "encode",
    "longest_sentence",
    "pigeonhole",
]

D, Q, V, L = 4, 8, 1024, 4
# A realistic encoder of 2014, Bahdanau et al.'s RNNencdec (ICLR 2015, §4.2): «The encoder and
# decoder of the RNNencdec have 1000 hidden units each», «a shortlist of 30,000 most frequent
# words», trained on sentences of up to 50 words; each number a float32 (d, q, V, L).
REALISTIC = (1000, 32, 30000, 50)
# Sutskever et al. 2014, §3.4: «deep LSTMs with 4 layers, with 1000 cells at each layer», «an output
# vocabulary of 80,000», «Thus the deep LSTM uses 8000 real numbers to represent a sentence» (h and c
# of each layer); float32 (d, q, V).
SUTSKEVER_LAYERS, SUTSKEVER_CELLS = 4, 1000
SUTSKEVER = (SUTSKEVER_LAYERS * 2 * SUTSKEVER_CELLS, 32, 80000)
D_MAX = 16384  # components of a vector: Sutskever et al.'s 8.000 fit
ENUMERATION_LIMIT = 2 * 10**7  # V^L·L·d numbers of an enumeration (about 2 s, 160 MB)


@dataclass(frozen=True)
class Bottleneck:
    d: int
    q: int
    V: int
    L: int
    codes: int  # 2^(d·q)
    sentences: int  # V^L
    missing_bits: float  # L·log₂V − d·q (≤ 0: nothing is missing)
    fraction: Fraction  # largest reconstructible fraction, min(1, codes / sentences)

    @property
    def fits(self) -> bool:
        return self.codes >= self.sentences

    @property
    def word_bits(self) -> float:
        """log₂ V: the bits one more word costs."""
        return math.log2(self.V)

    @property
    def sentence_bits(self) -> float:
        """L·log₂ V: the bits that tell every sentence apart."""
        return self.L * self.word_bits

    @property
    def fullest_code(self) -> int:
        """⌈V^L / 2^(d·q)⌉: the fewest sentences the fullest code holds, whatever the encoder."""
        return -(-self.sentences // self.codes)


def _params(d, q, V, L):
    """The four sizes, validated."""
    return (
        validate.integer("d", d, 1, D_MAX),
        validate.integer("q", q, 1, 64),
        validate.integer("V", V, 2, 10**7),
        validate.integer("L", L, 1, 4096),
    )


def bottleneck(d: int = D, q: int = Q, V: int = V, L: int = L) -> Bottleneck:
    """The pigeonhole bound for one code size and one language: codes, sentences, and the
    largest fraction of the sentences any decoder can give back.

    Parameters
    ----------
    d : int, 1 … 16384 (D_MAX)
        Components of the encoder's vector.
    q : int, 1 … 64
        Bits per component.
    V : int, 2 … 10**7
        Vocabulary size, in words.
    L : int, 1 … 4096
        Sentence length, in words.

    Returns
    -------
    Bottleneck
        The readout (immutable), exact: integers and a ``fractions.Fraction``.
    """
    d, q, V, L = _params(d, q, V, L)
    codes, sentences = 2 ** (d * q), V**L
    log2V = V.bit_length() - 1 if V & (V - 1) == 0 else math.log2(V)  # an integer for a power of two: exact bits
    missing = float(L * log2V - d * q)
    return Bottleneck(d, q, V, L, codes, sentences, missing, min(Fraction(1), Fraction(codes, sentences)))


@cache
def fraction_curve(d: int, q: int, V: int, lengths: tuple[int, ...]) -> tuple[Fraction, ...]:
    """The largest reconstructible fraction at each sentence length of ``lengths``."""
    return tuple(bottleneck(d, q, V, L).fraction for L in lengths)


def longest_sentence(d: int, q: int, V: int) -> int:
    """The largest ``L`` with ``V^L ≤ 2^(d·q)``: the longest sentences that can all still get
    a code of their own.  Exact (integers only; the float estimate is only a starting point).

    Parameters
    ----------
    d : int, 1 … 16384 (D_MAX)
        Components of the encoder's vector.
    q : int, 1 … 64
        Bits per component.
    V : int, 2 … 10**7
        Vocabulary size, in words.

    Returns
    -------
    int
        The length, in words (0 when V alone exceeds the ``2^(d·q)`` codes).

    >>> longest_sentence(4, 8, 1024), longest_sentence(1000, 1, 32000)
    (3, 66)
    """
    d, q, V, _ = _params(d, q, V, 1)
    codes = 2 ** (d * q)
    L = int(d * q / math.log2(V))
    while L > 0 and V**L > codes:
        L -= 1
    while V ** (L + 1) <= codes:
        L += 1
    return L


# --- the pigeonhole at work, on a case small enough to enumerate -------------------


@dataclass(frozen=True)
class Pigeonhole:
    """Every sentence of a tiny case, encoded and quantised: how many share each code."""

    bound: Bottleneck
    distinct_codes: int  # codes the encoder actually used
    largest_share: int  # most sentences behind one code
    reconstructible: Fraction  # distinct codes / sentences: what the best decoder recovers
    sentences_per_code: tuple  # (number of sentences behind a code, how many codes) pairs


def encode(sentences: np.ndarray, embedding: np.ndarray, q: int) -> np.ndarray:
    """A toy encoder: ``h = tanh(Σ_l e_{w_l} / l)``, a sum of word vectors in which earlier
    words weigh more, then each component quantised to ``q`` bits (``2^q`` levels over [-1, 1]).

    Parameters
    ----------
    sentences : array_like of int, shape (n, L), each 0 … V - 1 (a word of embedding), with n·L·d ≤ ENUMERATION_LIMIT
        Each row a sentence of L word indices, each 0 … V − 1 (V rows of embedding).
    embedding : array_like of float, shape (V, d), finite
        One vector of d components per word.
    q : int, 1 … 62
        Bits per component of the code.

    Returns
    -------
    numpy.ndarray of int64, shape (n, d)
        Each sentence's code: d levels, each 0 … 2^q − 1.
    """
    if not isinstance(sentences, np.ndarray) and hasattr(sentences, "__len__") and len(sentences) > ENUMERATION_LIMIT:
        raise ValueError(f"sentences must hold at most {ENUMERATION_LIMIT:,} sentences, got {len(sentences):,}")
    try:
        sentences = np.asarray(sentences)
    except (ValueError, TypeError):  # ragged rows
        sentences = np.asarray(None)
    embedding, q = validate.array("embedding", embedding, ndim=2), validate.integer("q", q, 1, 62)
    if sentences.ndim != 2 or not np.issubdtype(sentences.dtype, np.integer):
        raise ValueError(
            f"sentences must be a 2-D array of word indices, got {sentences.dtype} of shape {sentences.shape}"
        )
    if sentences.size and (sentences.min() < 0 or sentences.max() >= len(embedding)):
        raise ValueError(
            f"sentences must index words 0 … {len(embedding) - 1}, got {sentences.min()} … {sentences.max()}"
        )
    validate.size("sentences and embedding", sentences.size * embedding.shape[1], ENUMERATION_LIMIT, "n·L·d")
    weights = 1.0 / np.arange(1, sentences.shape[1] + 1)
    with np.errstate(over="ignore", invalid="ignore"):
        h = np.tanh(np.einsum("l,nld->nd", weights, embedding[sentences]))
    if np.any(np.isnan(h)):
        raise ValueError("embedding must be small enough for finite sums, got values that overflow float64")
    levels = 2**q
    return np.clip(np.floor((h + 1) / 2 * levels), 0, levels - 1).astype(np.int64)


@memo
def pigeonhole(d: int = 2, q: int = 3, V: int = 4, L: int = 4, seed: int = 0) -> Pigeonhole:
    """Enumerate all ``V^L`` sentences, encode each to ``d·q`` bits and count collisions.

    Parameters
    ----------
    d : int, 1 … 16384 (D_MAX)
        Components of the encoder's vector.
    q : int, 1 … 64
        Bits per component.
    V : int, 2 … 10**7, with V^L ≤ 10**6 and V^L·L·d ≤ ENUMERATION_LIMIT
        Vocabulary size, in words.
    L : int, 1 … 4096, with V^L ≤ 10**6 and V^L·L·d ≤ ENUMERATION_LIMIT
        Sentence length, in words.
    seed : int, 0 … 2**63 - 1
        Seed of ``numpy.random.default_rng`` for the word vectors (standard normal).

    Returns
    -------
    Pigeonhole
        The counts of the codes used (immutable, remembered).
    """
    d, q, V, L = _params(d, q, V, L)
    if L * math.log10(V) > 6.01 or V**L > 10**6:  # the log first: V**L of 10**7 and 4096 takes a while
        raise ValueError(f"V^L must be at most 1.000.000 to enumerate, got {V}^{L}")
    validate.size("V, L and d", V**L * L * d, ENUMERATION_LIMIT, "V^L·L·d")
    seed = validate.integer("seed", seed, 0, 2**63 - 1)
    embedding = np.random.default_rng(seed).standard_normal((V, d))
    sentences = np.array(np.unravel_index(np.arange(V**L), (V,) * L)).T
    counts = Counter(map(tuple, encode(sentences, embedding, q)))
    return Pigeonhole(
        bound=bottleneck(d, q, V, L),
        distinct_codes=len(counts),
        largest_share=max(counts.values()),
        reconstructible=Fraction(len(counts), V**L),
        sentences_per_code=tuple(sorted(Counter(counts.values()).items())),
    )


@dataclass(frozen=True)
class CodesUsed:
    """The codes the toy encoder of :func:`pigeonhole` uses, seed by seed of its word vectors."""

    used: tuple[int, ...]  # distinct codes at seeds 0, 1, …
    codes: int  # the codes possible, 2^(d·q)

    @property
    def median(self) -> float:
        """The median over the seeds (of an even count, the mean of the middle two)."""
        return float(np.median(self.used))

    @property
    def most(self) -> int:
        """The most codes any seed uses."""
        return max(self.used)

    @property
    def below_share(self) -> float:
        """The share of the seeds whose encoder uses fewer codes than the bound."""
        return float(np.mean([u < self.codes for u in self.used]))


def codes_used(n_seeds: int = N_SEEDS) -> CodesUsed:
    """The tiny case of :func:`pigeonhole` at seeds 0 … n_seeds − 1: how many codes each encoding uses."""
    runs = [pigeonhole(seed=s) for s in range(validate.integer("n_seeds", n_seeds, 1, 2000))]
    return CodesUsed(tuple(r.distinct_codes for r in runs), runs[0].bound.codes)
