"""Measure the book's build, side by side, on this machine: ``make bench``.

Works on a temporary copy of the repository (so edits never touch the checkout):

a. clean HTML build, pages executed (fresh output, fresh execution cache)
b. clean HTML build with execution off (-D nb_execution_mode=off): Sphinx's own floor
c. rebuild after a prose-only edit of one page
d. rebuild after an edit of one chapter09 module (attention.py): which pages re-execute
e. no-op rebuild
f. clean build on stock myst-nb: the book's execution extensions (exec_keys,
   shared_kernels) off, so one kernel per page, with -j auto

(a)–(e) build as ``make html`` does (``tools/build.py``: -j one more than the cores).

and the CPU floor of (a): its CPU seconds (this process's children, kernels
included) over the cores.  Each is run RUNS times; the table shows medians, the
ratios against the targets, and the compute time of each widget's functions.
"""

from __future__ import annotations

import os
import re
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

from jupyter_cache import get_cache

import build
from quick_build import copy_repo

ROOT = Path(__file__).resolve().parents[1]
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
JOBS = os.environ.get("BENCH_JOBS") or str(build.default_jobs())  # the book's own -j


STOCK = ("interrupt", "myst_nb", "sphinxcontrib.bibtex", "bibliography", "catalan", "offline_math", "notebooks")


def sphinx(repo: Path, out: str, cache: Path, *extra: str, jobs: str = JOBS) -> tuple[float, str]:
    start = time.perf_counter()
    cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = build.run(repo, repo / "_build" / out, *extra, cache=cache, strict=False, jobs=jobs)
    elapsed = time.perf_counter() - start
    cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    sphinx.cpu = sum(getattr(cpu_after, f) - getattr(cpu_before, f) for f in ("ru_utime", "ru_stime"))
    if result.returncode != 0:
        raise SystemExit(f"build failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    return elapsed, result.stdout + result.stderr


def executed(log: str) -> list[str]:
    return sorted(set(re.findall(r"([\w-]+)(?:\.md: Executing notebook|: executed in a shared kernel)", log)))


def page_seconds(log: str) -> dict[str, float]:
    """Seconds each page took in its shared kernel, and the whole execution phase's wall time."""
    pages = {p: float(t) for p, t in re.findall(r"([\w-]+): executed in a shared kernel in ([\d.]+) s", log)}
    wall = re.search(r"shared kernels: \d+ page\(s\) in ([\d.]+) s", log)
    return {**pages, "(fase d'execució, rellotge)": float(wall.group(1)) if wall else float("nan")}


def measure() -> dict:
    times = {k: [] for k in "abcdef"}
    cpu = []
    reexecuted, pages = [], []
    for run in range(RUNS):
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            repo = copy_repo(tmp / "repo")
            t, log = sphinx(repo, "a", tmp / f"cache-{run}")
            times["a"].append(t)
            cpu.append(sphinx.cpu)
            pages.append(page_seconds(log))
            # stock myst-nb's parallel readers race to create an empty cache: create it first
            get_cache(tmp / f"cache-stock-{run}").list_cache_records()
            t, _ = sphinx(
                repo,
                "f",
                tmp / f"cache-stock-{run}",
                "-D",
                "extensions=" + ",".join(STOCK),
                "-D",
                f"nb_execution_cache_path={tmp / f'cache-stock-{run}'}",
                jobs="auto",
            )
            times["f"].append(t)
            t, _ = sphinx(repo, "b", tmp / "cache-off", "-D", "nb_execution_mode=off")
            times["b"].append(t)
            t, _ = sphinx(repo, "a", tmp / f"cache-{run}")
            times["e"].append(t)
            page = repo / "book" / "03-coll-ampolla.md"
            page.write_text(
                page.read_text(encoding="utf-8").replace(
                    "Cap arquitectura no hi pot fer res;", f"Cap arquitectura no hi pot fer res ({run});"
                ),
                encoding="utf-8",
            )
            t, _ = sphinx(repo, "a", tmp / f"cache-{run}")
            times["c"].append(t)
            module = repo / "chapter09" / "attention.py"
            module.write_text(module.read_text(encoding="utf-8") + f"\n# benchmark edit {run}\n", encoding="utf-8")
            t, log = sphinx(repo, "a", tmp / f"cache-{run}")
            times["d"].append(t)
            reexecuted.append(executed(log))
    return {
        "times": {k: statistics.median(v) for k, v in times.items()},
        "all": times,
        "cpu": statistics.median(cpu),
        "reexecuted": reexecuted,
        "pages": {p: statistics.median(r[p] for r in pages) for p in pages[0]},
    }


def widget_times() -> dict:
    sys.path.insert(0, str(ROOT))
    from chapter09 import attention, gates, lstm_gradient, rnn_gradient
    from chapter09.pages import attention as p4
    from chapter09.pages import bottleneck as p3
    from chapter09.pages import cost as p5
    from chapter09.pages import gates as p7
    from chapter09.pages import lstm_gradient as p2
    from chapter09.pages import rnn_gradient as p1

    modules = {"W1": p1, "W2": p2, "W3": p3, "W4": p4, "W5": p5, "W7": p7}
    from chapter09 import bottleneck, cost

    memoised = (
        rnn_gradient.simulate,
        rnn_gradient.sweep,
        lstm_gradient.simulate,
        attention.attend,
        attention.span_curve,
        bottleneck.pigeonhole,
        bottleneck.fraction_by_length,
        cost.sweep,
        cost.memory_curve,
        gates.gates,
    )
    for cached in (
        rnn_gradient.page_seed,
        rnn_gradient.robustness,
        lstm_gradient.robustness,
        attention.robustness,
        gates.robustness,
        *memoised,
        *(m.readout for m in modules.values()),
    ):
        cached.cache_clear()  # time the computation, not a lookup
    out = {}
    for name, module in modules.items():
        start = time.perf_counter()
        module.readout()
        out[name] = {"registry": time.perf_counter() - start}
        start = time.perf_counter()
        module.controls()
        out[name]["controls"] = time.perf_counter() - start
    return out


def main() -> None:
    result = measure()
    m = result["times"]
    ca = lambda x: f"{x:.2f}".replace(".", ",")  # noqa: E731
    print(f"\nConstrucció del llibre: mediana de {RUNS} execucions, -j {JOBS} (f: -j auto)\n")
    labels = {
        "a": "a) neta, executant les pàgines",
        "b": "b) neta, sense executar (el mínim de Sphinx)",
        "c": "c) després d'editar la prosa d'una pàgina",
        "d": "d) després d'editar chapter09/attention.py",
        "e": "e) sense cap canvi",
        "f": "f) neta, myst-nb sense les extensions del llibre",
    }
    for k in "abcdef":
        print(f"  {labels[k]:<48} {ca(m[k]):>7} s   ({', '.join(ca(t) for t in result['all'][k])})")
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    floor = result["cpu"] / cores
    print(f"\n  mínim de CPU de (a): {ca(result['cpu'])} s de CPU / {cores} nuclis = {ca(floor)} s")
    print(
        f"  a/mínim = {ca(m['a'] / floor)} (objectiu ≤ 1,3)    a/f = {ca(m['a'] / m['f'])} (objectiu ≤ 0,5)    "
        f"c/e = {ca(m['c'] / m['e'])} (objectiu ≤ 1,2)    a/b = {ca(m['a'] / m['b'])}"
    )
    print(f"  pàgines tornades a executar a (d): {result['reexecuted'][0]}")
    busy = sum(t for p, t in result["pages"].items() if not p.startswith("("))
    print(f"\nExecució de cada pàgina a (a), en nuclis compartits (mediana, s); {cores} nuclis de processador:")
    for page, t in result["pages"].items():
        print(f"  {page:<32} {ca(t):>6}")
    print(f"  {'suma':<32} {ca(busy):>6}  → com a mínim {ca(busy / cores)} s de rellotge amb {cores} nuclis")
    print("\nTemps de càlcul de cada widget (s):")
    for name, t in widget_times().items():
        print(f"  {name}: registre {ca(t['registry'])}, controls {ca(t['controls'])}")


if __name__ == "__main__":
    main()
