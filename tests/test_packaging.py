"""The package installs as a wheel, every subpackage included, outside the checkout."""

import subprocess
import sys
import sysconfig
import zipfile

import pytest

from conftest import ROOT, build_wheel

pytestmark = pytest.mark.slow  # a wheel built and installed: make test, not make test-fast


def test_the_wheel_carries_every_subpackage_and_imports_outside_the_checkout(tmp_path):
    wheel = build_wheel(tmp_path)
    names = zipfile.ZipFile(wheel).namelist()
    modules = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "chapter09").rglob("*.py"))
    assert [m for m in modules if m not in names] == []

    # a new environment: the wheel's chapter09, this environment's numpy, matplotlib, babel…
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(tmp_path / "venv")], check=True)
    python = tmp_path / "venv" / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    (tmp_path / "venv" / site.split("/venv/", 1)[1] / "dependencies.pth").write_text(
        sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8"
    )
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", site, str(wheel)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    out = subprocess.run(
        [
            str(python),
            "-c",
            "import chapter09, chapter09.pages.attention as p;"
            "print(chapter09.__file__); print(p.readout().numbers['w4_n'])",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    where, n = out.stdout.split()
    assert where.startswith(str(tmp_path / "venv")) and n == "7"
