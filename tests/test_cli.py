"""``python -m chapter09 <figura> [--paràmetre valor …]``: the widget's strings, in Catalan."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from chapter09 import __main__ as cli
from chapter09.widgets import WIDGETS

PAGES = {w.name: w.page_module() for w in WIDGETS}
NO_FIGURE = str(max(int(re.match(r"\d+", w.number)[0]) for w in WIDGETS) + 1)  # the first number after the registry's


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
        (["w4", "--tau", "0,050"], ["  abast efectiu (mitjana)         1,005"]),
        (["rnn-lstm", "--pinned", "sí"], ["  factor del camí de la cel·la  0,9500"]),
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
        (["portes", "--top_k", "0"], "--top_k ha de ser un enter d’1 a 16; s’ha donat 0"),
        (["portes", "--top_k", "x"], "--top_k ha de ser un enter d’1 a 16; «x» no és un nombre enter"),
        (["rnn-lstm", "--pinned", "potser"], "--pinned ha de ser «sí» o «no»; s’ha donat «potser»"),
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
        (",5", float, 0.5),
        ("1e-3", float, 0.001),
        ("1,5e-3", float, 0.0015),
        ("\u22120,25", float, -0.25),
        ("1.000", float, 1000.0),
        ("2.048", float, 2048.0),
        ("131.072", float, 131072.0),
        ("1.000,5", float, 1000.5),
        ("\u22121.000", float, -1000.0),
        ("1000", float, 1000.0),
        ("2.048", int, 2048),
        ("131.072", int, 131072),
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


# --- issue 33 §6: the command reads what it writes, never shows a traceback, and every refusal says
# --- the allowed values without rounding the value it refuses


def refusal(capsys, argv) -> str:
    """The Catalan message of a refused command line (status 2, a usage line first, no traceback)."""
    with pytest.raises(SystemExit) as stop:
        cli.main(argv)
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err.startswith("ús: ") and "Traceback" not in err, err
    return err


def test_a_value_beyond_any_float_is_refused_without_a_traceback():
    result = subprocess.run(
        [sys.executable, "-m", "chapter09", "atencio", "--tau", "1e400"], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert "--tau ha de ser un nombre des de 0,001 fins a 1.000; «1e400» no cap en un nombre de coma flotant" in (
        result.stderr
    )


@pytest.mark.parametrize(
    "written, plain",
    [
        (["atencio", "--tau", "1.000"], ["atencio", "--tau", "1000"]),
        (["atencio", "--tau", "1.000,0"], ["atencio", "--tau", "1000"]),
        (["cost-i-memoria", "--L", "2.048"], ["cost-i-memoria", "--L", "2048"]),
        (["recurrencia-lineal", "--L", "131.072"], ["recurrencia-lineal", "--L", "131072"]),
    ],
)
def test_a_number_is_read_as_the_command_writes_it(capsys, written, plain):
    """The command writes a thousand «1.000» (in its titles and ranges): it reads «1.000» as a thousand."""
    assert cli.main(written) == 0
    out = capsys.readouterr().out
    assert cli.main(plain) == 0
    assert out == capsys.readouterr().out
    assert f"= {written[-1].removesuffix(',0')}" in out.splitlines()[0]  # the title shows it as typed


@pytest.mark.parametrize(
    "text",
    [
        "0.05",
        "1.5",
        "1.0000",
        "1.00",
        "0.500",
        "01.000",
        "1,000.5",
        "1.000.00",
        ".5",
        "1.000e3",
        "1.5e-3",
        "2.048,",
        "1,2,3",
    ],
)
def test_a_dot_that_does_not_group_thousands_is_refused_not_guessed(capsys, text):
    """A dot only groups thousands (1.000); «0.05» or «1.5» is not read as a decimal, in case «1.125» would be."""
    with pytest.raises(cli.Unreadable):
        cli.number(text, float)
    err = refusal(capsys, ["atencio", "--tau", text])
    assert f"--tau ha de ser un nombre des de 0,001 fins a 1.000; «{text}»" in err
    if "." in text:
        assert "la coma és la marca decimal" in err


@pytest.mark.parametrize(
    "argv, says",
    [
        (["atencio", "--tau", "abc"], "--tau ha de ser un nombre des de 0,001 fins a 1.000; «abc» no és un nombre"),
        (["atencio", "--tau", "nan"], "--tau ha de ser un nombre des de 0,001 fins a 1.000; «nan» no és un nombre"),
        (["atencio", "--tau", "inf"], "--tau ha de ser un nombre des de 0,001 fins a 1.000; «inf» no és un nombre"),
        (["portes", "--top_k", "3,5"], "--top_k ha de ser un enter d’1 a 16; «3,5» no és un nombre enter"),
        (["seq2seq", "--length", "1e3"], "--length ha de ser un enter de 4 a 20; «1e3» no és un nombre enter"),
        (["rnn-lstm", "--forget", "x"], "--forget ha de ser un nombre més gran que 0 i fins a 1; «x» no és un nombre"),
        (["rnn-lstm", "--pinned", "2"], "--pinned ha de ser «sí» o «no»; s’ha donat «2»"),
        (["portes", "--top_k"], "--top_k ha de ser un enter d’1 a 16; cal un valor"),
        (["atencio", "--tau", "-1e400"], "--tau ha de ser un nombre des de 0,001 fins a 1.000; «-1e400» no cap"),
        (["atencio", "--tau", "1e-400"], "--tau ha de ser un nombre des de 0,001 fins a 1.000; «1e-400» no cap"),
    ],
)
def test_every_refusal_says_the_allowed_values(capsys, argv, says):
    assert says in refusal(capsys, argv)


def test_a_figure_not_in_the_list_is_refused_with_the_list(capsys):
    err = refusal(capsys, [NO_FIGURE])
    assert f"opció no vàlida: '{NO_FIGURE}' (tria entre " in err
    assert all(f"'{w.name}'" in err and f"'{w.number}'" in err for w in WIDGETS)


@pytest.mark.parametrize(
    "argv, says",
    [
        (["atencio", "--tau", "0,0009999"], "s’ha donat 0,0009999"),
        (["atencio", "--tau", "1000,0000001"], "s’ha donat 1.000,0000001"),
        (["atencio", "--tau", "1.000,0000000002"], "s’ha donat 1.000,0000000002"),
        (["atencio", "--tau", "1e-300"], "s’ha donat 1·10⁻³⁰⁰"),
        (["atencio", "--tau", "-2,5e-7"], "s’ha donat −2,5·10⁻⁷"),
        (["atencio", "--tau", "1e300"], "s’ha donat 1·10³⁰⁰"),
        (["rnn-lstm", "--forget", "1,0000000001"], "s’ha donat 1,0000000001"),
        (["gradient-rnn", "--w_scale", "0,00999999"], "s’ha donat 0,00999999"),
    ],
)
def test_a_range_message_never_rounds_the_value_it_refuses(capsys, argv, says):
    """The refused value is written with every digit it was read with (its shortest repr, in Catalan)."""
    assert says in refusal(capsys, argv)


ODD = [
    "1e400",
    "-1e400",
    "1e-400",
    "nan",
    "inf",
    "abc",
    "",
    " ",
    "1.000",
    "1.5",
    "0.05",
    "3,5",
    "1.000,5",
    "0",
    "-0",
    "−1",
    "99999999999999999999999",
    "1" * 101,
    "sí",
    "1e3",
    "1,5e2",
]


@pytest.mark.parametrize("name", sorted(PAGES))
def test_no_value_of_any_option_ends_in_a_traceback(capsys, name):
    """Every option of every figure, given odd values: a readout, or a refusal that names the option and
    says its allowed values."""
    w = cli.widget(name)
    for option in w.options:
        for text in ODD:
            try:
                assert cli.main([name, f"--{option}", text]) == 0
                capsys.readouterr()
            except SystemExit as stop:
                err = capsys.readouterr().err
                assert stop.code == 2 and f"--{option} ha de ser " in err, (option, text, err)
                assert "Traceback" not in err


@pytest.mark.parametrize("name", sorted(PAGES))
def test_every_option_knows_its_allowed_values(name):
    """The refusals' «ha de ser …» comes from the widget's own validation, for every number option."""
    w = cli.widget(name)
    for option, (_, kind) in w.options.items():
        says = cli.allowed(w, option)
        from_ = r"un (enter (de |d’)|nombre (des (de |d’)|més gran que ))"
        assert re.fullmatch(from_ + r"\S+ (a|fins a|i fins a) \S+", says) or (kind is bool and says == "«sí» o «no»"), (
            option,
            says,
        )


@pytest.mark.parametrize("argv", [["atencio", "--tau", "0,0009999"], ["atencio", "--tau", "abc"]])
def test_a_refusal_shows_the_figure_s_own_usage(capsys, argv):
    """A value the figure refuses and one that does not parse end the same way: the figure's usage line."""
    said = refusal(capsys, argv)
    assert "ús: python -m chapter09 atencio" in said and "python -m chapter09 atencio: error:" in said
