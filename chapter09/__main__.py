"""A widget's readout in a terminal: ``python -m chapter09 <figura> [--paràmetre valor …]``.

The same strings as the widget on the page (each page module's ``reading``), for any
setting the widget's functions allow, not only the positions of its controls::

    $ python -m chapter09 atencio --tau 0,05      (or: 4, w4)
    Els pesos de l’atenció (tau = 0,05)
      abast efectiu (mitjana)          1,005
      …

Everything the reader sees is in Catalan: the help (``--help``), the labels, and an
error that names the parameter and the values it may take.  Numbers are read as the
readout writes them: a comma is the decimal mark (``0,05``), a dot only groups thousands
(``1.000`` is a thousand, ``131.072``); a dot anywhere else (``0.05``, ``1.5``) is refused,
not guessed, since reading it as a decimal would make ``1.125`` mean two things.
"""

from __future__ import annotations

import argparse
import inspect
import math
import numbers
import re
import sys
from decimal import Decimal

from . import fmt, validate
from .validate import InvalidParameter
from .widgets import ALIASES, WIDGETS, Widget

# The command line is the interface; number(), exact(), widget(), report()… are its plumbing (number's
# refusals are the reader's Catalan words, for argparse to print).
__all__ = ["main"]


MESSAGES = {  # argparse's own messages, in Catalan
    "unrecognized arguments": "arguments desconeguts",
    "the following arguments are required": "falten aquests arguments",
    "invalid choice": "opció no vàlida",
    "expected one argument": "cal un valor",
    "argument ": "argument ",
    "choose from": "tria entre",
}


class Unreadable(argparse.ArgumentTypeError, ValueError):
    """A value the reader typed that is not a number (or not «sí»/«no»); argparse shows the Catalan message."""


GROUPED = r"[1-9]\d{0,2}(?:\.\d{3})+"  # thousands grouped by dots, as fmt.integer writes them: 131.072
INTEGER = re.compile(rf"[+-]?(?:{GROUPED}|\d+)")
REAL = re.compile(rf"[+-]?(?:{GROUPED}(?:,\d+)?|(?:\d+|\d*,\d+)(?:[eE][+-]?\d+)?)")  # 1.000,5; 0,05; 1,5e-3


def number(text: str, kind: type):
    """A value as the readout writes it: ``0,05``; ``2.048`` or ``2048``; ``1e-3``; ``sí``/``no``.

    A comma is the decimal mark and a dot only groups thousands (``1.000`` is a thousand): a dot
    anywhere else (``0.05``, ``1.5``, ``1.0000``) is refused, not read as a decimal, since then
    ``1.125`` could mean either.  ``text`` is a str (of at most 100 characters), ``kind`` one of int,
    float and bool; a text that does not read as one, or a float beyond float64 (``1e400``, ``1e-400``),
    raises :class:`Unreadable`, a ``ValueError`` with a Catalan message for the reader.

    >>> number("1.000", float), number("0,05", float), number("131.072", int), number("−1,5e-3", float)
    (1000.0, 0.05, 131072, -0.0015)
    """
    if kind not in (int, float, bool):
        raise validate.WrongType("kind", kind, "int, float or bool")
    text = validate.text("text", text).strip().replace(fmt.MINUS, "-")
    if len(text) > 100:
        raise Unreadable(f"«{text[:20]}…» és massa llarg")
    if kind is bool:
        if text.lower() in ("sí", "si", "s", "true", "1"):
            return True
        if text.lower() in ("no", "n", "false", "0"):
            return False
        raise Unreadable(f"s’ha donat «{text}»")
    pattern, what = (INTEGER, "un nombre enter") if kind is int else (REAL, "un nombre")
    if not pattern.fullmatch(text):
        if "." in text:
            raise Unreadable(
                f"«{text}» no es pot llegir: la coma és la marca decimal (0,05) i el punt només separa milers (1.000)"
            )
        raise Unreadable(f"«{text}» no és {what}")
    plain = text.replace(".", "").replace(",", ".")
    if kind is int:
        return int(plain)
    value = float(plain)
    if math.isinf(value) or (value == 0 and any(c in "123456789" for c in re.split("[eE]", plain)[0])):
        raise Unreadable(f"«{text}» no cap en un nombre de coma flotant (de 64 bits)")
    return value


def exact(value) -> str:
    """A number with every digit it was read with (a float's shortest repr), in Catalan: ``0,0009999``,
    ``1.000,0000001``, ``−2,5·10⁻⁷``; what a refusal shows, never rounded into the range it leaves.

    >>> exact(0.0009999), exact(1000.0), exact(-2.5e-7), exact(1e300), exact(131072)
    ('0,0009999', '1.000', '−2,5·10⁻⁷', '1·10³⁰⁰', '131.072')
    """
    if isinstance(value, bool):
        return "sí" if value else "no"
    if isinstance(value, numbers.Integral):
        return fmt.integer(value)
    x = float(value)
    if not math.isfinite(x):
        return "NaN" if math.isnan(x) else ("−∞" if x < 0 else "∞")
    digits = abs(Decimal(repr(x)))
    sign = fmt.MINUS if x < 0 else ""
    if x == 0 or -6 <= digits.adjusted() < 16:  # written out: 0,000001 … 9.999.999.999.999.999
        whole, _, decimals = f"{digits:f}".partition(".")
        return sign + fmt.integer(int(whole)) + ("," + decimals.rstrip("0") if decimals.rstrip("0") else "")
    whole, _, decimals = f"{digits.scaleb(-digits.adjusted()):f}".partition(".")
    mantissa = whole + ("," + decimals.rstrip("0") if decimals.rstrip("0") else "")
    return f"{sign}{mantissa}·10{str(digits.adjusted()).translate(fmt.SUPERSCRIPT)}"


def bounds(error: InvalidParameter) -> str:
    """The values a widget's validation allows, in Catalan, from its refusal: «un enter d’1 a 16» (the
    «de» elided before a vowel sound, as :func:`chapter09.fmt.de` says it)."""
    lo, hi = exact(error.lo), exact(error.hi)
    if error.kind == "integer":
        return f"un enter {fmt.de(lo)} a {hi}"
    start = f"més gran que {lo} i" if error.lo_open else f"des {fmt.de(lo)}"
    return f"un nombre {start} fins a {hi}"


def allowed(w: Widget, option: str) -> str:
    """What ``--option`` of ``w`` may be, in Catalan: the widget's own validation says it, asked with
    None (which every number parameter refuses, naming its range)."""
    kind = w.options[option][1]
    if kind is bool:
        return "«sí» o «no»"
    try:
        w.page_module().reading(**{option: None})
    except InvalidParameter as error:
        if w.names.get(error.name, error.name) == option:
            return bounds(error)
    return "un enter" if kind is int else "un nombre"  # a widget whose validation does not say (none today)


def why(error: InvalidParameter, w: Widget) -> str:
    """What a parameter may be, in Catalan, from the widget's own validation, and the value refused."""
    value = error.value if isinstance(error.value, str) else exact(error.value)
    option = w.names.get(error.name, error.name)
    return f"--{option} ha de ser {bounds(error)}; s’ha donat {value}"


class CatalanFormatter(argparse.RawDescriptionHelpFormatter):
    def add_usage(self, usage, actions, groups, prefix=None):
        super().add_usage(usage, actions, groups, "ús: " if prefix is None else prefix)


class Parser(argparse.ArgumentParser):
    widget: Widget | None = None  # a figure's subcommand: its options' refusals say their allowed values

    def __init__(self, **kwargs):
        super().__init__(formatter_class=CatalanFormatter, add_help=False, **kwargs)
        self._negative_number_matcher = re.compile(r"^-[\d.,]")  # «-2,5e-7» is a value, not an option
        self.add_argument_group("opcions").add_argument(
            "-h", "--help", action="help", help="mostra aquesta ajuda i surt"
        )

    def error(self, message: str):
        for english, catalan in MESSAGES.items():
            message = message.replace(english, catalan)
        found = re.fullmatch(r"argument --(\w+): (.*)", message, re.DOTALL)
        if found and self.widget is not None and found[1] in self.widget.options:
            message = f"--{found[1]} ha de ser {allowed(self.widget, found[1])}; {found[2]}"
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


def parser() -> Parser:
    """The command line: one subcommand per figure, its options from the registry."""
    main = Parser(
        prog="python -m chapter09",
        description="Escriu la lectura d’una figura del capítol 9 per a qualsevol valor dels seus "
        "paràmetres: els mateixos números que la pàgina, en format català.",
        epilog="Exemple: python -m chapter09 atencio --tau 0,05\n"
        "Ajuda d’una figura: python -m chapter09 atencio --help",
    )
    figures = main.add_subparsers(title="figures", dest="figure", metavar="figura", parser_class=Parser)
    figures.required = True
    main.figure_parsers = {}  # a figure's own parser: its refusals show its usage line
    for w in WIDGETS:
        defaults = inspect.signature(w.page_module().reading).parameters
        aliases = [w.number, f"w{w.number}"] + [a for a, target in ALIASES.items() if target == w.name]
        sub = figures.add_parser(
            w.name, aliases=aliases, help=f"figura {w.number}: {w.title}", description=f"Figura {w.number}: {w.title}."
        )
        sub.widget = w
        main.figure_parsers[w.name] = sub
        group = sub.add_argument_group("paràmetres (sense cap, els valors per defecte de la pàgina)")
        for option, (text, kind) in w.options.items():
            default = defaults[option].default
            group.add_argument(
                f"--{option}",
                type=lambda s, k=kind: number(s, k),
                default=default,
                metavar="valor",
                help=f"{text} (per defecte, {exact(default)})",
            )
    return main


def widget(name: str) -> Widget:
    """A widget by its command: the page's name, the figure's number, or ``w`` and the number."""
    name = ALIASES.get(validate.text("name", name), name)
    found = [w for w in WIDGETS if name in (w.name, w.number, f"w{w.number}")]
    if not found:
        raise ValueError(f"name must be a figure's command, number or w and number, got {name!r}")
    return found[0]


def report(w: Widget, values: dict) -> str:
    """The readout's lines: a title with the setting, then each label and its string."""
    module = w.page_module()
    readout = module.reading(**values)
    setting = ", ".join(f"{k} = {exact(v)}" for k, v in values.items())
    width = max(len(label) for label in module.LABELS.values())
    lines = [f"{w.title} ({setting})"]
    lines += [f"  {module.LABELS[key]:<{width}}  {text}" for key, text in readout.items()]
    return fmt.typographic("\n".join(lines))


def main(argv: list[str] | None = None) -> int:
    """The command line (``argv``: its arguments, a list of str; None: ``sys.argv[1:]``).  A bad
    argument ends it with status 2 and a message in Catalan, as a command line does."""
    if argv is not None and (not isinstance(argv, list) or not all(isinstance(a, str) for a in argv)):
        raise validate.WrongType("argv", argv, "a list of str or None")
    p = parser()
    args = vars(p.parse_args(argv))
    w = widget(args.pop("figure"))
    own = p.figure_parsers[w.name]
    try:
        print(report(w, args))
    except InvalidParameter as error:
        own.error(why(error, w))
    except ValueError as error:  # a combination or a size the figure refuses: its own words
        own.error(f"aquests valors no es poden calcular ({error})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
