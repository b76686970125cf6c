"""An edit of chapter09 re-executes the pages that use the edited code — and only those."""

import re
import shutil
import sys

import pytest

from chapter09.widgets import WIDGETS

from conftest import BOOK, ROOT, quick_build
from conftest import build as build_tool

sys.path.insert(0, str(ROOT / "_ext"))
import execution


def pages_changed_by_an_edit(tmp_path, module: str) -> list[str]:
    """The pages whose key changes when ``module`` (a file of chapter09) is edited."""
    package = tmp_path / "chapter09"
    if not package.exists():
        shutil.copytree(execution.PACKAGE, package, ignore=shutil.ignore_patterns("__pycache__"))
    pages = {p.stem: p.read_text(encoding="utf-8") for p in BOOK.glob("*.md")}
    before = {name: execution.page_digest(text, package=package) for name, text in pages.items()}
    with open(package / module, "a") as f:
        f.write("\n# an edit\n")
    return sorted(name for name in pages if before[name] != execution.page_digest(pages[name], package=package))


ALL = [w.page for w in WIDGETS]  # every widget page
SEQ2SEQ = ("__init__", "task", "net", "training", "sweep", "curves")  # the modules of chapter09/seq2seq/
TRANSFORMER = ("__init__", "net", "layers", "training", "blind")  # the modules of chapter09/transformer/
LANGUAGE = ("__init__", "source", "net", "training", "sampling")  # the modules of chapter09/language/


@pytest.mark.parametrize(
    "module, pages",
    [
        # its page, the page that sets learned weights beside it, and page 4c (its positions come from qkv, on page 04)
        ("attention.py", ["04-atencio", "04b-seq2seq", "04c-atencio-sola"]),
        ("qkv.py", ["04-atencio", "04c-atencio-sola"]),  # page 04's Transformer attention, and 4c's positions
        ("pages/attention.py", ["04-atencio"]),  # what page 04 shows: no other page imports a page module
        ("pages/rnn_gradient.py", ["01-gradient-rnn"]),
        # widget 2 runs widget 1's draw; page 08 sets page 01's estimate beside its identity
        ("rnn_gradient.py", ["01-gradient-rnn", "02-rnn-lstm", "08-recurrencia-lineal"]),
        ("gates.py", ["07-portes"]),  # a widget's numbers: its page (the claims page reads, never runs)
        # the trained models: their page, whichever module of the package (its __init__ imports training), and
        # page 4c, which trains on the same task and sets page 4b's models beside its own
        *((f"seq2seq/{name}.py", ["04b-seq2seq", "04c-atencio-sola"]) for name in SEQ2SEQ),
        *((f"transformer/{name}.py", ["04c-atencio-sola"]) for name in TRANSFORMER),
        *(
            (f"language/{name}.py", []) for name in ("__init__", "source", "net", "training", "sampling")
        ),  # no page reads it yet
        ("plots.py", ALL),  # the shared style (book.setup) reaches every page
        ("claims.py", ALL),  # every page publishes its rows of the registry
        ("guard.py", ALL),  # every page arms its guard (book.setup)
        ("widgets.py", []),  # the registry of figures: a new line runs no page (the CLI and the tests read it)
    ],
)
def test_an_edit_changes_the_key_of_exactly_the_pages_that_use_it(tmp_path, module, pages):
    assert pages_changed_by_an_edit(tmp_path, module) == pages


def test_a_page_depends_on_the_modules_it_imports_transitively_and_on_nothing_else():
    page = "```{code-cell} ipython3\n:tags: [remove-input]\n\nfrom chapter09 import fmt\n```\n"
    assert [p.name for p in execution.dependencies(page)] == [
        "__init__.py",
        "fmt.py",
        "validate.py",
        "words.py",
    ]  # fmt: validate, words
    relative = execution.imports("from .. import fmt\nfrom .claim import Claim", "chapter09.pages.x")
    assert relative == {"chapter09", "chapter09.fmt"}
    assert execution.imports("from .claim import Claim", "chapter09.claims") == {"chapter09.claim"}
    assert execution.imports("from .. import portable\nfrom . import net", "chapter09.seq2seq.sweep") == {
        "chapter09",
        "chapter09.portable",
        "chapter09.seq2seq",
        "chapter09.seq2seq.net",
    }  # a subpackage's module: relative imports from its package
    assert execution.imports("from .training import train", "chapter09.seq2seq") == {"chapter09.seq2seq.training"}
    package = "```{code-cell} ipython3\nfrom chapter09 import seq2seq\n```\n"  # the package runs what it imports
    inside = {p.relative_to(execution.PACKAGE).as_posix() for p in execution.dependencies(package)}
    assert {f"seq2seq/{name}.py" for name in ("__init__", "training", "net", "task")} <= inside
    assert not {"seq2seq/sweep.py", "seq2seq/curves.py"} & inside  # ... and nothing else
    broken = "```{code-cell} ipython3\nfrom chapter09 import (\n```\n"  # fails when it runs: depends on all
    assert len(execution.dependencies(broken)) == len(list(execution.PACKAGE.rglob("*.py")))


def build(repo, cache):
    """Build the copy; the pages that myst-nb executed, each said in one line with its time, and no kernel's
    warning (the kernels talk over IPC: _ext/kernels.py)."""
    result = build_tool.run(repo, cache=cache, timeout=900)
    log = result.stdout + result.stderr
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "IPKernelApp" not in log and "WARNING" not in log, log[-3000:]
    executed = re.findall(r"([\w-]+)\.md: .*notebook", log)
    assert all(re.search(rf"{page}\.md: Executed notebook in [\d.]+ seconds", log) for page in executed), log[-3000:]
    assert len(executed) == len(set(executed)), "more than one line for a page"
    return sorted(executed)


@pytest.mark.book
def test_edit_of_a_widget_re_executes_its_page_with_the_new_numbers(tmp_path):
    repo = quick_build.small_copy(tmp_path / "repo", ("04-atencio", "07-portes", "afirmacions"))
    cache = tmp_path / "cache"
    assert build(repo, cache) == ["04-atencio", "07-portes"]
    module = repo / "chapter09" / "attention.py"
    text = module.read_text(encoding="utf-8")
    assert "COPY_TOL, MEAN_TOL = 0.01, 0.1 " in text  # a tolerance every claim still meets when widened
    module.write_text(
        text.replace("COPY_TOL, MEAN_TOL = 0.01, 0.1 ", "COPY_TOL, MEAN_TOL = 0.01, 0.12 "), encoding="utf-8"
    )
    assert build(repo, cache) == ["04-atencio"]
    html = repo / "_build" / "html"
    pasted = re.findall(r'<span class="pasted-text">([^<]*)</span>', (html / "04-atencio.html").read_text())
    assert "del 12\xa0%" in pasted and "del 10\xa0%" not in pasted  # the glued tolerance: new, not stale
    claims = (html / "afirmacions.html").read_text(encoding="utf-8")
    assert "12\xa0%" in claims and "tolerància 10\xa0%" not in claims  # the claims page, written again
    assert build(repo, cache) == []  # nothing changed: nothing runs


PRIVATE = re.compile(
    r"\b(?:myst_nb|jupyter_cache|sphinx|docutils)(?:\.\w+)*\._\w+"  # module._name
    r"|from\s+(?:myst_nb|jupyter_cache|sphinx|docutils)\S*\s+import[^\n]*\b_\w+"  # from module import _name
    r"|(?:\)|\bcache)\.db\b|mystnb_config\.copy\("
)  # jupyter-cache's engine; myst-nb's config rewritten


NO_HOME_MADE_KERNELS = re.compile(
    r"^\s*(?:from|import)\s+(?:jupyter_client(?!\.provisioning\b)|nbclient)\b|\bKernelManager\(|\bstart_new_kernel\b",
    re.M,
)


def test_the_extensions_use_no_private_name_of_myst_nb_or_jupyter_cache():
    """Only their public API: a private name is a defect waiting for their next release; and
    no home-made execution (a kernel pool, a watchdog, socket folders) is left."""
    found = [
        f"{path.relative_to(ROOT)}: {m.group(0)}"
        for path in [*sorted((ROOT / "_ext").glob("*.py")), *sorted((ROOT / "chapter09").rglob("*.py"))]
        for m in PRIVATE.finditer(path.read_text(encoding="utf-8"))
    ]
    assert found == []
    names = {p.stem for p in (ROOT / "_ext").glob("*.py")}
    assert not names & {"shared_kernels", "kernel_pool", "interrupt", "exec_keys"}
    sources = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "_ext").glob("*.py"))
    assert not re.search(NO_HOME_MADE_KERNELS, sources)  # jupyter_client's provisioner hook only (_ext/kernels.py)
    assert re.search(NO_HOME_MADE_KERNELS, "from jupyter_client.manager import KernelManager")
    assert PRIVATE.search("from sphinx.util import _pathlib") and PRIVATE.search("get_cache(p).db")
    assert PRIVATE.search("from myst_nb.core.read import _read_nb")


def test_a_build_writes_nothing_in_the_checkout(built_book):
    """Nothing in the checkout is written by a build whose output and cache are elsewhere (the
    session's build; Python's bytecode caches aside: a read-only checkout goes without them)."""
    written = (built_book.parents[1] / "written.txt").read_text(encoding="utf-8")  # conftest's built_book
    assert (built_book / "index.html").exists() and written == ""
