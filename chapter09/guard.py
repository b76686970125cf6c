"""A page's hang guard while the book is built: a budget of CPU seconds, not of wall time.

Each figure's page module says the CPU seconds its page's first execution needs on a quiet machine
(the ``cpu`` of its ``FIGURE``: trainings and numba's compiling included).  The build hands the
page's kernel its name and that need (``CHAPTER09_GUARD="04b-seq2seq 107"``, set by ``_ext/execution.py``
just before the page runs) and :func:`arm`, called by ``book.setup``, gives the kernel a budget of
:func:`seconds` of CPU from then on (``RLIMIT_CPU``).  Waiting costs no CPU: a kernel waiting for
another process's training (the store's lock) or for a core on a busy machine never comes nearer
its limit; a loop that computes for ever does.  Past the budget the system sends ``SIGXCPU`` and the
kernel raises :class:`GuardPassed`, whose message is the one line the build prints; the handler runs
when control is back in Python, so a compiled loop that never returns is killed at the hard limit,
twice the budget.  Without the variable (a downloaded notebook, the tests) nothing is armed.
"""

from __future__ import annotations

import math
import os
import resource
import signal

__all__ = ["GuardPassed", "arm", "message", "seconds", "variable"]

VARIABLE = "CHAPTER09_GUARD"  # «<docname> <CPU seconds its page needs>», for the page's kernel
MARGIN = 5  # the guard is this many times a page's measured need
FLOOR = 60.0  # s of CPU: a page that needs little gets this much (a machine's bad minute)


class GuardPassed(BaseException):
    """A page computed past its guard (a ``BaseException``: no ``except Exception`` swallows it)."""


def seconds(cpu: float) -> float:
    """The guard of a page that needs ``cpu`` seconds of CPU: ``MARGIN`` times it, ``FLOOR`` at least."""
    return max(FLOOR, MARGIN * cpu)


def message(docname: str, cpu: float) -> str:
    """The one line a page past its guard ends the build with."""
    return (
        f"{docname}: its computation passed its guard of {seconds(cpu):.0f} s of CPU ({MARGIN:g} × the {cpu:g} s "
        f"it needs, {FLOOR:.0f} s at least); a hang, or a machine slower than any measured: raise its "
        f"FIGURE's cpu in its page module (chapter09/pages)"
    )


def variable(docname: str, cpu: float) -> str:
    """The value of ``CHAPTER09_GUARD`` that arms page ``docname``'s kernel."""
    return f"{docname} {cpu:g}"


def arm(value: str | None = None) -> None:
    """Arm the guard that ``value`` (by default ``$CHAPTER09_GUARD``) names, once per process:
    from now on the process may use :func:`seconds` more of CPU, then :class:`GuardPassed` is
    raised; at twice that it is killed."""
    value = os.environ.get(VARIABLE) if value is None else value
    if not value or signal.getsignal(signal.SIGXCPU) is _passed:
        return
    global _line
    docname, need = value.rsplit(" ", 1)
    budget, used = seconds(float(need)), sum(resource.getrusage(resource.RUSAGE_SELF)[:2])  # user and system
    before = resource.getrlimit(resource.RLIMIT_CPU)[1]  # a hard limit set before (ulimit -t) stays
    hard = math.ceil(used + 2 * budget)  # whole seconds
    hard = hard if before == resource.RLIM_INFINITY else min(hard, before)
    _line = message(docname, float(need))
    signal.signal(signal.SIGXCPU, _passed)
    resource.setrlimit(resource.RLIMIT_CPU, (min(math.ceil(used + budget), hard), hard))


_line = ""  # the armed guard's message


def _passed(signum, frame) -> None:
    """SIGXCPU: raise once (the soft limit goes up to the hard one, so the signal does not repeat)."""
    resource.setrlimit(resource.RLIMIT_CPU, (resource.getrlimit(resource.RLIMIT_CPU)[1],) * 2)
    raise GuardPassed(_line)
