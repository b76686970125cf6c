"""Build a few pages of the book, fast: ``python tools/quick_build.py 04-atencio [07-portes …]``.

A temporary copy of the repository keeps only the pages named (with the index and the
bibliography), and ``sphinx-build -W`` builds it into ``/tmp/chapter09-quick/<pages>/``,
with its own execution cache.  Builds wait for each other (a lock), so that two never
share the two cores.  The tests use :func:`small_copy` for their small books too.
"""

from __future__ import annotations

import fcntl
import shutil
import sys
from pathlib import Path

import build

ROOT = Path(__file__).resolve().parents[1]
COPY = ("book", "chapter09", "_ext", "locale", "text", "conf.py")
LOCK = Path("/tmp/chapter09-build.lock")


def copy_repo(path: Path) -> Path:
    """A copy at ``path`` of what a build reads: the book, the package, the extensions, conf.py."""
    for name in COPY:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, path / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, path / name)
    return path


def small_copy(path: Path, pages: tuple[str, ...], extensions: tuple[Path, ...] = ()) -> Path:
    """A copy of the repository at ``path`` whose book executes only ``pages`` (the others are
    reduced to their titles), with the Sphinx extension files ``extensions`` added and loaded."""
    copy_repo(path)
    stubs = []
    for page in sorted((path / "book").glob("*.md")):
        if page.stem not in (*pages, "index", "bibliografia"):  # a title only: links to it still resolve
            page.write_text(f"# {page.stem}\n", encoding="utf-8")
            stubs.append(page.stem)
    (path / "book" / "index.md").write_text(
        "# Prova\n\n```{toctree}\n" + "\n".join((*pages, "bibliografia")) + "\n```\n\n"
        "```{toctree}\n:hidden:\n\n" + "\n".join(stubs) + "\n```\n",
        encoding="utf-8",
    )
    for extension in extensions:
        shutil.copy2(extension, path / "_ext" / extension.name)
        with open(path / "conf.py", "a", encoding="utf-8") as f:
            f.write(f'\nextensions.append("{extension.stem}")\n')
    return path


def main(pages: list[str]) -> int:
    if not pages:
        print(__doc__)
        return 2
    out = Path("/tmp/chapter09-quick") / "+".join(pages)
    shutil.rmtree(out, ignore_errors=True)
    repo = small_copy(out / "repo", tuple(pages))
    with LOCK.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        result = build.run(repo, out / "html", cache=out / "cache", quiet=True, capture_output=False)
    print(f"HTML: {out / 'html'}" if result.returncode == 0 else "the build failed (above)")
    return result.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
