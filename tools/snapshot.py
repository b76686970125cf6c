"""The book's pinned strings: what every page glues, what its visible examples print, and
what its widget shows at every position of its controls.

A number on a page reaches it by one of three roads: a ``{glue:text}`` role, whose string
the page's module computes (``chapter09.pages``), the printed output of a code cell the
reader sees ("Amb codi"), or the widget's readout, precomputed for every combination of
its controls.  All three are pinned in ``tests/snapshot.json``, and so is what every figure
and every widget plot shows, as data (``tools/drawn.py``: axes, limits, ticks, labels, each
series' digest), and ``tests/test_snapshot.py`` fails, naming the page, the key and the old
and the new string, as soon as either changes.  A change that is meant is accepted with one command:

    make snapshot          (python tools/snapshot.py --update)

and the diff of ``tests/snapshot.json`` shows it in review.  Without ``--update`` the
command prints the differences and exits with 1.

The file also records where it was pinned (``MACHINE``: numpy's and OpenBLAS's versions, the
CPU features numpy uses, BLAS's kernel), and a difference is reported with both machines, so
that a machine's difference tells itself from a change of the code at a glance.  The book's
strings do not depend on the machine (``tools/same_bits.py`` checks it): a difference between
two machines is a defect to report.
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import re
import sys
from pathlib import Path

import drawn

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"
SNAPSHOT = ROOT / "tests" / "snapshot.json"
sys.path.insert(0, str(ROOT))  # chapter09, when run as a script from a checkout
HIDDEN = {"remove-input", "remove-cell", "hide-input", "hide-cell"}
WIDGET_LINES = 8  # changed widget states named one by one, per page
MACHINE = "_pinned_on"  # the record of where the strings were computed, beside the pages
CELL = re.compile(r"^```\{code-cell\}[^\n]*\n(.*?)^```", re.M | re.S)


def code_cells(page_text: str) -> list[tuple[set[str], str]]:
    """Each code cell of a MyST page: its tags and its code (option lines removed)."""
    cells = []
    for body in CELL.findall(page_text):
        lines = body.splitlines()
        options = [line for line in lines if line.startswith(":")]
        tags = set()
        for option in options:
            if option.startswith(":tags:"):
                tags |= {t.strip() for t in option.split(":", 2)[2].strip(" []").split(",") if t.strip()}
        code = "\n".join(line for line in lines if not line.startswith(":")).strip("\n")
        cells.append((tags, code))
    return cells


def visible_cells(page_text: str) -> list[str]:
    """The code a reader sees on the page: every cell not tagged to hide its input."""
    return [code for tags, code in code_cells(page_text) if not tags & HIDDEN]


def run_cells(cells: list[str]) -> list[str]:
    """Run ``cells`` one after another in one namespace, as a kernel would, and return what
    each prints (a last bare expression is shown, as in Jupyter)."""
    namespace: dict = {"__name__": "__main__"}
    outputs = []
    for code in cells:
        tree = ast.parse(code)
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(tree, "<cell>", "exec"), namespace)
            if last is not None:
                value = eval(compile(ast.Expression(last.value), "<cell>", "eval"), namespace)
                if value is not None:
                    print(repr(value))
        outputs.append(out.getvalue())
    return outputs


def glued() -> dict[str, dict[str, str]]:
    """Every string each widget page glues, by page and key."""
    from chapter09 import widgets

    return {w.page: dict(sorted(w.numbers.items())) for w in widgets.registry()}


def widget_states() -> dict[str, dict[str, str]]:
    """Each page's widget: its controls' labels, its readout at every combination of their
    positions (a state key, "3-0", to the readout's strings joined with " | "), and its plot there
    ("plot 3-0", :func:`drawn.plot_lines`)."""
    from chapter09.widgets import WIDGETS

    out = {}
    for w in WIDGETS:
        spec = w.page_module().controls()
        labels = {f"control {c['name']}": " | ".join(c["labels"]) for c in spec["controls"]}
        states = {key: " | ".join(state["readout"].values()) for key, state in spec["states"].items()}
        out[w.page] = labels | states | drawn.plot_lines(spec)
    return out


def figures() -> dict[str, dict[str, list[str]]]:
    """What each page's static figures show, by page and glue key (:func:`drawn.figure_lines`)."""
    from chapter09 import book
    from chapter09.widgets import WIDGETS

    book.setup()
    return {w.page: {k: drawn.figure_lines(f) for k, f in w.page_module().figures().items()} for w in WIDGETS}


def current() -> dict:
    from same_bits import machine

    pages = {MACHINE: machine()}
    widgets, drawings = widget_states(), figures()
    for page, numbers in glued().items():
        text = (BOOK / f"{page}.md").read_text(encoding="utf-8")
        pages[page] = {
            "glue": numbers,
            "examples": run_cells(visible_cells(text)),
            "widget": widgets[page],
            "figures": drawings[page],
        }
    return pages


def differences(old: dict, new: dict) -> list[str]:
    """What changed, one line each: page, key (or example number), old and new string."""
    lines = []
    for page in sorted((set(old) | set(new)) - {MACHINE}):
        if page not in old or page not in new:
            lines.append(f"{page}: page {'added' if page in new else 'removed'}")
            continue
        before, after = old[page]["glue"], new[page]["glue"]
        for key in sorted(set(before) | set(after)):
            if before.get(key) != after.get(key):
                lines.append(f"{page}: {key}: {before.get(key, '(absent)')!r} → {after.get(key, '(absent)')!r}")
        before, after = old[page].get("widget", {}), new[page].get("widget", {})
        changed = [k for k in sorted(set(before) | set(after)) if before.get(k) != after.get(k)]
        for key in changed[:WIDGET_LINES]:
            where = key if key.startswith(("control ", "plot")) else f"widget state {key}"
            lines.append(f"{page}: {where}: {before.get(key, '(absent)')!r} → {after.get(key, '(absent)')!r}")
        if len(changed) > WIDGET_LINES:
            lines.append(f"{page}: … and {len(changed) - WIDGET_LINES} more widget states")
        before, after = old[page].get("figures", {}), new[page].get("figures", {})
        for key in sorted(set(before) | set(after)):
            if key not in before or key not in after:
                lines.append(f"{page}: figure {key} {'added' if key in after else 'removed'}")
                continue
            was, now = before[key], after[key]
            changed = [(i, a, b) for i, (a, b) in enumerate(zip(was, now)) if a != b]
            if len(was) != len(now):
                changed.append((min(len(was), len(now)), f"{len(was)} lines", f"{len(now)} lines"))
            for i, a, b in changed[:WIDGET_LINES]:
                lines.append(f"{page}: figure {key}, line {i + 1}: {a!r} → {b!r}")
        before, after = old[page]["examples"], new[page]["examples"]
        for i in range(max(len(before), len(after))):
            was = before[i] if i < len(before) else "(absent)"
            now = after[i] if i < len(after) else "(absent)"
            if was != now:
                lines.append(f"{page}: visible cell {i + 1} prints {now!r}, pinned {was!r}")
    return lines


def where(old: dict, new: dict) -> str:
    """Both machines, when the strings differ: pinned on one, computed on the other."""
    pinned, here = old.get(MACHINE, {}), new.get(MACHINE, {})
    keys = sorted(set(pinned) | set(here))
    same = "the same machine settings" if pinned == here else "different machines"
    unknown = "(not recorded)"
    rows = [f"  {k}: pinned on {pinned.get(k, unknown)}; computed on {here.get(k, unknown)}" for k in keys]
    return f"{same}:\n" + "\n".join(rows)


def first_run_note() -> str:
    """What a copy's first run does once (pages 4b's and 4c's trainings, numba's compiling), or "" once done."""
    from chapter09 import common

    stores = ("chapter09.seq2seq.sweep", "chapter09.transformer.training")
    if all(any(common.built_dir(module, "stored").glob("*.pickle")) for module in stores):
        return ""
    return (
        "First run of this copy: the models of pages 4b and 4c are trained and the loops compiled, once "
        "(about three minutes on 2 cores); later runs read them back."
    )


def main(argv: list[str]) -> int:
    if note := first_run_note():
        print(note, flush=True)
    new = current()
    old = json.loads(SNAPSHOT.read_text(encoding="utf-8")) if SNAPSHOT.exists() else {}
    changes = differences(old, new)
    if "--update" in argv:
        SNAPSHOT.write_text(json.dumps(new, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print("\n".join(changes) or "no change", f"\nwritten: {SNAPSHOT.relative_to(ROOT)}", sep="")
        return 0
    print("\n".join(changes) + f"\n{where(old, new)}" if changes else "the snapshot matches the book")
    return 1 if changes else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
