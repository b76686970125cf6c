"""One module per widget page: everything the page shows, each value formatted once.

Each has ``readout()`` (the Catalan strings the page glues, its rows of the claims
registry and the corrections made to the author's words), ``figures()``, ``controls()``
(every position of the widget's controls, for the HTML book) and ``reading()`` (the
readout at any setting, for ``python -m chapter09``).  A page imports only its own
module, so it re-executes only when that code changes.
"""

__all__: list[str] = []  # the page modules are imported by name: chapter09.pages.attention …
