"""A figure started from the template (``tools/new_figure.py``) passes the tests as it is: in a copy of
the repository, a figure 10 is written, linted, and its own test, the claims' checks, the API's rules,
the prose's and the pages' structure run on it with every other page."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import new_figure  # tools/new_figure.py (conftest puts tools/ on the path)
import pytest

from conftest import BUILT, ROOT, loops_shared_with

ARGS = ("10", "prova-de-plantilla", "template_trial", "Prova de la plantilla")
COPIED = ("chapter09", "book", "tests", "tools", "text", "_ext", "locale", "conf.py", "pyproject.toml", "README.md")


def copy(path):
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, path / name, ignore=shutil.ignore_patterns("__pycache__", "node_modules"))
        else:
            shutil.copy2(source, path / name)
    return path


def test_bad_arguments_are_refused_naming_what_is_wrong(tmp_path):
    (tmp_path / "book").mkdir()
    (tmp_path / "book" / "09-x.md").touch()
    assert new_figure.refusal(tmp_path, "9", "y", "m", "T") == "number 9 is taken: book/09-x.md"
    assert new_figure.refusal(tmp_path, "nine", "y", "m", "T").startswith("number must be digits")
    assert new_figure.refusal(tmp_path, "10", "Y Z", "m", "T").startswith("name must be lower-case words")
    assert new_figure.refusal(tmp_path, "10", "y", "m_claims", "T").startswith("module must be")
    assert new_figure.refusal(tmp_path, "10", "y", "m", " ") == "title must say something"
    assert new_figure.refusal(tmp_path, "10", "y", "m", "T") is None
    with pytest.raises(ValueError, match="^number 9 is taken"):
        new_figure.new_figure(tmp_path, "9", "y", "m", "T")


@pytest.mark.slow  # a copy of the repository, and its figures' numbers computed there (stored trainings shared)
@pytest.mark.timeout(600)
def test_a_figure_from_the_template_passes_the_tests_as_it_is(tmp_path):
    repo = copy(tmp_path / "repo")
    made = subprocess.run([sys.executable, "tools/new_figure.py", *ARGS], cwd=repo, capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    written = made.stdout.split("\n")[:6]
    assert written == [str(p.relative_to(repo)) for p in new_figure.paths(repo, *ARGS[:3]).values()]
    placeholders = new_figure.tokens(*ARGS)
    assert not [(path, t) for path in written for t in placeholders if t in (repo / path).read_text(encoding="utf-8")]
    python_files = [path for path in written if path.endswith(".py")]
    for command in (["check", "--no-cache"], ["format", "--check", "--no-cache"]):
        linted = subprocess.run(
            [sys.executable, "-m", "ruff", *command, *python_files], cwd=repo, capture_output=True, text=True
        )
        assert linted.returncode == 0, linted.stdout + linted.stderr
    env = dict(os.environ, CHAPTER09_BUILT=str(BUILT))  # the trainings and compiled loops of the checkout, read
    tests = [
        "tests/test_template_trial.py",
        "tests/test_claim_checks.py",
        "tests/test_claims.py",
        "tests/test_api_docs.py",
        "tests/test_typed_numbers.py",
        "tests/test_terms.py",
    ]
    options = ["-n0", "-q", "-p", "no:cacheprovider", "-m", "not book and not browser and not slow"]
    for selection in (tests, ["tests/test_fuzz.py", "-k", "template_trial or every_module or reaches"]):
        with loops_shared_with(repo / "chapter09"):
            run = subprocess.run(
                [sys.executable, "-m", "pytest", *options, *selection],
                cwd=repo,
                env=env,
                capture_output=True,
                text=True,
                timeout=540,
            )
        assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
        assert " passed" in run.stdout and " failed" not in run.stdout
