"""The claims registry against the author's text, the claims list and the book's sources."""

import re

import pytest

from chapter09 import claims
from chapter09.widgets import WIDGETS

from conftest import BOOK, ROOT, TEXT, WIDGET_IDS, author_paragraphs

GLUE = re.compile(r"\{glue:text\}`([^`]+)`")


def cell_keys(w, source: str) -> set[str]:
    """The keys a code cell of the page reads from ``page.numbers``: its own prefix (W4b → ``w4b_``)."""
    return set(re.findall(rf"[\"']({re.escape(w.widget.lower())}_\w+)[\"']", source))


ALT_KEY = re.compile(r"^:alt: \{(\w+)\}$", re.M)  # a figure's text alternative (_ext/glued.py)


MARK = re.compile(r"\{correccio\}`[^`]*`")  # the † after corrected words, linking to the registry


def page_source(w):
    """The page's MyST source, the corrections' † marks left out (they follow the words they mark)."""
    return MARK.sub("", (BOOK / f"{w.page}.md").read_text(encoding="utf-8"))


def squash(text):
    return " ".join(text.split())


def test_claim_ids_are_those_of_the_claims_list(registry):
    """Every claim of claims.md has exactly one row in the registry, and no row is invented: the
    only other rows are the book's own (the pages it adds, ``authored=False``, and its prose on an
    author's page, ``Claim.own``), under their own ids."""
    listed = re.findall(r"^\| (W\d\.\d) \|", (ROOT / "text" / "claims.md").read_text(), re.M)
    ids = [c.id for w, page in zip(registry, WIDGETS) if page.authored for c in w.claims if not c.own]
    assert len(ids) == len(set(ids))
    assert sorted(ids) == sorted(listed)
    added = [c.id for w, page in zip(registry, WIDGETS) for c in w.claims if not page.authored or c.own]
    assert len(added) == len(set(added)) and not set(added) & set(listed)
    assert all(re.fullmatch(r"W\d+[a-z]?\.\d+", c.id) for w in registry for c in w.claims)


@pytest.mark.parametrize("w", WIDGET_IDS, indirect=True)
def test_every_claim_holds_as_the_book_states_it(w):
    failing = [c.id for c in w.claims if c.broken]
    assert not failing, f"claims that do not do what the registry expects: {failing}"


def test_a_broken_claim_is_reported_on_stderr_and_published_as_such(registry, capsys):
    """The page that computes a broken claim writes it to stderr, which the build turns into a
    warning; the row it publishes for the claims page says so."""
    import dataclasses
    import json

    w = registry[0]
    first = w.claims[0]
    negated = dataclasses.replace(first, check=lambda *evidence: not first.check(*evidence))
    broken = dataclasses.replace(w, claims=(negated, *w.claims[1:]))
    assert claims.warn_on_broken(broken) and claims.warn_on_broken(w) == []
    err = capsys.readouterr().err
    assert f"claim {w.claims[0].id} ({w.page}) no longer holds" in err and err.count("\n") == 1
    row = json.loads(claims.published(broken))["claims"][0]
    assert row[2] == "no es compleix" and row[0] == w.claims[0].id
    expected = dataclasses.replace(
        broken, claims=(dataclasses.replace(broken.claims[0], expected_to_hold=False), *w.claims[1:])
    )
    assert claims.warn_on_broken(expected) == [] and capsys.readouterr().err == ""
    assert claims.rows(expected)["claims"][0][2] == "no es compleix (s'hi espera)"


def test_every_page_publishes_its_rows_in_the_tables_of_the_claims_page(registry):
    for w in registry:
        tables = claims.rows(w)
        assert set(tables) == set(claims.HEADERS)
        authors = [c.id for c in w.claims if w.authored and not c.own]
        assert [r[0] for r in tables["claims"]] == authors
        assert [r[0] for r in tables["own"]] == [c.id for c in w.claims if c.id not in authors]
        for name, rows in tables.items():
            assert all(len(r) == len(claims.HEADERS[name]) and all(isinstance(c, str) for c in r) for r in rows)
        assert len(tables["corrections"]) + len(tables["typographic"]) == len(w.corrections)


@pytest.mark.parametrize("w", WIDGET_IDS, indirect=True)
def test_numbers_are_formatted_strings_and_all_are_used(w):
    glued = set(GLUE.findall(page_source(w)))
    assert all(isinstance(v, str) and v for v in w.numbers.values())
    computed = set(w.numbers) | set(w.forms())  # a number, or a number with its word (k__de)
    assert glued <= computed, f"glued in the page but not computed: {glued - computed}"
    source = page_source(w)
    used = {k.split("__")[0] for k in glued | cell_keys(w, source) | set(ALT_KEY.findall(source))}
    templates = w.templates()
    unused = {
        k for k in w.numbers if k not in used and "{" + k + "}" not in templates and "{" + k + "__" not in templates
    }
    assert not unused, f"computed but shown nowhere: {unused}"


@pytest.mark.parametrize("w", WIDGET_IDS, indirect=True)
def test_corrections_quote_the_author_and_the_page_applies_them(w):
    original_text = squash(TEXT.read_text(encoding="utf-8"))
    source = squash(GLUE.sub(lambda m: "{" + m.group(1) + "}", page_source(w)))
    for c in w.corrections:
        assert original_text.count(squash(c.original)) == 1, f"{c.claim}: not the author's words: {c.original!r}"
        assert squash(c.original) not in source, f"{c.claim}: the page still says {c.original!r}"
        assert squash(w.as_source(c.book)) in source, f"{c.claim}: the page does not say {c.book!r}"
        w.render(c.book), w.render(c.reason)  # every placeholder is a computed number


@pytest.mark.parametrize("w", WIDGET_IDS, indirect=True)
def test_the_page_carries_the_authors_paragraphs(w):
    """Each paragraph of the widget, corrections applied and numbers glued, is in the page."""
    source = squash(GLUE.sub(lambda m: w.render("{" + m.group(1) + "}"), page_source(w)))
    for i in w.paragraphs:
        paragraph = author_paragraphs()[i]
        for c in w.corrections:
            paragraph = paragraph.replace(c.original, w.render(c.book))
        assert squash(paragraph) in source, f"paragraph {i} of the author's text is not carried verbatim"


@pytest.mark.parametrize("w", WIDGET_IDS, indirect=True)
def test_words_changed_in_the_authors_sentences_carry_a_mark_to_their_row(w):
    """Each correction of fact, precision or draw is followed, on the page, by its claim's †."""
    source = (BOOK / f"{w.page}.md").read_text(encoding="utf-8")
    keyed = squash(GLUE.sub(lambda m: "{" + m.group(1) + "}", source))
    for c in w.corrections:
        if c.change not in claims.FORM:
            marked = squash(w.as_source(c.book)) + "{correccio}`" + c.claim + "`"
            assert marked in keyed, f"{c.claim}: the corrected words carry no mark to the registry"


def test_the_text_defaults_match_the_words_of_the_prose(registry):
    """The prose says "deu dimensions i quaranta passos": the defaults must be 10 and 40."""
    w = registry[0]
    assert "amb deu dimensions i quaranta passos" in author_paragraphs()[2]
    assert (w.numbers["w1_d"], w.numbers["w1_T"]) == ("10", "40")


def test_the_verdict_on_the_original_tells_false_from_redrawn_from_mere_form():
    from chapter09.claim import Claim, Correction

    exact, draw = Claim("W9.1", "x", "exact", "", bool, (True,)), Claim("W9.2", "y", "draw", "", bool, (True,))
    fix = lambda claim, change: Correction(claim, "a", "b", "c", change)  # noqa: E731
    assert claims.verdict_on_the_original(exact, ()) == "es compleix"
    assert claims.verdict_on_the_original(draw, ()) == "depèn de l'atzar: es compleix amb aquesta llavor"
    assert claims.verdict_on_the_original(exact, (fix("W9.1", "factual"),)) == "falsa → corregida"
    assert claims.verdict_on_the_original(exact, (fix("W9.1", "typographic"),)) == "es compleix (forma corregida)"
    assert claims.verdict_on_the_original(draw, (fix("W9.2", "redraw"),)).startswith("depèn de l'atzar →")
    assert claims.verdict_on_the_original(exact, (fix("W9.2", "factual"),)) == "es compleix"  # another claim's
    with pytest.raises(ValueError, match="change must be one of factual, precision, typographic, wording, redraw"):
        fix("W9.1", "style")


def test_each_widget_page_guides_the_reader(registry):
    """What the reader will learn first, exercises with answers and a summary last; the book's
    own prose marked apart from the author's."""
    for w in registry:
        source = page_source(w)
        assert source.count(":::{admonition} Què hi aprendràs") == 1, w.page
        assert source.count("{admonition} En resum") == 1, w.page
        questions = source.count("{admonition} Exercici ")
        assert 2 <= questions <= 4 and source.count("{admonition} Resposta") == questions, w.page
        assert "{container} afegit" in source, w.page


def test_widget_html_is_valid_json_and_safe_inside_a_script():
    import json

    from chapter09 import book

    spec = {
        "widget": "w9",
        "controls": [{"initial": 0}],
        "readout_labels": {"a": "x"},
        "states": {"0": {"readout": {"a": "<!-- </script> & <b>"}}},
    }
    html = book.widget_html(spec)
    data = html.split('class="ch09-data">', 1)[1].split("</script>", 1)[0]
    assert "<!--" not in data and "</" not in data and json.loads(data) == spec
    assert "&lt;!-- &lt;/script&gt; &amp; &lt;b&gt;" in html  # the noscript table, escaped
    with pytest.raises(ValueError, match="finite numbers"):
        book.widget_html({**spec, "plot": [float("nan")]})
    with pytest.raises(ValueError, match="id of lower-case"):
        book.widget_html({**spec, "widget": 'w9" onload="x'})


@pytest.mark.parametrize("module", [w.module for w in WIDGETS])
def test_no_figure_text_is_smaller_than_the_style_allows(module):
    """8,5 pt at least (plots.SMALL): 11,3 px on a phone, where figures keep their size; ≥ 7 pt in the PDF."""
    import importlib

    import matplotlib.pyplot as plt
    from matplotlib.text import Text

    from chapter09 import book, plots

    book.setup()
    figures = importlib.import_module(f"chapter09.pages.{module}").figures()
    for key, fig in figures.items():
        fig.canvas.draw()  # tick labels exist once drawn
        sizes = [t.get_fontsize() for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()]
        assert min(sizes) >= plots.SMALL, f"{key}: text of {min(sizes)} pt"
        plt.close(fig)


@pytest.mark.parametrize("module", [w.module for w in WIDGETS])
def test_every_figure_names_its_axes_and_shows_each_curve_it_draws(module):
    """What the text checks cannot see: a figure with an axis left unnamed, or limits that leave a
    curve wholly outside the axes (each curve of a panel has a point inside its view)."""
    import importlib

    import matplotlib.pyplot as plt
    import numpy as np

    from chapter09 import book

    book.setup()
    for key, fig in importlib.import_module(f"chapter09.pages.{module}").figures().items():
        fig.canvas.draw()
        drawn = [ax for ax in fig.axes if ax.get_visible() and (ax.lines or ax.patches or ax.collections or ax.images)]
        panels = [ax for ax in drawn if ax.get_label() != "<colorbar>" and ax.get_subplotspec() is not None]
        for ax in panels:  # each panel names its axes, or its row (y) or column (x) of panels does
            here = ax.get_subplotspec()
            for axis, line, whole in (("x", "colspan", fig.get_supxlabel()), ("y", "rowspan", fig.get_supylabel())):
                kin = [a for a in panels if getattr(a.get_subplotspec(), line) == getattr(here, line)]
                names = [getattr(a, f"get_{axis}label")() for a in kin]
                assert any(n.strip() for n in names) or whole.strip(), f"{key}: a panel's {axis} axis is unnamed"
        for ax in drawn:
            (x0, x1), (y0, y1) = sorted(ax.get_xlim()), sorted(ax.get_ylim())
            for line in ax.lines:
                x, y = (np.asarray(v, dtype=float) for v in line.get_data())
                if x.size < 3 or not line.get_visible():  # reference lines span the axes by construction
                    continue
                inside = (x >= x0) & (x <= x1) & (y >= y0) & (y <= y1)
                assert inside.any(), f"{key}: the curve {line.get_label()!r} lies wholly outside its axes"
        plt.close(fig)


@pytest.mark.parametrize("w", WIDGET_IDS, indirect=True)
def test_each_draw_dependent_claim_prints_its_share_of_seeds_on_its_page(w):
    """A statement that depends on the draw says how often it holds: in the registry, and on the
    page itself, where the reader meets it (the share's glued keys are on the page)."""
    glued = set(GLUE.findall(page_source(w)))
    for c in w.claims:
        if c.kind != "draw":
            continue
        assert c.robustness, f"{c.id}: a draw-dependent claim without its share of seeds"
        keys = {k.split("__")[0] for k in re.findall(r"\{(\w+)\}", c.robustness)}
        shares = {k for k in keys if "share" in k or k.endswith("_seeds")} or keys
        on_page = {k.split("__")[0] for k in glued}
        assert shares & on_page, f"{c.id}: its share of seeds ({sorted(shares)}) is not on the page"
