"""Bad input is refused by name: each parameter's bad reals, integers and arrays raise a ValueError
that begins with the parameter's name, and sizes past a few seconds of work are refused with their limit."""

import re

import numpy as np
import pytest

from chapter09 import attention as w4
from chapter09 import bottleneck as w3
from chapter09 import cost as w5
from chapter09 import fmt, gates
from chapter09 import linear_recurrence as lr
from chapter09 import lstm_gradient as w2
from chapter09 import rnn_gradient as w1
from chapter09 import rnn_gradient_seeds as w1_seeds

BAD_REALS = [float("nan"), float("inf"), -float("inf"), "1", None, True, [1.0], 1j]
BAD_INTS = [1.5, float("nan"), "3", None, True, -1, 10**30]

CALLS_REAL = {
    "w_scale": lambda v: w1.simulate(w_scale=v),
    "input_scale": lambda v: w1.simulate(input_scale=v),
    "forget": lambda v: w2.simulate(forget=v),
    "gate_scale": lambda v: w2.simulate(gate_scale=v),
    "temperature": lambda v: w4.attend(temperature=v),
    "slope": lambda v: w4.attend(slope=v),
    "x": lambda v: fmt.decimal(v),
    "share": lambda v: fmt.percent(v),
    "n_bytes": lambda v: fmt.si_bytes(v),
}
CALLS_INT = {
    "d": lambda v: w1.simulate(d=v),
    "T": lambda v: w1.simulate(T=v),
    "seed": lambda v: w1.simulate(seed=v),
    "q": lambda v: w3.bottleneck(q=v),
    "V": lambda v: w3.bottleneck(V=v),
    "L": lambda v: w5.ratio(v, 8),
    "top_k": lambda v: gates.gates(top_k=v),
    "channels": lambda v: gates.gates(channels=v),
    "n_seeds": lambda v: w1_seeds.robustness(n_seeds=v),
    "digits": lambda v: fmt.decimal(1.0, v),
    "layers": lambda v: w5.kv_cache_bytes(layers=v),
}


@pytest.mark.parametrize("name", sorted(CALLS_REAL))
@pytest.mark.parametrize("value", BAD_REALS, ids=repr)
def test_bad_reals_are_refused_by_name(name, value):
    with pytest.raises(ValueError, match=rf"^{name} must"):
        CALLS_REAL[name](value)


@pytest.mark.parametrize("name", sorted(CALLS_INT))
@pytest.mark.parametrize("value", BAD_INTS, ids=repr)
def test_bad_integers_are_refused_by_name(name, value):
    with pytest.raises(ValueError, match=rf"^{name} must"):
        CALLS_INT[name](value)


@pytest.mark.parametrize("value", [1.5, float("nan"), "3", None, True], ids=repr)
def test_integer_format_refuses_what_is_not_an_integer(value):
    with pytest.raises(ValueError, match="^n must be an integer"):
        fmt.integer(value)


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: w4.softmax(np.array([[1.0, np.nan]]), 1.0), "scores"),
        (lambda: w4.effective_span(np.array([[-0.5, 1.5]])), "alpha"),
        (lambda: w4.hull_excess(np.zeros((2, 3)), np.zeros((2, 4))), "context"),
        (lambda: gates.swiglu(np.array([0.0, 1.0]), np.array([1.0, 1.0])), "a"),
        (lambda: gates.reference(np.ones(3), np.ones(4)), "a and b"),
        (lambda: w5.solve_quadratic(0, 1, 1), "a"),
        (lambda: w3.encode(np.array([[0, 9]]), np.zeros((3, 2)), 4), "sentences"),
        (lambda: w1.draws([]), "seeds"),
        (lambda: w1.draws([0, -1]), "seed"),
        (lambda: w1.sweep(w1.INPUT_SCALE, [0], [float("nan")]), "scales"),
        (lambda: w2.simulate(pinned="yes"), "pinned"),
    ],
)
def test_bad_arrays_are_refused_by_name(call, name):
    with pytest.raises(ValueError, match=rf"^{name}"):
        call()


@pytest.mark.parametrize(
    "call, limit",
    [
        (lambda: w1_seeds.robustness(n_seeds=100_000), "500"),
        (lambda: w2.robustness(n_seeds=100_000), "2000"),
        (lambda: w4.robustness(n_seeds=100_000), "2000"),
        (lambda: gates.robustness(n_seeds=100_000), "2000"),
        (lambda: w1.draws(range(10**12)), "2000"),
        (lambda: w1.sweep(seeds=range(2000), T=2500), "750,000,000"),
        (lambda: w4.seed_dependence(n_seeds=2000, n=512, d=512), "10,000,000,000"),
        (lambda: w3.pigeonhole(d=4096, q=1, V=10, L=6), "20,000,000"),
    ],
)
def test_what_would_take_minutes_is_refused_with_its_limit(call, limit):
    """Sizes past a few seconds of work are refused at once, the message stating the limit."""
    with pytest.raises(ValueError, match=re.escape(limit)):
        call()


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: w1.gelfand_radius(np.eye(2000)), "A"),  # 40 squarings of 2000³: minutes
    ],
    ids=["gelfand"],
)
def test_work_of_more_than_a_few_seconds_is_refused_with_its_limit(call, name):
    """Arrays passed in directly meet the same bound as the sizes the widgets choose."""
    with pytest.raises(ValueError, match=rf"^{re.escape(name)} must keep .* at most [\d,]+ \(a few seconds of work\)"):
        call()


# --- issue 33 §6: what a function cannot mean is refused, not computed ----------------------------


@pytest.mark.parametrize(
    "field, value",
    [
        ("attention_layers", -1),
        ("kv_numbers", float("nan")),
        ("kv_numbers", -2048),
        ("bytes_per_number", 0),
        ("bytes_per_number", float("nan")),
        ("window", -4096),
        ("state_numbers", -1),
        ("state_numbers", float("nan")),
        ("state_layers", -36),
        ("attention_layers", 2.5),
        ("name", None),
        ("source", 7),
    ],
    ids=repr,
)
def test_a_memory_that_cannot_exist_is_refused_by_its_field(field, value):
    """A layer count, a number count or a byte width that is NaN, negative or fractional: no bytes to count
    (``cache_bytes`` returned NaN or negative bytes for one)."""
    fields = {"name": "m", "attention_layers": 32, "kv_numbers": 2048, "bytes_per_number": 2, "source": "k"}
    with pytest.raises(ValueError, match=rf"^{field} must"):
        lr.cache_bytes(lr.Memory(**{**fields, field: value}), 1000)


def test_a_state_needs_the_layers_that_keep_it():
    with pytest.raises(ValueError, match=r"^state_layers must"):
        lr.Memory("m", 32, 2048, 2, "k", state_numbers=1000, state_layers=0)


@pytest.mark.parametrize(
    "scales",
    [(2.0, 1.0), (0.5, 1.0, 1.0), tuple(reversed(w1.SWEEP_SCALES))],
    ids=["decreasing", "repeated", "the page's reversed"],
)
def test_sweep_refuses_scales_that_do_not_increase(scales):
    """``scales`` is read as increasing (``rnn_gradient_seeds.explosions`` finds where the slope crosses 0)."""
    with pytest.raises(ValueError, match=r"^scales must .*increasing"):
        w1.sweep(w1.INPUT_SCALE, (0,), scales)
