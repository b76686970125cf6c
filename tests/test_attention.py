"""Widget 4: a stable softmax, the convex hull, the effective span."""

from pathlib import Path

import numpy as np
import pytest
from claim_cases import TINY, Book, dip

from chapter09 import attention as w4
from chapter09 import fmt, portable, qkv_properties

TAUS = np.logspace(-3, 3, 25)


@pytest.mark.parametrize("tau", TAUS)
def test_softmax_is_finite_normalised_and_non_negative_over_the_whole_range(tau):
    scores = np.random.default_rng(1).standard_normal((9, 9)) * 50
    alpha = w4.softmax(scores, tau)
    assert np.all(np.isfinite(alpha)) and np.all(alpha >= 0)
    # rounding of n terms: a few ulps at most (the widget's own rows measure ≤ 2⁻⁵²)
    assert np.all(np.abs(alpha.sum(axis=1) - 1) <= scores.shape[1] * 2.0**-53)


def test_softmax_matches_the_naive_formula_where_that_is_safe():
    scores = np.random.default_rng(2).standard_normal((5, 7))
    naive = np.exp(scores / 2) / np.exp(scores / 2).sum(axis=1, keepdims=True)
    np.testing.assert_allclose(w4.softmax(scores, 2.0), naive, rtol=1e-14)


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("tau", [1e-3, 0.05, 1.0, 4.0, 1e3])
def test_context_stays_inside_the_hull(seed, tau):
    a = w4.attend(temperature=tau, seed=seed)
    assert a.hull_excess == 0.0
    assert np.all(a.context <= a.states.max(axis=0)) and np.all(a.context >= a.states.min(axis=0))


def test_span_limits():
    one_hot, uniform = np.eye(4), np.full((4, 4), 0.25)
    np.testing.assert_allclose(w4.effective_span(one_hot), 1.0)
    np.testing.assert_allclose(w4.effective_span(uniform), 4.0)
    np.testing.assert_allclose(w4.participation_ratio(uniform), 4.0)
    assert w4.attend(temperature=1e-3).span.max() == pytest.approx(1.0, abs=1e-12)
    assert w4.attend(temperature=1e3).span.min() == pytest.approx(7.0, abs=1e-4)


def test_span_grows_with_temperature_towards_n():
    _taus, spans = w4.mean_span_curve()
    assert np.all(np.diff(spans) >= -1e-12) and spans[0] >= 1.0 and spans[-1] <= 7.0


def test_text_temperatures():
    cold, warm = w4.attend(temperature=w4.COLD), w4.attend(temperature=w4.WARM)
    assert round(cold.span.mean()) == 1 and round(warm.span.mean()) == 7
    assert cold.copy_gap < 0.01 * cold.state_spacing < warm.copy_gap


def test_readout_is_immutable():
    a = w4.attend()
    assert not a.alpha.flags.writeable and not a.context.flags.writeable


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"temperature": 0.0}, "temperature"),
        ({"temperature": 1e-4}, "temperature"),
        ({"temperature": 1e4}, "temperature"),
        ({"temperature": float("nan")}, "temperature"),
        ({"n": 0}, "n"),
        ({"d": -1}, "d"),
        ({"seed": 0.5}, "seed"),
        ({"slope": 0.0}, "slope"),
    ],
)
def test_bad_parameters_raise_value_error_naming_them(kwargs, name):
    with pytest.raises(ValueError, match=rf"^{name} must be"):
        w4.attend(**kwargs)


def test_rows_do_not_depend_on_the_seed_and_split_into_exact_and_rounded():
    for tau in w4.TEXT_TEMPERATURES:
        np.testing.assert_array_equal(
            w4.attend(temperature=tau, seed=0).alpha, w4.attend(temperature=tau, seed=7).alpha
        )
    ulps = w4.row_sum_errors()
    values, counts = np.unique(ulps, return_counts=True)
    assert dict(zip(values.tolist(), counts.tolist())) == {0: 20, 1: 1, 2: 13, 3: 1} and len(ulps) == 5 * w4.N


def test_the_seeds_batch_is_the_seeds_one_by_one():
    """robustness() runs every seed in one forward pass; attend() runs one: the same numbers, bit for bit."""
    r = w4.robustness(30)
    cold = [w4.attend(temperature=w4.COLD, seed=s) for s in range(30)]
    warm = [w4.attend(temperature=w4.WARM, seed=s) for s in range(30)]
    assert r.copy_worst == max(a.copy_gap / a.state_spacing for a in cold)
    assert r.mean_worst == max(a.mean_gap / a.state_spacing for a in warm)
    assert r.hull_exact_zero == 1.0 and all(a.hull_excess == 0.0 for a in cold + warm)


def test_equal_states_put_the_context_outside_by_a_rounding():
    """In floating point the hull is not a theorem: with one state repeated, the context is the row sum."""
    excess, off = w4.constant_states(1.0)
    assert excess == 2.0**-52 and off == 2.0**-52
    assert w4.constant_states(1e-3) == (0.0, 0.0)  # one-hot rows sum to 1 exactly


def test_underflow_gives_exact_zeros_but_never_negatives():
    zeros, zeroed, kept, floor = w4.underflowed_weights(1e-3)
    a = w4.attend(temperature=1e-3)
    assert zeros == int((a.alpha == 0).sum()) == 30 and np.all(a.alpha >= 0)
    assert round(zeroed) == -800 < floor < round(kept) == -400
    assert np.exp(zeroed) == 0.0 and np.exp(kept) > 0


def test_exp_underflows_below_ln_of_half_the_smallest_float():
    """exp rounds to 0.0 below ln 2⁻¹⁰⁷⁵ ≈ −745,13, not below ln 2⁻¹⁰⁷⁴ ≈ −744,44 (issue 23, item 10):
    EXP_UNDERFLOW is the smallest float64 whose exp is not 0.0."""
    import math

    floor = w4.EXP_UNDERFLOW
    assert floor == pytest.approx(-1075 * math.log(2), abs=1e-12) and round(floor, 2) == -745.13
    for exp in (np.exp, portable.exp):  # numpy's and the book's
        assert exp(floor) == math.ulp(0.0) == 2.0**-1074  # rounds up to the smallest positive float
        assert exp(np.nextafter(floor, -np.inf)) == 0.0 and math.exp(np.nextafter(floor, -np.inf)) == 0.0
    ln_smallest = math.log(math.ulp(0.0))  # the threshold the page used to print: exp is far from 0 there
    assert ln_smallest == pytest.approx(-744.44, abs=0.005) and np.exp(np.nextafter(ln_smallest, -np.inf)) > 0
    assert np.exp(-745.0) > 0 and np.exp(-745.14) == 0.0
    assert w4.underflowed_weights()[3] == floor


def test_scaled_dot_product_is_a_temperature_and_depends_on_the_states():
    states = np.random.default_rng(3).standard_normal((5, 16))
    raw = states @ states.T
    np.testing.assert_allclose(w4.softmax(raw / np.sqrt(16), 1.0), w4.softmax(raw, 4.0), rtol=1e-12)
    s = w4.seed_dependence()
    assert s.monotone_spread == 0.0
    assert 1.0 < s.dot_span_min < s.dot_span_median < s.dot_span_max < w4.N
    assert abs(s.dot_std_raw - np.sqrt(w4.D)) < 0.1 * np.sqrt(w4.D) and abs(s.dot_std_scaled - 1) < 0.1


def test_exercise_answers():
    from chapter09.pages.attention import readout

    n = readout().numbers
    assert (n["w4_dk"], n["w4_tau_dk"]) == ("64", "8")
    assert n["w4_span_dk"] == "6,98" and w4.attend(temperature=8.0).span.mean() < w4.N
    underflow = (n["w4_zero_weights"], n["w4_zeroed_exp"], n["w4_kept_exp"], n["w4_exp_floor"])
    assert underflow == ("30", "−800", "−400", "−745,13") and n["w4_exp_floor_pow"] == "2⁻¹⁰⁷⁵"
    assert (n["w4_const_excess"], n["w4_const_sum"]) == ("2,22·10⁻¹⁶", "1 + 2⁻⁵²")


def test_the_prose_and_the_widget_print_each_number_alike():
    """One formatting per quantity: the widget at the text's temperatures shows the text's strings."""
    from chapter09.pages.attention import reading, readout

    n = readout().numbers
    for tau, key in ((w4.TEMPERATURE, ""), (w4.COLD, "_cold"), (w4.WARM, "_warm")):
        assert reading(tau)["span"] == n[f"w4_span{key}"]
    assert (reading(w4.COLD)["part"], reading(w4.WARM)["part"]) == (n["w4_part_cold"], n["w4_part_warm"])
    assert (reading(w4.COLD)["copy"], reading(w4.WARM)["copy"]) == (n["w4_copy_gap_cold"], n["w4_copy_gap_warm"])
    assert (reading()["minw"], reading()["hull"]) == (n["w4_min_weight"], n["w4_hull_excess"])
    assert reading(w4.WARM)["span"] == "6,91" and reading(w4.COLD)["span"] == "1,005"


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: w4.seed_dependence(0), "n_seeds"),
        (lambda: w4.seed_dependence(n=1), "n"),
        (lambda: w4.robustness(0), "n_seeds"),
        (lambda: w4.hull_excess(np.zeros((2, 3)), np.zeros((2, 4))), "context and states"),
        (lambda: w4.effective_span(np.array([[0.5, 0.6]])), "alpha"),
    ],
)
def test_public_functions_name_their_bad_parameters(call, name):
    with pytest.raises(ValueError, match=rf"^{name} must"):
        call()


def test_exercise_2_only_the_ratio_of_scores_to_temperature_matters():
    """A steeper alignment is a colder softmax; doubling both slope and τ gives back the same weights."""
    from chapter09.pages.attention import readout

    n = readout().numbers
    base, steep = w4.attend(), w4.attend(slope=2 * w4.SLOPE)
    cooler, scaled = w4.attend(temperature=0.5), w4.attend(temperature=2.0, slope=2 * w4.SLOPE)
    np.testing.assert_array_equal(steep.alpha, cooler.alpha)
    np.testing.assert_array_equal(scaled.alpha, base.alpha)
    assert steep.span.mean() < base.span.mean()
    assert (n["w4_ex_slope"], n["w4_ex_tau_cooler"], n["w4_ex_tau_scaled"]) == ("0,8", "0,5", "2")
    assert n["w4_ex_span_steep"] == n["w4_ex_span_cooler"] == fmt.span(steep.span.mean()) == "4,34"
    assert n["w4_ex_span_scaled"] == n["w4_span"] == "5,93"


def test_exercise_3_a_hot_softmax_hands_every_step_the_same_vector():
    from chapter09.pages.attention import readout

    n = readout().numbers
    hot, base = w4.attend(temperature=w4.TAU_MAX), w4.attend()
    spread = lambda c: np.linalg.norm(c[:, None] - c[None], axis=-1).max()  # noqa: E731
    assert spread(hot.context) < 0.001 * hot.state_spacing < spread(base.context)
    assert (n["w4_ex_context_spread_hot"], n["w4_ex_context_spread"]) == ("0,0017", "1,58")


def test_one_precision_per_quantity_in_the_figures_and_the_text_alternatives():
    """The spans the figures and their text alternatives print are the prose's strings (issue 23, item 4)."""
    from chapter09.pages.attention import readout

    n = readout().numbers
    for key in ("w4_span_cold", "w4_span_warm"):
        assert n[key] in n["w4_fig_span_alt"]
    assert (n["w4_span_cold"], n["w4_span_warm"]) == ("1,005", "6,91")
    assert "6,914" not in n["w4_fig_span_alt"] and "5,926" not in " ".join(n.values())


def test_the_page_keeps_floating_point_detail_in_one_collapsed_box():
    """Item 11: one «Com ho sabem» box, folded, and no «Comprovació» left; exercises about the ideas."""
    from pathlib import Path

    page = (Path(__file__).parents[1] / "book" / "04-atencio.md").read_text(encoding="utf-8")
    assert page.count(":::{admonition} Com ho sabem\n:class: note dropdown") == 1
    assert "{admonition} Comprovació" not in page
    box = page.split(":::{admonition} Com ho sabem")[1].split("\n:::\n")[0]
    assert "w4_exp_floor" in box and "w4_const_excess" in box and "w4_rows_exact" in box
    exercises = page.split("## Exercicis")[1]
    assert "Prediu" in exercises and "w4_zero_weights" not in exercises and "w4_const_sum" not in exercises
    assert "no negatius, no positius" not in page and "perilla" not in page


def test_the_transformers_attention_section_glues_what_qkv_computes():
    """«L'atenció del Transformer»: the exact zeros are 0,0, the differences with positions and without the
    mask are the demonstrations' own, and exercise 4's counts add up to the sentence."""
    from chapter09.pages.attention import readout

    n, e, m = readout().numbers, qkv_properties.equivariance(), qkv_properties.mask_test()
    assert (n["w4_perm_blind"], n["w4_perm_cross"], n["w4_mask_before"]) == ("0,0", "0,0", "0,0")
    assert n["w4_perm_pos"] == fmt.decimal(e.with_positions, 2) and n["w4_nomask_before"] == fmt.decimal(
        m.unmasked_before, 2
    )
    assert (n["w4_one_weights"], n["w4_two_weights_1"], n["w4_pair1_one"]) == ("(0,5; 0,5; 0)", "(1; 0; 0)", "4")
    kept, moved = int(n["w4_ex_mask_kept"]), int(n["w4_ex_mask_moved"])
    assert kept == int(n["w4_ex_mask_pos"]) - 1 and kept + moved == w4.N and n["w4_ex_nomask_kept"] == "0"


def test_the_code_cell_prints_what_the_prose_glues():
    """«Amb codi» builds the layer by hand; the page glues multi_head's numbers: the same bits."""
    from chapter09 import qkv
    from chapter09.pages.attention import readout

    n = readout().numbers
    x, layer = qkv.tokens(seed=1) + qkv.sinusoidal_positions(), qkv.random_layer(seed=0)
    q, k, v = (qkv.project(x, w) for w in (layer.w_q, layer.w_k, layer.w_v))
    heads = [qkv.attention(*(qkv.head(a, i, 2) for a in (q, k, v)), causal=True) for i in range(2)]
    out = qkv.project(np.hstack([h.output for h in heads]), layer.w_o)
    assert np.array_equal(out, qkv.multi_head(x, layer, causal=True).output)
    assert n["w4_code_row"] == "; ".join(fmt.decimal(a, 2) for a in heads[0].weights[-1])
    assert n["w4_code_out"] == "; ".join(fmt.decimal(y, 2) for y in out[-1, :3])
    source = (Path(__file__).parents[1] / "book" / "04-atencio.md").read_text(encoding="utf-8")
    assert "qkv.tokens(length=7, d=8, seed=1)" in source and (w4.N, w4.D, qkv.HEADS) == (7, 8, 2)


# --- where its claims' checks must flip (tests/claim_cases.py; tests/test_claim_checks.py runs them) ---
SPACING = Book("W4.4", "spacing")
CURVE = Book("W4.5", "span_curve")
SCALE = Book("W4.7", "scale")
SWAPPED = tuple((b, a) for a, b in qkv_properties.PAIRS)
OTHER = ((2.0, 6.0), (6.0, 2.0), (4.0, 6.0))  # a pair of another mean: one head would tell it apart

# Just across a threshold, one number changed and the others left at the book's: the claim fails.
FAILS = [
    ("W4.1", dict(max_ulp=5)),
    ("W4.1", dict(min_weight=-TINY)),
    ("W4.2", dict(hull_excess=TINY)),
    ("W4.3", dict(hull_excess=TINY)),
    ("W4.3", dict(hull_excess=-TINY)),
    ("W4.4", dict(span=1.5)),
    ("W4.4", dict(span=0.49)),
    ("W4.4", dict(copy_gap=w4.COPY_TOL * SPACING)),
    ("W4.4", dict(copy_gap=1.5 * w4.COPY_TOL * SPACING)),
    ("W4.5", dict(span=6.49)),
    ("W4.5", dict(n_words=8)),
    ("W4.5", dict(span_curve=CURVE.apply(lambda c: dip(c, 2e-12), "dip 2e-12"))),
    ("W4.5", dict(mean_gap=w4.MEAN_TOL * SPACING)),
    ("W4.5", dict(mean_gap=1.5 * w4.MEAN_TOL * SPACING)),
    ("W4.6", dict(blind=TINY)),
    ("W4.6", dict(cross_blind=-TINY)),
    ("W4.7", dict(with_positions=qkv_properties.CLEAR * SCALE)),
    ("W4.7", dict(cross_with_positions=0.5 * qkv_properties.CLEAR * SCALE)),
    ("W4.7", dict(scale=Book("W4.7", "with_positions") * (1 / qkv_properties.CLEAR))),
    ("W4.8", dict(one_heads=(4.0, 4.0, np.nextafter(4.0, 5.0)))),
    ("W4.8", dict(one_heads=(4.0, 4.0, 5.0), pairs=OTHER, two_heads=OTHER)),
    ("W4.8", dict(two_heads=SWAPPED)),
    ("W4.9", dict(masked_before=TINY)),
    ("W4.10", dict(unmasked_before=qkv_properties.CLEAR * Book("W4.10", "scale"))),
    ("W4.10", dict(unmasked_before=0.0)),
]

# Just inside a threshold: the claim still holds (a check made stricter than the book says fails here).
HOLDS = [
    ("W4.1", dict(max_ulp=4)),
    ("W4.1", dict(min_weight=0.0)),
    ("W4.2", dict(hull_excess=-1.0)),
    ("W4.4", dict(span=1.49)),
    ("W4.5", dict(span_curve=CURVE.apply(lambda c: dip(c, 0.5e-12), "dip 0,5e-12"))),
    ("W4.6", dict(blind=-0.0, cross_blind=-0.0)),
    ("W4.7", dict(with_positions=np.nextafter(qkv_properties.CLEAR * 2.0, 1.0), scale=2.0)),
    ("W4.8", dict(pairs=((1.0, 7.0), (7.0, 1.0), (4.0, 4.0)), two_heads=((1.0, 7.0), (7.0, 1.0), (4.0, 4.0)))),
    ("W4.9", dict(masked_before=-0.0)),
    ("W4.10", dict(unmasked_before=np.nextafter(qkv_properties.CLEAR * 2.0, 1.0), scale=2.0)),
]
