"""``python -m chapter09 <figura> [--paràmetre valor …]``: the widget's strings, in Catalan."""

from __future__ import annotations

import subprocess
import sys

import pytest

from chapter09 import __main__ as cli
from chapter09.widgets import WIDGETS

PAGES = {w.name: w.page_module() for w in WIDGETS}
NO_FIGURE = str(max(int(w.number.rstrip("b")) for w in WIDGETS) + 1)  # the first number after the registry's


@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=pytest.mark.registry) if n == "seq2seq" else n for n in sorted(PAGES)]
)  # page 4b's trainings: where the registry is computed
def test_reading_gives_the_widget_strings_at_every_position_of_its_controls(name):
    """The terminal's numbers are the page's: ``reading`` at each grid point equals the
    widget's precomputed readout there (widget 1 computes its grid as a batch)."""
    spec = PAGES[name].controls()
    assert set(spec["readout_labels"]) == set(PAGES[name].LABELS)
    for key, state in spec["states"].items():
        values = {c["name"]: c["values"][int(i)] for c, i in zip(spec["controls"], key.split("-"))}
        assert PAGES[name].reading(**values) == state["readout"], f"{name} at {values}"


@pytest.mark.parametrize(
    "argv, lines",
    [
        (["atencio", "--tau", "0,05"], ["  abast efectiu (mitjana)         1,005"]),
        (["4", "--tau", "4"], ["  abast efectiu (mitjana)         6,91"]),
        (["w4", "--tau", "0.05"], ["  abast efectiu (mitjana)         1,005"]),
        (["rnn-lstm", "--pinned", "sí"], ["  factor del camí de la cel·la  0,950"]),
        (["coll-ampolla"], ["  fracció reconstruïble màxima  0,391\xa0%"]),
        (["6", "--L", "131.072"], ["  memòria cau de claus i valors  17,18\xa0GB"]),
        (["1", "--w_scale", "2", "--input_scale", "0,05"], ["  gradient          explota"]),
        (["portes", "--top_k", "4"], ["  canals apagats           75\xa0%"]),
    ],
)
def test_the_command_prints_the_readout(capsys, argv, lines):
    assert cli.main(argv) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(cli.widget(argv[0]).title + " (")
    assert all(line.startswith("  ") for line in out[1:])  # label and value, in columns
    for line in lines:
        assert " ".join(line.split()) in [" ".join(o.split()) for o in out]


@pytest.mark.parametrize(
    "argv, says",
    [
        (["atencio", "--tau", "5000"], "--tau ha de ser un nombre des de 0,001 fins a 1.000; s’ha donat 5.000"),
        (["rnn-lstm", "--forget", "1,5"], "--forget ha de ser un nombre més gran que 0 i fins a 1; s’ha donat 1,5"),
        (["portes", "--top_k", "0"], "--top_k ha de ser un enter de 1 a 16; s’ha donat 0"),
        (["portes", "--top_k", "x"], "argument --top_k: «x» no és un nombre enter"),
        (["rnn-lstm", "--pinned", "potser"], "«potser» no és «sí» ni «no»"),
        (["portes", "--soroll", "1"], "arguments desconeguts: --soroll 1"),
        ([NO_FIGURE], f"opció no vàlida: '{NO_FIGURE}'"),
    ],
)
def test_a_bad_value_is_refused_in_catalan_naming_the_parameter(capsys, argv, says):
    with pytest.raises(SystemExit) as stop:
        cli.main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert says in err and err.startswith("ús: ")


def test_help_is_in_catalan(capsys):
    for argv in (["--help"], ["atencio", "--help"], ["cost-i-memoria", "-h"]):
        with pytest.raises(SystemExit):
            cli.main(argv)
        out = capsys.readouterr().out
        assert out.startswith("ús: python -m chapter09") and "mostra aquesta ajuda i surt" in out
        assert not any(word in out for word in ("usage:", "options:", "show this help", "positional arguments"))
    with pytest.raises(SystemExit):
        cli.main(["cost-i-memoria", "--help"])
    assert "--L valor   longitud de la seqüència, en tokens (per defecte, 2.048)" in capsys.readouterr().out


@pytest.mark.parametrize(
    "text, kind, value",
    [
        ("0,05", float, 0.05),
        ("0.05", float, 0.05),
        ("1e-3", float, 0.001),
        ("2.048", int, 2048),
        ("131072", int, 131072),
        ("sí", bool, True),
        ("no", bool, False),
    ],
)
def test_numbers_are_read_as_a_catalan_reader_writes_them(text, kind, value):
    assert cli.number(text, kind) == value


def test_it_runs_as_a_module():
    result = subprocess.run(
        [sys.executable, "-m", "chapter09", "atencio", "--tau", "0,05"], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0 and "1,005" in result.stdout


def test_a_huge_count_of_codes_is_written_exactly(capsys):
    """2^(q·d) for d = 4096 is far beyond a float: written from the exact integer."""
    assert cli.main(["w3", "--d", "4096", "--V", "40", "--L", "8"]) == 0
    assert "1,42·10⁹⁸⁶⁴" in capsys.readouterr().out
