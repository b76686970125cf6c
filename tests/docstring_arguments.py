"""Arguments drawn from a function's own numpydoc: each line ``name : type, range`` of its "Parameters"
section says what the parameter takes (``z : float, 0 … 1``, ``steps : int, 1 … 5000``,
``arm : str, "bottleneck", "reversed" or "attention"``, ``a : array_like of float, shape (n,), in [0, 1]``,
``seeds : iterable of int, 1 … 2000 of them, each 0 … 2**63 - 1``), and :func:`draw` makes from it a
value inside (a bound, the next integer, the middle, any), just outside (the next float beyond a bound,
a bound ± 1, a count too many), or of the wrong kind (NaN, ±inf, empty, None, text, bool, complex).

The grammar, read left to right on the type line (a parenthesis is a comment, ``with …`` and ``;``
start a condition the function checks itself):

- the kind: ``int``, ``float``, ``int or float``, ``bool``, ``str``, ``dict``, ``callable``, ``None``,
  ``array_like of float|int``, ``iterable of …`` / ``sequence of …``, or a class name (:data:`TYPES`
  says how to build one); ``float or array_like …`` and ``…, or None`` join kinds;
- a range ``LO … HI`` (Python expressions of the module's names and of the other parameters, ``−`` and
  ``·`` allowed), ``LO (excluded) … HI``, ``≥ LO``, ``below X in magnitude``, ``magnitude ≤ X``;
- choices: quoted strings (``"RNN", "GRU" or "LSTM"``, ``{"a", "b"}``) or ``A or B`` of expressions;
- for arrays: ``shape (m, d)`` (letters shared across the call's parameters, ``...`` for leading axes),
  ``shape (L,) or (L, d)``, ``shape like a``, ``1-D``, ``at least 1-D``, ``any shape``; each element's
  range ``each LO … HI`` or ``in [LO, HI]``; for iterables, how many ``LO … HI of them`` (or ``values``).
"""

from __future__ import annotations

import dataclasses
import inspect
import math
import re

import numpy as np
from hypothesis import strategies as st

NAN, INF = float("nan"), float("inf")

# Types of the package a parameter may be: how to build a small one (a new type needs one line here).
TYPES: dict[str, object] = {}  # name → strategy, filled by the test module (it knows the package)

WRONG = [NAN, INF, -INF, None, True, "1", "", 1j, [], {}, object(), np.array([]), [1, None]]


@dataclasses.dataclass
class Spec:
    """What one ``name : type …`` line says."""

    name: str
    line: str
    kinds: tuple[str, ...]  # int, float, real, bool, str, dict, callable, none, array, items, or a class name
    dtype: str = "float"  # of an array's or an iterable's elements
    lo: str | None = None
    hi: str | None = None
    lo_open: bool = False
    choices: tuple[str, ...] = ()  # expressions (quoted strings included)
    shapes: tuple[tuple[str, ...], ...] = ()  # alternatives; () any shape
    like: str | None = None  # shape like another parameter
    min_ndim: int = 0
    each_lo: str | None = None
    each_hi: str | None = None
    each_choices: tuple[str, ...] = ()
    count: tuple[str, str] | None = None
    allow: frozenset = frozenset()  # non-finite values a float or an array's elements may be
    floors: dict = dataclasses.field(default_factory=dict)  # a shape letter's least value (with K ≥ 2)


def parameters_lines(doc: str) -> dict[str, str]:
    """``{name: type line}`` of the numpydoc "Parameters" section (``a, b : float`` gives both)."""
    match = re.search(r"^Parameters\n-{3,}\n(.*?)(?=^\w[\w ]*\n-{3,}$|\Z)", doc, re.M | re.S)
    found = {}
    for line in (match.group(1) if match else "").splitlines():
        head = re.match(r"^(\w+(?:\s*,\s*\w+)*)\s+:\s*(.*)$", line)
        if head:
            for name in re.split(r"\s*,\s*", head.group(1)):
                found[name] = head.group(2).strip()
    return found


def _clean(text: str) -> str:
    return text.replace("−", "-").replace("·", "*").replace("²", "**2").replace("³", "**3").replace("^", "**")


def _drop_comments(text: str) -> str:
    """Without shapes and parenthesised comments (``(excluded)`` kept)."""
    text = re.sub(r"shape (\([^)]*\)(\s*or\s*)?)+", "shape ", text)
    return re.sub(r"\((?!excluded\))[^()]*\)", "", text)


RANGE = r"(-?[\w.*+/ -]+?)\s*(\(excluded\))?\s*…\s*(-?[\w.*+/ -]+?)"


def parse(name: str, line: str) -> Spec:
    """The :class:`Spec` of one type line; ``ValueError`` saying what is missing if it draws nothing."""
    text = _clean(line)
    body = _drop_comments(text)
    head = body.split(",")[0].strip()
    kinds = [k for k, pattern in KINDS if re.search(pattern, body if k == "array" else head)]
    kinds += [head] if re.match(r"^[A-Z]\w*$", head) else []
    if not kinds:
        raise ValueError(f"{name}: no kind read in {line!r} (int, float, bool, str, array_like, a class …)")
    spec = Spec(name, line, tuple(dict.fromkeys(kinds)))
    if re.search(r"\b(array_like|iterable|sequence) of int\b", body):
        spec.dtype = "int"
    elif re.search(r"\b(iterable|sequence) of str\b", body):
        spec.dtype = "str"
    if m := re.search(r"shape ((?:\([^)]*\)(?:\s*or\s*)?)+)", text):
        spec.shapes = tuple(
            tuple(d.strip() for d in alt.split(",") if d.strip()) for alt in re.findall(r"\(([^)]*)\)", m.group(1))
        )
    spec.floors = {k: int(v) for k, v in re.findall(r"with (\w) ≥ (\d+)", text)}
    spec.allow = frozenset({-INF} if re.search(r"-inf`*\s+allowed", text) else set()) | frozenset(
        {-INF, INF} if "±inf allowed" in text else set()
    )
    body = re.split(r"\bwith\b|;", body)[0]
    if m := re.search(r"shape like (\w+)", body):
        spec.like = m.group(1)
    if re.search(r"\b1-D\b", body):
        spec.min_ndim = 1
        if not re.search(r"at least 1-D", body):
            spec.shapes = spec.shapes or (("N",),)
    each = re.search(r"\beach\b(.*)$", body)
    quoted = tuple(re.findall(r'"[^"]*"', body))
    if quoted and each and '"' in each.group(1):
        spec.each_choices = quoted
    elif quoted:
        spec.choices = quoted
    if each and "…" in each.group(1):
        m = re.search(RANGE + r"\s*(?=,|$)", each.group(1).strip())
        spec.each_lo, spec.each_hi = m.group(1).strip(), m.group(3).strip()
        body = body[: each.start()] + each.group(1)[m.end() + 1 :]
    if m := re.search(r"\bin \[([^,\]]+),\s*([^\]]+)\]", body):
        spec.each_lo, spec.each_hi = m.group(1).strip(), m.group(2).strip()
    if m := re.search(r",\s*" + RANGE + r"\s+(?:of them|values)\b", body):
        spec.count = (m.group(1).strip(), m.group(3).strip())
        body = body[: m.start()] + body[m.end() :]
    if m := re.search(r"magnitude ≤ ([\w.+-]+)|below ([\w.+-]+) in magnitude", body):
        bound = m.group(1) or m.group(2)
        if "array" in spec.kinds:
            spec.each_lo, spec.each_hi = f"-{bound}", bound
        else:
            spec.lo, spec.hi = f"-{bound}", bound
    scalar = body if not {"array", "items"} & set(spec.kinds) else ""
    if m := re.search(r",\s*" + RANGE + r"\s*(?=,|$)", scalar):
        spec.lo, spec.lo_open, spec.hi = m.group(1).strip(), bool(m.group(2)), m.group(3).strip()
    elif m := re.search(r"≥\s*([\w.+-]+)", scalar):
        spec.lo = m.group(1)
    elif (m := re.search(r"^int,\s*([^,]+?\s+or\s+[^,]+?)\s*$", scalar)) and not spec.choices:
        spec.choices = tuple(c.strip() for c in re.split(r"\s+or\s+", m.group(1)))
    missing = _missing(spec)
    if missing:
        raise ValueError(f"{name}: {missing} in {line!r}")
    return spec


KINDS = [
    ("choice", r"^\{"),
    ("array", r"\barray_like\b"),
    ("items", r"^(iterable|sequence) of\b"),
    ("real", r"^int or float\b"),
    ("float", r"^float\b"),
    ("int", r"^int\b(?! or)"),
    ("bool", r"^bool\b"),
    ("str", r"^str\b"),
    ("dict", r"^dict\b"),
    ("callable", r"^callable\b"),
    ("none", r"\bor None\b"),
]


def _missing(spec: Spec) -> str:
    kinds = set(spec.kinds)
    if (kinds & {"int", "float"}) - {"float" if "array" in kinds else ""} and not (spec.hi or spec.choices):
        return "no range (LO … HI) or choices"
    if "choice" in kinds and not spec.choices:
        return "no choices"
    if "array" in kinds and not (spec.shapes or spec.like or spec.min_ndim or "any shape" in spec.line):
        return "no shape (shape (n, d), shape like a, 1-D, at least 1-D or any shape)"
    if "items" in kinds and spec.dtype in ("int", "float") and not spec.each_hi:
        return "no range for each item (each LO … HI)"
    if "items" in kinds and spec.dtype == "str" and not spec.each_choices:
        return "no choices for each item"
    for kind in kinds - {"int", "float", "real", "bool", "str", "dict", "callable", "none", "array", "items", "choice"}:
        if kind not in TYPES:
            return f"no way to build a {kind} (a line in docstring_arguments.TYPES)"
    return ""


# --- values -----------------------------------------------------------------------------------------


class Unreachable(Exception):
    """A range that names another parameter drawn wrong (``1 … heads`` with ``heads`` a text)."""


def value(expression: str, names: dict):
    """An expression of the docstring (``2**63 - 1``, ``TAU_MAX``, ``channels``, ``"RNN"``) in ``names``."""
    try:
        return eval(_clean(expression), {"__builtins__": {"len": len}}, names)
    except (TypeError, ValueError, OverflowError, AttributeError) as error:
        raise Unreachable(expression) from error


def int_value(expression: str, names: dict) -> int:
    try:
        return int(value(expression, names))
    except (TypeError, ValueError, OverflowError) as error:
        raise Unreachable(expression) from error


def float_value(expression: str, names: dict) -> float:
    try:
        return float(value(expression, names))
    except (TypeError, ValueError, OverflowError) as error:
        raise Unreachable(expression) from error


def _int_inside(lo: int, hi: int, cap) -> st.SearchStrategy:
    if hi < lo:  # a bound that is another parameter, drawn outside its own range
        raise Unreachable(f"{lo} … {hi}")
    if isinstance(cap, tuple):
        return st.sampled_from(cap)
    hi = min(hi, cap) if cap is not None else hi
    near = st.integers(lo, min(hi, lo + 3))  # most draws: cheap, the top of a range now and then
    top = (
        st.sampled_from([hi, (lo + hi) // 2])
        if hi - lo <= 10**6
        else st.sampled_from([hi, (lo + hi) // 2]) | st.integers(lo, hi)
    )
    return st.one_of(*[near] * 7, top)


def _float_inside(lo: float, hi: float, lo_open: bool) -> st.SearchStrategy:
    if hi < lo:
        raise Unreachable(f"{lo} … {hi}")
    first = math.nextafter(lo, INF) if lo_open else lo
    return st.one_of(st.sampled_from([first, hi, (lo + hi) / 2]), st.floats(first, hi))


def _dims(spec: Spec, shape: tuple[str, ...], letters: dict) -> tuple[int, ...]:
    dims = []
    for d in shape:
        if d == "...":
            dims += letters["..."]
        elif d.isdigit():
            dims.append(int(d))
        else:
            dims.append(letters[d])
    return tuple(dims)


def _elements(spec: Spec, names: dict) -> st.SearchStrategy:
    if -INF in spec.allow:
        return st.one_of(_finite_elements(spec, names), st.just(-INF))
    return _finite_elements(spec, names)


def _finite_elements(spec: Spec, names: dict) -> st.SearchStrategy:
    if spec.dtype == "int":
        lo = value(spec.each_lo, names) if spec.each_lo else -5
        hi = value(spec.each_hi, names) if spec.each_hi else 5
        return st.integers(lo, hi)
    lo = float_value(spec.each_lo, names) if spec.each_lo else -1e300
    hi = float_value(spec.each_hi, names) if spec.each_hi else 1e300
    small = st.floats(max(lo, -3.0), min(hi, 3.0)) if lo <= 3 and hi >= -3 else st.floats(lo, hi)
    return st.one_of(small, small, small, st.sampled_from([lo, hi, 0.0 if lo <= 0 <= hi else lo]))


@st.composite
def inside(draw, spec: Spec, names: dict, letters: dict, cap=None):
    """A value the line allows."""
    kind = draw(st.sampled_from(spec.kinds))
    if spec.choices:
        chosen = value(draw(st.sampled_from(spec.choices)), names)
        return chosen
    if kind == "int":
        if spec.name in letters:  # a parameter that is a shape's letter: the arrays' own
            return letters[spec.name]
        return draw(_int_inside(int_value(spec.lo, names), int_value(spec.hi, names), cap))
    if kind in ("float", "real") and spec.hi is not None:
        lo, hi = float_value(spec.lo, names), float_value(spec.hi, names)
        if kind == "real" and draw(st.booleans()):
            return draw(st.integers(math.ceil(lo), math.floor(hi)))
        return draw(_float_inside(lo, hi, spec.lo_open))
    if kind in ("float", "real"):
        lo = float_value(spec.lo, names) if spec.lo else -1.7e308
        finite = st.floats(lo, 1.7e308) | st.integers(int(lo) if lo > -1e18 else -(10**18), 10**18)
        if spec.allow & {INF, -INF}:
            return draw(finite | st.sampled_from(sorted(spec.allow & {INF, -INF})))
        return draw(finite)
    if kind == "bool":
        return draw(st.sampled_from(cap if isinstance(cap, tuple) else [True, False, np.bool_(True)]))
    if kind == "str":
        return draw(st.text(max_size=8))
    if kind == "dict":
        return draw(st.dictionaries(st.text(max_size=4), st.text(max_size=6), max_size=3))
    if kind == "callable":
        return draw(st.sampled_from([np.tanh, abs]))
    if kind == "none":
        return None
    if kind == "array":
        if spec.like:
            shape = np.shape(names[spec.like])
        elif spec.shapes:
            shape = _dims(spec, draw(st.sampled_from(spec.shapes)), letters)
        else:
            shape = tuple(draw(st.lists(st.integers(1, 3), min_size=max(spec.min_ndim, 0), max_size=2)))
        elements = _elements(spec, names)
        return np.array(
            draw(st.lists(elements, min_size=math.prod(shape), max_size=math.prod(shape))), dtype=spec.dtype
        ).reshape(shape)
    if kind == "items":
        lo, hi = (int_value(c, names) for c in spec.count) if spec.count else (1, 4)
        size = draw(st.integers(lo, min(hi, lo + (1 if cap else 3))))  # a capped function: fewer items too
        if spec.each_choices:
            item = st.sampled_from([value(c, names) for c in spec.each_choices])
        else:
            item = _int_inside(int_value(spec.each_lo, names), int_value(spec.each_hi, names), cap)
        return draw(st.lists(item, min_size=size, max_size=size))
    return draw(TYPES[kind])


@st.composite
def outside(draw, spec: Spec, names: dict, letters: dict):
    """A value the line refuses: just beyond a bound, a count too many, or of the wrong kind."""
    near = []
    if spec.hi is not None and "int" in spec.kinds:
        near += [int_value(spec.lo, names) - 1, int_value(spec.hi, names) + 1, float_value(spec.lo, names)]
    elif spec.hi is not None or spec.lo is not None:
        lo = float_value(spec.lo, names) if spec.lo else -INF
        hi = float_value(spec.hi, names) if spec.hi else INF
        near += [lo if spec.lo_open else math.nextafter(lo, -INF), math.nextafter(hi, INF)]
    if spec.choices:
        near += ["none of them", -1]
    if "array" in spec.kinds:
        a = np.asarray(draw(inside(spec, names, letters)), dtype=float)
        if a.size:
            bad = a.copy()
            bad.flat[draw(st.integers(0, a.size - 1))] = draw(
                st.sampled_from([NAN, INF, -INF, math.nextafter(float_value(spec.each_hi, names), INF)])
                if spec.each_hi
                else st.sampled_from([NAN, INF, -INF])
            )
            near += [bad, a[..., None], a.astype(complex), a.astype(str)]
        near += [np.zeros((0,) * max(a.ndim, 1))]
    if "items" in spec.kinds and spec.count:
        near += [range(int_value(spec.count[1], names) + 1), []]
    if "items" in spec.kinds and spec.each_hi:
        near += [[int_value(spec.each_hi, names) + 1], [int_value(spec.each_lo, names) - 1]]
    wrong = [w for w in WRONG if not ("none" in spec.kinds and w is None)]
    wrong = [w for w in wrong if not (isinstance(w, float) and w in spec.allow)]
    return draw(st.sampled_from(near + wrong) if near else st.sampled_from(wrong))


def specs(function) -> dict[str, Spec]:
    """Every parameter's :class:`Spec`; ``ValueError`` naming each one the docstring does not let draw."""
    lines = parameters_lines(inspect.getdoc(function) or "")
    found, missing = {}, []
    for name, parameter in inspect.signature(function).parameters.items():
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        if name not in lines:
            missing.append(f"{name}: no line «{name} : type, range» under Parameters")
            continue
        try:
            found[name] = parse(name, lines[name])
        except ValueError as error:
            missing.append(str(error))
    if missing:
        raise ValueError("; ".join(missing))
    return found


def shape_letters(found: dict[str, Spec]) -> dict[str, int]:
    """The least value of each shape letter (``with K ≥ 2``), 1 otherwise."""
    floors = {}
    for spec in found.values():
        for d in (d for shape in spec.shapes for d in shape if d != "..." and not d.isdigit()):
            floors[d] = max(floors.get(d, 1), spec.floors.get(d, 1))
    return floors


@st.composite
def arguments(draw, function, found: dict[str, Spec], namespace: dict, caps: dict, bad_share: float = 0.3):
    """Keyword arguments for ``function``: each valid (:func:`inside`) or, a ``bad_share`` of the time,
    not (:func:`outside`), or left out for its default now and then (never one that ``caps`` caps)."""
    letters = {k: draw(st.integers(floor, floor + 3)) for k, floor in shape_letters(found).items()}
    letters["..."] = tuple(draw(st.lists(st.integers(1, 2), max_size=2)))
    signature = inspect.signature(function).parameters
    defaults = {n: p.default for n, p in signature.items() if p.default is not inspect.Parameter.empty}
    names = dict(namespace) | defaults | letters
    kwargs, pending = {}, list(found.items())
    for _ in range(len(pending) + 1):  # a line may name another parameter: it is drawn first
        waiting = []
        for name, spec in pending:
            try:
                if draw(st.integers(0, 99)) < bad_share * 100:
                    if name in defaults and name not in caps and draw(st.integers(0, 3)) == 0:
                        continue  # the default (not a capped one's: the book's own, as costly as the top)
                    kwargs[name] = draw(outside(spec, names, letters))
                else:
                    kwargs[name] = draw(inside(spec, names, letters, caps.get(name)))
            except NameError:
                waiting.append((name, spec))
                continue
            except Unreachable:  # a range of another parameter drawn wrong: any wrong value
                kwargs[name] = draw(st.sampled_from(WRONG))
            names[name] = kwargs[name]
        pending = waiting
        if not pending:
            break
    assert not pending, f"{[n for n, _ in pending]}: a range names what is not there"
    return kwargs
