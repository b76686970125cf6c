"""Measure the book's build, side by side, on this machine: ``make bench``.

Works on temporary copies of the repository (so edits never touch the checkout):

a. clean HTML build, pages executed (fresh output, fresh execution cache)
b. clean HTML build with execution off (-D nb_execution_mode=off): Sphinx's own floor
c. rebuild after a prose-only edit of one page
d. rebuild after an edit of one chapter09 maths module (attention.py): which pages re-execute
e. no-op rebuild
i. rebuild after an edit of one page module (chapter09/pages/attention.py): its page alone
j. rebuild after an edit of the registry of widgets (an alias added to chapter09/widgets.py): no
   figure page re-executes
g. what a first visit of each page of (a) loads, in Chromium (``first_visit.py``), when
   Debian's chromium is there
h. page 4b's small-budget trainings (nine models at each length, 400 steps, nothing read from
   disk): CPU seconds and Adam steps per CPU second of this checkout and of the revision
   ``TRAINING_BASE`` (default 841cf1c, the last one whose trainings called numpy's exp and BLAS),
   alternately, ``BENCH_RUNS`` times each (the ratio's target: at most 1,5)
k. page 4c's trainings as a machine's first run makes them (compiled from nothing, nothing read from
   disk): CPU seconds (the target: at most 60); and Adam steps per CPU second, compiled, of the
   attention-only model beside page 4b's LSTM with attention (three seeds at L = 4, 8 and 12, 400 steps)

All build as ``make html`` does (``tools/build.py``), ``BENCH_RUNS`` times (3): medians, the
ratios against the targets, the CPU floor of (a) (its CPU seconds over the cores), each page's
execution and each widget's compute time.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import re
import resource
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

import build
import first_visit
from quick_build import copy_repo

ROOT = Path(__file__).resolve().parents[1]
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
TRAINING_BASE = os.environ.get("TRAINING_BASE", "841cf1c")
SWEEP = (  # the same trainings in both revisions, by the function both have, never from a store
    "import resource, sys; sys.path.insert(0, '.'); from chapter09 import seq2seq as m; "
    "runs = tuple((a, s) for a in m.ARMS for s in m.SEEDS); t = getattr(m, 'training', m); "  # a package since #42
    "train = getattr(t, 'train_many', None) or getattr(t, '_train_many'); "  # its name before 7395fd9
    "[train(runs, n, m.STEPS) for n in m.LENGTHS]; "
    "r = resource.getrusage(resource.RUSAGE_SELF); print(r.ru_utime + r.ru_stime)"
)
MODEL_STEPS = 5 * 9 * 400  # lengths × models × steps of SWEEP
ATTENTION_FIRST = (  # page 4c's long sweep, run with an empty CHAPTER09_BUILT
    "import resource, sys; sys.path.insert(0, '.'); from chapter09 import transformer as t; "
    "t.sweep(t.ARMS, (4, 8, 12), (0, 1, 2), steps=5000, until_flat=True); "
    "r = resource.getrusage(resource.RUSAGE_SELF); print(r.ru_utime + r.ru_stime)"
)
RATE_RUNS = tuple((n, s) for n in (4, 8, 12) for s in (0, 1, 2))  # 400 steps each
RATES = (  # Adam steps per CPU second, compiled, of each arm over RATE_RUNS
    "import sys, time; sys.path.insert(0, '.'); from chapter09.transformer import training as a; "
    "from chapter09.seq2seq import training as b; a.train_many((('transformer', 0),), 4, 1); "
    "b.train_many((('attention', 0),), 4, 1); out = []\n"
    "for module, arm in ((a, 'transformer'), (b, 'attention')):\n"
    "    start = time.process_time(); [module.train_many(((arm, s),), n, 400) for n, s in %r]\n"
    "    out.append(400 * %d / (time.process_time() - start))\n"
    "print(*out)" % (RATE_RUNS, len(RATE_RUNS))
)


def sphinx(repo: Path, out: str, cache: Path, *extra: str) -> tuple[float, str]:
    start = time.perf_counter()
    cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = build.run(repo, repo / "_build" / out, *extra, cache=cache, strict=False)
    elapsed = time.perf_counter() - start
    cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    sphinx.cpu = sum(getattr(cpu_after, f) - getattr(cpu_before, f) for f in ("ru_utime", "ru_stime"))
    if result.returncode != 0:
        raise SystemExit(f"build failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    return elapsed, result.stdout + result.stderr


def page_seconds(log: str) -> dict[str, float]:
    """Seconds each page took to execute in its kernel (myst-nb's own report)."""
    return {p: float(t) for p, t in re.findall(r"([\w-]+)\.md: Executed notebook in ([\d.]+) seconds", log)}


def edit(path: Path, old: str, new: str) -> None:
    """Replace ``old`` (which must be there) by ``new`` in a file of a copy."""
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{path.name} no longer has {old!r}: update the bench's edit"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def base_copy(path: Path, revision: str) -> Path:
    """The files of ``revision`` at ``path`` (what ``git archive`` gives)."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision], capture_output=True, check=True).stdout
    path.mkdir(parents=True)
    with tempfile.TemporaryFile() as f:
        f.write(archive), f.seek(0)
        tarfile.open(fileobj=f).extractall(path, filter="data")
    return path


def measure() -> dict:
    times = {k: [] for k in "abcdeij"}
    cpu, reexecuted, pages = [], {k: [] for k in "dij"}, []
    for run in range(RUNS):
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            repo = copy_repo(tmp / "repo")
            t, log = sphinx(repo, "a", tmp / f"cache-{run}")
            times["a"].append(t)
            cpu.append(sphinx.cpu)
            pages.append(page_seconds(log))
            if run == 0:
                weights = first_visits(repo / "_build" / "a")
            t, _ = sphinx(repo, "b", tmp / "cache-off", "-D", "nb_execution_mode=off")
            times["b"].append(t)
            t, _ = sphinx(repo, "a", tmp / f"cache-{run}")
            times["e"].append(t)
            page = repo / "book" / "03-coll-ampolla.md"
            text = page.read_text(encoding="utf-8")
            page.write_text(text.replace("Cap arquitectura no hi pot fer res;", f"Cap arquitectura ({run});"))
            t, _ = sphinx(repo, "a", tmp / f"cache-{run}")
            times["c"].append(t)
            edits = {
                "d": (repo / "chapter09" / "attention.py", "\n", f"\n# benchmark edit {run}\n"),
                "i": (repo / "chapter09" / "pages" / "attention.py", "\n", f"\n# benchmark edit {run}\n"),
                "j": (repo / "chapter09" / "widgets.py", 'ALIASES = {"6"', f'ALIASES = {{"bench{run}": "portes", "6"'),
            }
            for k, (path, old, new) in edits.items():
                edit(path, old, new)
                t, log = sphinx(repo, "a", tmp / f"cache-{run}")
                times[k].append(t)
                reexecuted[k].append(sorted(page_seconds(log)))
    return {
        "times": {k: statistics.median(v) for k, v in times.items()},
        "all": times,
        "cpu": statistics.median(cpu),
        "reexecuted": reexecuted,
        "pages": {p: statistics.median(r[p] for r in pages) for p in pages[0]},
        "weights": weights,
    }


def first_visits(html: Path) -> dict[str, dict[str, int]]:
    """Each page's first visit (``first_visit.loaded``), or nothing without a Chromium."""
    if not Path("/usr/bin/chromium").exists():
        return {}
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium")
        weights = {page.stem: first_visit.loaded(browser, page) for page in sorted(html.glob("*.html"))}
        browser.close()
    return weights


def training_seconds() -> dict[str, list[float]]:
    """CPU seconds of page 4b's sweep, in a fresh process each (imports included, a few tenths of a
    second), this checkout and TRAINING_BASE alternately."""
    out = {"now": [], TRAINING_BASE: []}
    with tempfile.TemporaryDirectory() as tmp:
        where = {"now": ROOT, TRAINING_BASE: base_copy(Path(tmp) / "base", TRAINING_BASE)}
        for _ in range(RUNS):
            for name, repo in where.items():
                done = subprocess.run([sys.executable, "-c", SWEEP], cwd=repo, capture_output=True, text=True)
                out[name].append(float(done.stdout.split()[-1]))
    return out


def attention_alone() -> dict[str, list[float]]:
    """Page 4c's trainings: CPU seconds of a first run (a fresh CHAPTER09_BUILT each time), and the Adam steps per
    CPU second of the attention-only model and of page 4b's LSTM with attention."""
    out = {"first": [], "transformer": [], "lstm": []}
    for _ in range(RUNS):
        with tempfile.TemporaryDirectory() as built:
            env = dict(os.environ, CHAPTER09_BUILT=built)
            out["first"].append(float(_printed(ATTENTION_FIRST, env)[-1]))
            transformer, lstm = map(float, _printed(RATES, env)[-2:])
        out["transformer"].append(transformer)
        out["lstm"].append(lstm)
    return out


def _printed(code: str, env: dict) -> list[str]:
    """The words a fresh Python process running ``code`` in the checkout prints."""
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    return done.stdout.split()


def widget_times() -> dict:
    """Seconds each widget's page module takes to compute what its page shows, caches cleared."""
    sys.path.insert(0, str(ROOT))
    import chapter09
    from chapter09.widgets import WIDGETS

    modules = [importlib.import_module(m.name) for m in pkgutil.walk_packages(chapter09.__path__, "chapter09.")]
    for module in modules:
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()  # time the computation, not a lookup
    out = {}
    for w in WIDGETS:
        page = w.page_module()
        start = time.perf_counter()
        page.readout()
        out[f"W{w.number}"] = {"registry": time.perf_counter() - start}
        start = time.perf_counter()
        page.controls()
        out[f"W{w.number}"]["controls"] = time.perf_counter() - start
    return out


def main() -> None:
    result = measure()
    m = result["times"]
    ca = lambda x: f"{x:.2f}".replace(".", ",")  # noqa: E731
    print(f"\nConstrucció del llibre: mediana de {RUNS} execucions, -j {build.default_jobs()}\n")
    labels = {
        "a": "a) neta, executant les pàgines",
        "b": "b) neta, sense executar (el mínim de Sphinx)",
        "c": "c) després d'editar la prosa d'una pàgina",
        "d": "d) després d'editar chapter09/attention.py",
        "e": "e) sense cap canvi",
        "i": "i) després d'editar chapter09/pages/attention.py",
        "j": "j) després d'afegir un àlies al registre (widgets.py)",
    }
    for k in "abcdeij":
        print(f"  {labels[k]:<54} {ca(m[k]):>7} s   ({', '.join(ca(t) for t in result['all'][k])})")
    cores = build.cores()
    floor = result["cpu"] / cores
    print(f"\n  mínim de CPU de (a): {ca(result['cpu'])} s de CPU / {cores} nuclis = {ca(floor)} s")
    print(
        f"  c/e = {ca(m['c'] / m['e'])} (objectiu ≤ 1,2)    "
        f"a/mínim = {ca(m['a'] / floor)}    a/b = {ca(m['a'] / m['b'])}"
    )
    for k, what in (("d", "un mòdul de càlcul"), ("i", "un mòdul de pàgina"), ("j", "el registre")):
        runs = result["reexecuted"][k]
        print(
            f"  ({k}) editar {what}: torna a executar {runs[0] or 'cap pàgina'}"
            + ("" if runs.count(runs[0]) == len(runs) else f" (les execucions difereixen: {runs})")
        )
    print("\nExecució de cada pàgina a (a), cadascuna en el seu nucli de Jupyter (mediana, s):")
    for page, t in result["pages"].items():
        print(f"  {page:<32} {ca(t):>6}")
    print(f"  {'suma':<32} {ca(sum(result['pages'].values())):>6}")
    if result["weights"]:
        print(f"\nPrimera visita de cada pàgina a (a), a Chromium (objectiu ≤ {first_visit.LIMIT:_} bytes):")
        for page, sizes in result["weights"].items():
            print(f"  {page:<24} {sum(sizes.values()):>10_} bytes   ({first_visit.heaviest(sizes, 3)})")
    seconds = training_seconds()
    now, before = statistics.median(seconds["now"]), statistics.median(seconds[TRAINING_BASE])
    print(f"\nEntrenaments de la pàgina 4b (tota la tanda; s de CPU, mediana de {RUNS}, alternats):")
    for label, name, t in (("exp de numpy, BLAS", TRAINING_BASE, before), ("chapter09.portable", "now", now)):
        runs = ", ".join(ca(x) for x in seconds[name])
        print(f"  {TRAINING_BASE if name != 'now' else 'ara':<8} ({label}): {ca(t):>7}   ({runs})")
    print(f"  ara/{TRAINING_BASE} = {ca(now / before)} (objectiu ≤ 1,5)")
    rates = f"{TRAINING_BASE} {ca(MODEL_STEPS / before)}, ara {ca(MODEL_STEPS / now)}"
    print(f"  passos d'Adam per segon de CPU (model × pas): {rates}")
    alone = attention_alone()
    first = statistics.median(alone["first"])
    print(f"\nEntrenaments de la pàgina 4c, primera vegada (compilant, res del disc; s de CPU, mediana de {RUNS}):")
    print(f"  {ca(first)}   ({', '.join(ca(x) for x in alone['first'])}) (objectiu ≤ 60)")
    speeds = {k: ca(statistics.median(alone[k])) for k in ("transformer", "lstm")}
    print(f"  passos d'Adam per segon de CPU: atenció sola {speeds['transformer']}, LSTM amb atenció {speeds['lstm']}")
    print("\nTemps de càlcul de cada figura (s):")
    for name, t in widget_times().items():
        print(f"  {name}: registre {ca(t['registry'])}, controls {ca(t['controls'])}")


if __name__ == "__main__":
    main()
