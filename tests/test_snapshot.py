"""Every string a page glues and every output of a visible example is pinned
(``tests/snapshot.json``, updated on purpose with ``make snapshot``)."""

from __future__ import annotations

import json
import re

import pytest

from chapter09.widgets import WIDGETS

import snapshot  # tools/snapshot.py (conftest puts tools/ on the path)
from conftest import BOOK

pytestmark = pytest.mark.registry  # the pages' numbers, computed where the registry is
PINNED = json.loads(snapshot.SNAPSHOT.read_text(encoding="utf-8"))
PAGES = sorted(w.page for w in WIDGETS)


@pytest.fixture(scope="module")
def now() -> dict:
    """What the pages glue and their examples print, computed now (page 4b trains: once per module)."""
    return snapshot.current()


def test_glued_strings_and_examples_match_the_snapshot(now):
    changes = snapshot.differences(PINNED, now)
    assert not changes, (
        "the book's numbers changed; if that is meant, run `make snapshot` and commit "
        "tests/snapshot.json:\n" + "\n".join(changes) + "\n" + snapshot.where(PINNED, now)
    )


def test_a_mismatch_names_both_machines():
    """A contributor tells a machine's difference from a change of the code at a glance."""
    avx512 = {"numpy": "2.4.6", "blas kernel": "SkylakeX", "cpu features": "X86_V2 X86_V3 X86_V4"}
    arm = {"numpy": "2.4.6", "blas kernel": "NEOVERSEN1", "cpu features": "NEON ASIMD"}
    message = snapshot.where({snapshot.MACHINE: avx512}, {snapshot.MACHINE: arm})
    assert message.startswith("different machines:")
    assert "blas kernel: pinned on SkylakeX; computed on NEOVERSEN1" in message
    assert "cpu features: pinned on X86_V2 X86_V3 X86_V4; computed on NEON ASIMD" in message
    assert snapshot.where({snapshot.MACHINE: arm}, {snapshot.MACHINE: arm}).startswith("the same machine settings")
    assert snapshot.differences({snapshot.MACHINE: avx512}, {snapshot.MACHINE: arm}) == []  # not a page


def test_the_snapshot_records_where_it_was_pinned():
    assert set(PINNED[snapshot.MACHINE]) >= {"numpy", "blas", "blas kernel", "cpu features", "machine"}


@pytest.mark.parametrize("page", PAGES)
def test_every_widget_page_shows_runnable_examples(page):
    cells = snapshot.visible_cells((BOOK / f"{page}.md").read_text(encoding="utf-8"))
    assert 2 <= len(cells) <= 5, f"{page}: {len(cells)} visible code cells (the section «Amb codi» has 2 to 5)"
    assert "from chapter09 import" in cells[0], f"{page}: the first example imports what it uses"


CODE_WIDTH = 80  # characters: a longer line wraps in the PDF, and a wrapped line at a page's foot
# can push the rest of its cell, and what follows, off the page (Sphinx#10375, Sphinx#8686)


@pytest.mark.parametrize("page", PAGES)
def test_examples_fit_the_printed_page_unwrapped(page):
    cells = snapshot.visible_cells((BOOK / f"{page}.md").read_text(encoding="utf-8"))
    long = [line for cell in cells for line in cell.splitlines() if len(line) > CODE_WIDTH]
    assert not long, f"{page}: lines longer than {CODE_WIDTH} characters: {long}"


@pytest.mark.parametrize("page", PAGES)
def test_each_example_prints_numbers_the_prose_glues(now, page):
    """An example is where a number comes from: each one prints at least one string that the
    page also glues into its prose, and every number it prints is one of them."""
    glued = set(now[page]["glue"].values())
    for i, output in enumerate(now[page]["examples"], 1):
        shown = [value for line in output.splitlines() for value in [line.rsplit(": ", 1)[-1].rsplit(" = ", 1)[-1]]]
        numbers = [v.removesuffix(" FLOP") for v in shown if re.search(r"\d", v)]
        assert numbers, f"{page}: visible cell {i} prints no number"
        strays = [v for v in numbers if v not in glued]
        assert not strays, f"{page}: visible cell {i} prints {strays}, which the page does not glue"


def test_a_changed_widget_readout_is_named_with_its_state():
    new = json.loads(json.dumps(PINNED))
    key = next(k for k in new["04-atencio"]["widget"] if not k.startswith("control "))
    was = PINNED["04-atencio"]["widget"][key]
    new["04-atencio"]["widget"][key] = was + "?"
    assert snapshot.differences(PINNED, new) == [f"04-atencio: widget state {key}: {was!r} → {was + '?'!r}"]


@pytest.mark.parametrize("w", WIDGETS, ids=[w.page for w in WIDGETS])
def test_every_control_label_is_the_value_it_runs(w):
    """A menu or slider writes each value as the prose does, and writes the value it runs:
    «0,25» runs 0,25 (never «0,2»), «1.024» runs 1024; a switch's two positions have two names."""
    for c in w.page_module().controls()["controls"]:
        if all(isinstance(v, bool) for v in c["values"]):
            assert len(set(c["labels"])) == len(c["values"]), f"{c['name']}: two positions of one name"
            continue
        for value, label in zip(c["values"], c["labels"]):
            runs = float(label.replace(".", "").replace(",", ".").replace("−", "-"))
            assert runs == value, f"{w.page}: control {c['name']} labels {value!r} as «{label}»"


def test_a_changed_number_is_named_with_its_key_and_both_values():
    new = json.loads(json.dumps(PINNED))
    new["03-coll-ampolla"]["glue"]["w3_fraction_2"] = "0,38\xa0%"
    new["04-atencio"]["examples"][0] = "abast efectiu mitjà: 5,94\n"
    changes = snapshot.differences(PINNED, new)
    assert changes[0] == "03-coll-ampolla: w3_fraction_2: '0,39\\xa0%' → '0,38\\xa0%'"
    assert changes[1].startswith("04-atencio: visible cell 1 prints 'abast efectiu mitjà: 5,94\\n'")
    assert len(changes) == 2


def test_hidden_cells_are_not_examples():
    page = (
        "```{code-cell} ipython3\n:tags: [remove-input]\n\nbook.show(page)\n```\n\n"
        "```{code-cell} ipython3\nprint(1 + 1)\n```\n\n"
        "```{code-cell} ipython3\n:tags: [hide-cell, other]\n\nx = 1\n```\n"
    )
    assert snapshot.visible_cells(page) == ["print(1 + 1)"]
    assert snapshot.run_cells(["x = 2", "print(x)", "x * 3", "None"]) == ["", "2\n", "6\n", ""]


def test_a_figure_that_draws_otherwise_is_named_with_its_line():
    """An axis renamed, a range that hides the curves, a series moved: each is a changed line of the figure."""
    new = json.loads(json.dumps(PINNED))
    lines = new["04-atencio"]["figures"]["w4_fig_span"]
    i = next(i for i, line in enumerate(lines) if line.startswith("  y "))
    lines[i] = lines[i].replace("abast efectiu mitjà", "")
    changes = snapshot.differences(PINNED, new)
    was = PINNED["04-atencio"]["figures"]["w4_fig_span"][i]
    assert changes == [f"04-atencio: figure w4_fig_span, line {i + 1}: {was!r} → {lines[i]!r}"]
    del new["04-atencio"]["figures"]["w4_fig_span"]
    assert snapshot.differences(PINNED, new) == ["04-atencio: figure w4_fig_span removed"]


def test_what_a_figure_shows_is_read_from_its_axes():
    """The pinned lines see a label, a limit, a tick, a curve's values and its style."""
    from matplotlib.figure import Figure

    import drawn

    def draw(y_top=2.0, label="temps", style="-", y=(0.0, 1.0)):
        fig = Figure()
        ax = fig.subplots()
        ax.plot([0.0, 1.0], y, style, label="sèrie")
        ax.set_xlabel(label)
        ax.set_ylim(0, y_top)
        return drawn.figure_lines(fig)

    base = draw()
    assert "x 'temps' linear" in base[2] and "line 'sèrie' #1f77b4 - None" in base[4]
    for other in (draw(y_top=0.5), draw(label=""), draw(style="--"), draw(y=(0.0, 1.001))):
        assert other != base
