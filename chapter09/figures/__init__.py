"""One module per widget page: what the page shows, figures included.

Each has ``readout`` and ``controls`` (from ``chapter09.pages``) and ``figures()``,
the page's figures by the name the page shows them under; ``book.show(module)``
glues them all.  Kept apart from ``chapter09.pages`` so that the claims page, which
reads every widget's numbers, does not depend on how a figure is drawn: an edit of a
figure re-executes its page alone.  The figures are drawn from the same memoised
readouts that gave the page's numbers, so nothing is computed twice.
"""

__all__: list[str] = []  # the modules themselves are the interface: chapter09.figures.attention …
