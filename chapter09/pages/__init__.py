"""One module per widget page.

Each has ``readout()``: the numbers the page glues (Catalan strings keyed by glue
name) and its rows of the claims registry, with the corrections made to the
author's words; and ``controls()``: every position of every control of the
widget, computed by the widget's own functions, for the HTML book.  A page
imports only its own module (through ``chapter09.figures``, which draws its
figures), so it re-executes only when that code changes.
"""

__all__: list[str] = []  # the page modules are imported by name: chapter09.pages.attention …
