"""A widget's readout in a terminal: ``python -m chapter09 <figura> [--paràmetre valor …]``.

The same strings as the widget on the page (each page module's ``reading``), for any
setting the widget's functions allow, not only the positions of its controls::

    $ python -m chapter09 atencio --tau 0,05      (or: 4, w4; 0.05)
    Els pesos de l’atenció (τ = 0,05)
      abast efectiu (mitjana)          1,005
      …

Everything the reader sees is in Catalan: the help (``--help``), the labels, and an
error that names the parameter and the values it may take.
"""

from __future__ import annotations

import argparse
import inspect
import re
import sys

from . import fmt, validate
from .validate import InvalidParameter
from .widgets import ALIASES, WIDGETS, Widget

# The command line is the interface; number(), widget(), report()… are its plumbing (number's
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


def number(text: str, kind: type):
    """A value as a Catalan reader writes it: ``0,05`` or ``0.05``; ``2.048`` or ``2048``; ``sí``/``no``.

    ``text`` is a str (of at most 100 characters), ``kind`` one of int, float and bool; a text that
    does not read as one raises :class:`Unreadable`, a ``ValueError`` with a Catalan message for the reader."""
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
        raise Unreadable(f"«{text}» no és «sí» ni «no»")
    if kind is int:
        if re.fullmatch(r"[+-]?\d{1,3}(\.\d{3})+", text):  # thousands written with dots
            text = text.replace(".", "")
        if re.fullmatch(r"[+-]?\d+", text):
            return int(text)
        raise Unreadable(f"«{text}» no és un nombre enter")
    if re.fullmatch(r"[+-]?(\d+([.,]\d*)?|[.,]\d+)([eE][+-]?\d+)?", text):
        return float(text.replace(",", "."))
    raise Unreadable(f"«{text}» no és un nombre")


def shown(value) -> str:
    """A value as the readout writes it."""
    if isinstance(value, bool):
        return "sí" if value else "no"
    if isinstance(value, int):
        return fmt.integer(value)
    return fmt.shortest(value)


def why(error: InvalidParameter, w: Widget) -> str:
    """What a parameter may be, in Catalan, from the widget's own validation."""
    lo, hi = shown(error.lo), shown(error.hi)
    if error.kind == "integer":
        allowed = f"un enter de {lo} a {hi}"
    else:
        start, end = ("més gran que", "i fins a") if error.lo_open else ("des de", "fins a")
        allowed = f"un nombre {start} {lo} {end} {hi}"
    value = error.value if isinstance(error.value, str) else shown(error.value)
    option = w.names.get(error.name, error.name)
    return f"--{option} ha de ser {allowed}; s’ha donat {value}"


class CatalanFormatter(argparse.RawDescriptionHelpFormatter):
    def add_usage(self, usage, actions, groups, prefix=None):
        super().add_usage(usage, actions, groups, "ús: " if prefix is None else prefix)


class Parser(argparse.ArgumentParser):
    def __init__(self, **kwargs):
        super().__init__(formatter_class=CatalanFormatter, add_help=False, **kwargs)
        self.add_argument_group("opcions").add_argument(
            "-h", "--help", action="help", help="mostra aquesta ajuda i surt"
        )

    def error(self, message: str):
        for english, catalan in MESSAGES.items():
            message = message.replace(english, catalan)
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
    for w in WIDGETS:
        defaults = inspect.signature(w.page_module().reading).parameters
        aliases = [w.number, f"w{w.number}"] + [a for a, target in ALIASES.items() if target == w.name]
        sub = figures.add_parser(
            w.name, aliases=aliases, help=f"figura {w.number}: {w.title}", description=f"Figura {w.number}: {w.title}."
        )
        group = sub.add_argument_group("paràmetres (sense cap, els valors per defecte de la pàgina)")
        for option, (text, kind) in w.options.items():
            default = defaults[option].default
            group.add_argument(
                f"--{option}",
                type=lambda s, k=kind: number(s, k),
                default=default,
                metavar="valor",
                help=f"{text} (per defecte, {shown(default)})",
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
    setting = ", ".join(f"{k} = {shown(v)}" for k, v in values.items())
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
    try:
        print(report(w, args))
    except InvalidParameter as error:
        p.error(why(error, w))
    except ValueError as error:  # a combination or a size the figure refuses: its own words
        p.error(f"aquests valors no es poden calcular ({error})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
