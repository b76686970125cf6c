"""Widget 8: the linear recurrence (scan equals loop, the work counted, the gradient identity
against finite differences), the tanh composition, every model constant, and the page."""

from pathlib import Path

import numpy as np
import pytest
from claim_cases import Book

from chapter09 import cost as w5
from chapter09 import fmt
from chapter09 import linear_recurrence as lr
from chapter09.pages import linear_recurrence as page
from chapter09.pages.linear_recurrence_claims import TANH_FAR  # W8.4's threshold

EPS = np.finfo(float).eps
NBSP = fmt.NBSP
MODELS = {m.name: m for m in lr.MODELS}


@pytest.fixture(scope="module")
def numbers():
    return page.readout().numbers


def number(text: str) -> float:
    return float(text.split(NBSP)[0].replace(".", "").replace(",", ".").replace(fmt.MINUS, "-"))


@pytest.mark.parametrize("L", [1, 2, 3, 7, 64, 1000, 1024])
@pytest.mark.parametrize("seed", [0, 1, 7])
def test_the_scan_equals_the_loop_within_a_unit_of_rounding_a_round(L, seed):
    a, b = lr.draw(L=L, d=5, seed=seed)
    h0 = np.linspace(-1, 1, 5)
    s, h = lr.scan(a, b, h0), lr.loop(a, b, h0)
    assert s.rounds == lr.work(L).scan_depth == int(np.ceil(np.log2(L)))
    assert s.combines == lr.work(L).scan_work == sum(L - 2**r for r in range(s.rounds))
    assert np.abs(s.h - h).max() <= max(s.rounds, 0) * EPS * np.abs(h).max()
    if L > 1:
        assert not np.array_equal(lr.scan(a, b).h, lr.loop(a, b, 1.0))  # h0 is used


def test_the_loop_is_the_recurrence_written_out():
    a, b = np.array([0.5, 0.25, 1.0]), np.array([1.0, 2.0, -1.0])
    assert lr.loop(a, b, 4.0)[:, 0].tolist() == [3.0, 2.75, 1.75]


def test_the_work_grows_as_l_log_l_and_the_depth_as_log_l():
    assert lr.work(1) == lr.Work(1, 1, 0, 0, 0, 0)
    for k in range(1, 30):
        w = lr.work(2**k)
        assert (w.scan_depth, w.scan_work) == (k, 2**k * k - 2**k + 1)
        assert w.scan_work > w.loop_work or k == 1
        assert (w.tree_depth, w.tree_work) == (2 * k - 1, 2 * 2**k - k - 2)  # Blelloch's: about 2 log L and 2L
        assert w.tree_work < 2 * w.loop_work and (w.tree_work < w.scan_work or k <= 2)


@pytest.mark.parametrize("L", [1, 2, 3, 5, 7, 8, 9, 64, 100, 1000, 1024, 1025])
def test_blellochs_scan_equals_the_loop_and_does_the_work_counted(L):
    a, b = lr.draw(L=L, d=5, seed=L)
    h0 = np.linspace(-1, 1, 5)
    t, h = lr.tree_scan(a, b, h0), lr.loop(a, b, h0)
    assert (t.rounds, t.combines) == (lr.work(L).tree_depth, lr.work(L).tree_work)
    assert t.rounds <= 2 * lr.work(L).scan_depth and t.combines <= 2 * L
    assert np.abs(t.h - h).max() <= max(t.rounds, 1) * 2 * lr.UNIT_ROUNDOFF * np.abs(h).max()


def test_the_gradient_is_the_product_of_the_gates_and_matches_finite_differences():
    a, b = lr.draw(L=20, d=3, seed=3)
    g = lr.gradient(a)
    assert np.array_equal(g[0], np.ones(3))
    assert np.allclose(g[1:], np.cumprod(a[::-1], axis=0), rtol=4 * 20 * EPS, atol=0)
    h = lr.loop(a, b)
    for k in (1, 5, 19):  # h_T as a function of h_{T−k}: run the last k steps from a perturbed state
        start, step = h[-k - 1], 1e-6
        plus = lr.loop(a[-k:], b[-k:], start + step)[-1]
        minus = lr.loop(a[-k:], b[-k:], start - step)[-1]
        assert np.allclose((plus - minus) / (2 * step), g[k], rtol=1e-8)


def test_the_slope_is_the_mean_of_ln_a_and_page_01s_gap_is_page_01s_string(numbers):
    from chapter09.pages import rnn_gradient as page01

    slope, mean_log = lr.measured_slope(0)
    assert abs(slope - mean_log) <= lr.STEPS * EPS * abs(mean_log)
    assert numbers["w8_slope"] == numbers["w8_mean_log_a"] == fmt.decimal(mean_log, 4)
    hand = page01.readout().numbers
    assert [numbers[f"w8_w1_{k}"] for k in ("pred", "meas", "rel_error")] == [
        hand["w1_pred"],
        hand["w1_meas"],
        hand["w1_rel_error"],
    ]


def test_two_affine_steps_are_one_and_two_tanh_steps_are_not():
    c = lr.compose(*lr.steps(0))
    assert c.affine <= 100 * EPS and c.tanh > TANH_FAR
    assert lr.compose(0.0, 1.0, 2.0, 0.5) == lr.Composition(0.0, 0.0)  # a constant first step
    small = lr.compose(1e-4, 0.0, 1.0, 0.0)  # tanh almost linear near 0: almost one step
    assert small.tanh < 1e-6


def test_every_model_constant_is_its_published_arithmetic():
    assert MODELS["OPT-13B"].per_token == 2 * 40 * 5120 * 2 == 819_200 == 800 * 1024  # vLLM's 800 KiB
    assert MODELS["Llama-3.1-8B"].per_token == 2 * 32 * 8 * 128 * 2 == 131_072
    assert MODELS["DeepSeek-V3"].per_token == 61 * (512 + 64) * 2 == 70_272
    mistral = MODELS["Mistral-7B-v0.1"]
    assert mistral.window == 4096 and mistral.per_token == 131_072
    assert lr.stacked_span(mistral) == 32 * 4096 == 131_072  # Jiang et al.: «approximately 131K tokens»
    assert lr.cache_bytes(mistral, 4096) == lr.cache_bytes(mistral, 131_072) == 512 * 2**20
    assert lr.cache_bytes(mistral, 4095) < 512 * 2**20
    qwen = MODELS["Qwen3-Next-80B-A3B"]
    assert qwen.attention_layers == 48 // 4 and qwen.kv_numbers == 2 * 2 * 256 and qwen.per_token == 24_576
    assert qwen.state_numbers == (48 - 12) * (32 * 128 * 128 + (4 - 1) * (2 * 16 * 128 + 32 * 128))
    assert qwen.layer_state_numbers == qwen.state_numbers // 36 and MODELS["Llama-3.1-8B"].layer_state_numbers == 0
    assert lr.crossover(qwen.layer_state_numbers, qwen.kv_numbers) == 536
    assert lr.cache_bytes(MODELS["Llama-3.1-8B"], 131_072) == 17_179_869_184
    assert {m.source for m in lr.MODELS} <= set(_bib_keys())


def _bib_keys():
    import re

    bib = (Path(__file__).parents[1] / "book" / "referencies.bib").read_text(encoding="utf-8")
    return re.findall(r"^@\w+\{(\w+),", bib, re.M)


def test_page_05s_toy_keeps_llamas_bytes_per_token(numbers):
    toy = w5.kv_cache_bytes(1, 1024, 16, 4)
    assert toy == MODELS["Llama-3.1-8B"].per_token == 131_072
    assert numbers["w8_toy_per_token"] == numbers["w8_llama_per_token"] == "131.072"
    assert numbers["w8_llama_long"] == f"17,18{NBSP}GB"


def test_printed_factors_steps_and_totals_agree(numbers):
    """Each printed (per-step amount, steps, total) recomputes from the printed strings."""
    L = number(numbers["w8_L"])
    assert abs(number(numbers["w8_slope"]) * L - number(numbers["w8_log_grad_T"])) <= 0.5e-4 * L + 0.05
    ex2 = number(numbers["w8_ex2_a"]) ** L
    assert fmt.power_of_ten(ex2, 1) == numbers["w8_ex2_grad"]
    assert abs(number(numbers["w8_ex2_slope"]) - np.log(number(numbers["w8_ex2_a"]))) <= 0.5e-4
    assert number(numbers["w8_combines"]) / number(numbers["w8_loop_work"]) == pytest.approx(
        number(numbers["w8_work_ratio"]), abs=0.05
    )
    assert number(numbers["w8_long_work"]) / number(numbers["w8_L_long"]) == pytest.approx(
        number(numbers["w8_long_ratio"]), abs=0.05
    )
    per_token, cross = number(numbers["w8_llama_per_token"]), number(numbers["w8_matrix_cross"])
    side, layers = number(numbers["w8_matrix_d"]), number(numbers["w8_matrix_layers"])
    assert per_token * cross == layers * side**2 * 2
    assert number(numbers["w8_qwen_kv_numbers"]) * number(numbers["w8_qwen_cross"]) == number(
        numbers["w8_qwen_layer_state"]
    )


def test_the_claims_hold_for_every_seed(numbers):
    r = page.readout()
    assert all(c.holds for c in r.claims) and len(r.claims) == 5
    for i in (1, 3, 4):
        assert numbers[f"w8_seeds_{i}"] == "200 de 200 llavors"


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: lr.loop([2.0], [1.0]), "a"),
        (lambda: lr.loop([0.5], [1e200]), "b"),
        (lambda: lr.scan([0.5, 0.5], [1.0]), "a and b"),
        (lambda: lr.scan([0.5], [1.0], [1.0, 2.0]), "h0"),
        (lambda: lr.work(0), "L"),
        (lambda: lr.compose(11.0, 0, 0, 0), "w1"),
        (lambda: lr.cache_bytes("Llama", 10), "model"),
        (lambda: lr.crossover(0, 1), "state_bytes"),
        (lambda: lr.draw(L=0), "L"),
        (lambda: page.reading(L=0), "L"),
        (lambda: page.reading(d=True), "d"),
    ],
)
def test_bad_parameters_are_refused_by_name(call, name):
    with pytest.raises(ValueError, match=f"^{name} must"):
        call()


def test_the_widget_labels_run_their_values_and_read_as_the_cli():
    spec = page.controls()
    lengths, sides = spec["controls"]
    assert lengths["labels"] == [fmt.integer(v) for v in page.LENGTHS]
    assert sides["labels"] == [fmt.integer(v) for v in page.SIDES]
    for i, L in enumerate(page.LENGTHS):
        for j, d in enumerate(page.SIDES):
            assert spec["states"][f"{i}-{j}"]["readout"] == page.reading(L, d)
    assert page.reading(1024, 4096)["cross"] == "8.192 tokens"


def test_the_page_talks_about_the_subject_and_marks_its_prose():
    source = (Path(__file__).parents[1] / "book" / "08-recurrencia-lineal.md").read_text(encoding="utf-8")
    assert source.count(":::{admonition} Com ho sabem\n:class: note dropdown") == 1
    assert "Són els" not in source and "en construir el llibre" not in source
    assert ":::{container} afegit\n**Prova-ho.**" in source
    prose = source.replace("codificador (*encoder*)", "").replace("book.widget(", "")
    assert "encoder" not in prose and "widget" not in prose and "readout" not in prose
    assert source.count("(*KV-cache*)") == 1
    assert source.count("Prediu-ho abans de calcular-ho") >= 1


# --- where its claims' checks must flip (tests/claim_cases.py; tests/test_claim_checks.py runs them) ---

# Just across a threshold, one number changed and the others left at the book's: the claim fails.
FAILS = [
    ("W8.1", dict(ulps=np.nextafter(10.0, np.inf), tolerance=10.0)),
    ("W8.2", dict(combines=9216)),
    ("W8.2", dict(rounds=11)),
    ("W8.2", dict(L=2, combines=1, rounds=1)),  # the count is right, but no more work than the loop's
    ("W8.3", dict(slope=Book("W8.3", "mean_log") * (1 + 2 * 1024 * 2.0**-52))),
    ("W8.4", dict(affine=101 * 2.0**-52)),
    ("W8.4", dict(tanh=0.01)),
    ("W8.5", dict(toy_per_token=131_071)),
    ("W8.5", dict(llama_long=131_072 * 131_071)),
]

# Just inside a threshold: the claim still holds (a check made stricter than the book says fails here).
HOLDS = [
    ("W8.1", dict(ulps=10.0, tolerance=10.0)),
    ("W8.3", dict(slope=Book("W8.3", "mean_log") * (1 + 0.5 * 1024 * 2.0**-52))),
    ("W8.4", dict(affine=100 * 2.0**-52, tanh=0.0101)),
]
