"""What recurrent networks were for: predicting the next symbol, against a source whose floor is exact.

:mod:`chapter09.language.source` is the source (a symbol repeats the one ``k`` steps back with
probability ``p``), its floor and ceiling in bits per symbol, and the n-gram baselines counted on it;
:mod:`chapter09.language.net` the three cells (RNN, GRU, LSTM) forward and back, with the gradient cut
every ``T`` steps; :mod:`chapter09.language.training` their training on the source, scored on held-out
strings; :mod:`chapter09.language.sampling` strings drawn from them at a temperature.
"""

from .source import entropy_rate, ngram_bits, perplexity, strings
from .training import CELLS, train

__all__ = ["CELLS", "entropy_rate", "ngram_bits", "perplexity", "strings", "train"]
