"""One module per widget page: everything the page shows, each value formatted once.

Each has ``readout()`` (the Catalan strings the page glues, its rows of the claims
registry and the corrections made to the author's words), ``figures()``, ``controls()``
(every position of the widget's controls, for the HTML book) and ``reading()`` (the
readout at any setting, for ``python -m chapter09``); ``readout()`` composes one function
per section of the page, so that a glue key is found by the section that prints it.  A module
past ~400 lines keeps its claims and their checks in ``<module>_claims.py`` and its drawing in
``<module>_plots.py``, which only it imports.  No page module imports another page's, so a page
re-executes only when its own code, or the maths it calls, changes.
"""

__all__: list[str] = []  # the page modules are imported by name: chapter09.pages.attention …
