"""Attention alone: the Transformer's encoder–decoder (Vaswani et al. 2017) on page 4b's copy task.

Page 4b's three recurrent arms read the string with an LSTM; here nothing recurs.  One encoder layer
(self-attention and a feed-forward layer, each behind a LayerNorm and a residual) reads the whole
string at once; one decoder layer (causal self-attention, cross-attention over the encoder's rows, a
feed-forward layer) writes it back, with page 04's queries, keys, values, two heads and the causal
mask (:mod:`chapter09.qkv`).  Two arms: ``"transformer"`` adds Vaswani et al.'s sinusoidal positional
encoding to the inputs of both; ``"no-positions"`` adds nothing.

The same task, strings, budgets, Adam and held-out measures as page 4b
(:mod:`chapter09.seq2seq`): what differs is the network (:mod:`chapter09.transformer.net`, compiled
forward and back with the book's fixed-order arithmetic, its rows in :mod:`chapter09.transformer.layers`)
and its training (:mod:`chapter09.transformer.training`).

**What a model without positions can know.**  Its encoder's output is permuted with the source, and
cross-attention's weighted sums do not see the order of their rows: what the decoder can read of the
source is how often each symbol occurs, not where.  :mod:`chapter09.transformer.blind` computes,
exactly, the best such a model can do: per symbol, greedily and with teacher forcing, and per string.
"""

from .blind import arrangement_accuracy, expected_max_count, forced_bound, greedy_bound, string_bound
from .training import ARMS, sweep, train

__all__ = [
    "ARMS",
    "arrangement_accuracy",
    "expected_max_count",
    "forced_bound",
    "greedy_bound",
    "string_bound",
    "sweep",
    "train",
]
