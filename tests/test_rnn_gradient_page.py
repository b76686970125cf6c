"""Page 01's numbers, widget and figures: the exercises' answers, one threshold per verdict word, the
labels that are their values, the printed (slope, steps, factor) triples, and the prose."""

import re

import numpy as np
import pytest

from chapter09 import fmt, spectral
from chapter09 import rnn_gradient as w1
from chapter09.pages import rnn_gradient as page
from chapter09.rnn_gradient_seeds import explosions, robustness


def test_exercise_answers():
    n, seed = page.readout().numbers, w1.page_seed()
    # 1: W_hh = 0,99·I, no input: every step multiplies by 0,99; the bound is below 1, yet it "es manté"
    slope = w1.constant_gradient_slope(0.99)
    assert -w1.threshold() < slope < 0 and w1.verdict(slope) == "es manté"
    assert 0.99 > w1.vanishing_guarantee() == pytest.approx(10 ** (-1 / 40), rel=1e-15)
    assert (n["w1_ex_c"], n["w1_ex_slope"], n["w1_ex_growth"], n["w1_ex_verdict"]) == (
        "0,99",
        "−0,010",
        "0,67",
        "es manté",
    )
    assert fmt.decimal(0.99**40) == n["w1_ex_growth"] and n["w1_guarantee"] == "0,944"
    # 2: ln 10 / 40 per step; the exploding case's fitted line grows ×5,0·10³
    assert (n["w1_threshold"], n["w1_small_growth"]) == ("0,058", "5,0·10³")
    # 3: the bound guarantees vanishing below 10^(−1/40)/‖W0‖₂, where ρ is still well below 1
    W0 = w1.draw(seed=seed).W0
    safe = w1.vanishing_guarantee() / np.linalg.svd(W0, compute_uv=False)[0]
    assert safe * max(abs(np.linalg.eigvals(W0))) < 1 < w1.W_SCALE * np.linalg.svd(W0, compute_uv=False)[0]
    assert (n["w1_safe_scale"], n["w1_safe_rho"], n["w1_seed_rho_one_scale"]) == ("0,55", "0,48", "1,15")
    # its statement prints ‖W0‖₂ and ρ(W0): the answers follow from them as printed
    norm0, rho0 = np.linalg.svd(W0, compute_uv=False)[0], max(abs(np.linalg.eigvals(W0)))
    assert (n["w1_w0_norm"], n["w1_w0_rho"]) == (fmt.decimal(norm0), fmt.decimal(rho0)) == ("1,71", "0,87")
    printed = {k: number(n[k]) for k in ("w1_guarantee", "w1_w0_norm", "w1_w0_rho")}
    safe_printed = printed["w1_guarantee"] / printed["w1_w0_norm"]
    assert n["w1_safe_scale"] == fmt.decimal(safe_printed)
    assert n["w1_safe_rho"] == fmt.decimal(number(n["w1_safe_scale"]) * printed["w1_w0_rho"])
    assert n["w1_seed_rho_one_scale"] == fmt.decimal(1 / printed["w1_w0_rho"])
    assert n["w1_no_growth_scale"] == fmt.decimal(1 / printed["w1_w0_norm"]) == fmt.decimal(1 / norm0)
    # the bound at the default scale, as a factor, is above 1: it guarantees nothing there
    assert number(n["w1_bound_factor"]) > 1 and n["w1_bound_factor"] == fmt.decimal(np.exp(number(n["w1_bound"])))
    for x in (0.0, 1.0, 10.0):  # below the guaranteed scale it vanishes whatever the input
        r = w1.simulate(w_scale=safe * 0.999, input_scale=x, seed=seed)
        assert r.bound_slope < -w1.threshold() and r.vanishes


def test_new_numbers_of_the_page():
    n = page.readout().numbers
    assert n["w1_bound_share"] == "100\xa0%"
    assert (n["w1_verdict_missed_small"], n["w1_verdict_missed_sat"], n["w1_verdict_missed_default"]) == (
        "24,5\xa0%",
        "20,5\xa0%",
        "0\xa0%",
    )
    assert (n["w1_return_rho"], n["w1_return_share"], n["w1_return_median"]) == ("2,03", "78,5\xa0%", "2,15")
    assert (n["w1_small_share"], n["w1_author_small_share"], n["w1_narrative_share"]) == (
        "75,5\xa0%",
        "26,5\xa0%",
        "59,5\xa0%",
    )
    assert (n["w1_seed_flip_rho_small"], n["w1_flip_soon_small"]) == ("1,06", "100\xa0%")


def test_the_widget_shows_what_the_command_line_and_the_prose_show():
    """Every state of the widget is reading() at its position; the default state is the prose's."""
    spec, n = page.controls(), page.readout().numbers
    (w_values, x_values), labels = ([c[k] for c in spec["controls"]] for k in ("values", "labels"))
    for i, j in ((7, 4), (19, 4), (19, 0), (39, 1), (0, 2), (18, 0), (20, 0)):
        assert spec["states"][f"{i}-{j}"]["readout"] == page.reading(w_values[i], x_values[j])
    assert (w_values[7], x_values[4]) == (w1.W_SCALE, w1.INPUT_SCALE)
    assert spec["states"]["7-4"]["readout"] == {k: n["w1_" + ("mean_tp" if k == "tp" else k)] for k in page.LABELS}
    assert spec["states"]["19-0"]["readout"] == {
        k: n["w1_small_" + ("mean_tp" if k == "tp" else k)] for k in page.LABELS
    }
    assert (labels[0][7], labels[0][19], labels[1][0]) == (n["w1_w_scale"], n["w1_sat_w"], n["w1_small_x"])


# --- one threshold per verdict word, labels that are their values, triples that agree -----------


def number(text: str) -> float:
    """A Catalan number as the page prints it (−0,913, 1.234,5, 5,0·10³) read back."""
    text = text.replace("\xa0", "").replace("−", "-").replace(".", "").replace(",", ".")
    if "·10" in text:
        mantissa, exponent = text.split("·10")
        return float(mantissa) * 10.0 ** int(exponent.translate(str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")))
    return float(text)


def decimals(text: str) -> int:
    """Decimals of a printed number (of its mantissa)."""
    mantissa = text.split("·10")[0]
    return len(mantissa.split(",")[1]) if "," in mantissa else 0


def test_one_threshold_per_verdict_word():
    """«explota», «es manté» and «s'esvaeix»: the verdict, the readout's flags, the sweep's onsets, the
    figure's band, the widget's states and the claims all read the slope against w1.threshold."""
    th = w1.threshold(w1.T)
    assert th == np.log(w1.EXPLODE_FACTOR) / w1.T
    above, below = np.nextafter(th, 1), np.nextafter(-th, -1)
    assert [w1.verdict(v) for v in (above, th, 0.0, -th, below)] == [
        "explota",
        "es manté",
        "es manté",
        "es manté",
        "s’esvaeix",
    ]
    sw = w1.sweep(w1.SMALL_INPUT[1], tuple(range(20)))
    words = w1.verdict(sw.measured_slope)
    np.testing.assert_array_equal(sw.explodes, words == "explota")
    np.testing.assert_array_equal(sw.vanishes, words == "s’esvaeix")
    start, _ = explosions(sw)  # where the slope first passes the same threshold
    for k in range(20):
        first = np.flatnonzero(sw.explodes[k])[0]
        assert sw.spectral_radius[k, first - 1] <= start[k] <= sw.spectral_radius[k, first]
    band = page.figures()["w1_fig_sweep"].axes[0].patches[0]  # the grey band of "es manté"
    assert (band.get_y(), band.get_y() + band.get_height()) == pytest.approx((-th, th), rel=1e-12)
    spec = page.controls()
    for key, state in spec["states"].items():
        i, j = map(int, key.split("-"))
        slope = number(state["readout"]["meas"])
        w_scale, input_scale = spec["controls"][0]["values"][i], spec["controls"][1]["values"][j]
        r = w1.simulate(w_scale=w_scale, input_scale=input_scale, seed=w1.page_seed())
        assert state["readout"]["verdict"] == w1.verdict(r.measured_slope) == fmt.typographic(r.verdict)
        assert abs(slope - r.measured_slope) <= 0.5e-3 + 1e-12
    rob, n = robustness(), page.readout().numbers
    assert n["w1_threshold"] == fmt.decimal(th, 3)
    assert rob.small_input_explodes == np.mean(w1.sweep(w1.SMALL_INPUT[1], tuple(range(rob.n_seeds)), (2.0,)).explodes)


def test_every_control_label_is_the_value_it_runs():
    for c in page.controls()["controls"]:
        assert len(c["labels"]) == len(c["values"]) == len(set(c["labels"]))
        for label, value in zip(c["labels"], c["values"]):
            assert number(label) == pytest.approx(value, rel=1e-12, abs=0), (c["name"], label, value)
    assert "0,25" in page.controls()["controls"][1]["labels"]


def test_printed_slopes_steps_and_factors_agree():
    """Every (slope per step, T, factor) the page prints side by side: the factor is exp(T·slope)
    for a slope within half a unit of the printed slope's last digit, to the factor's own precision."""
    n = page.readout().numbers
    T = int(n["w1_T"])
    triples = [
        (n["w1_meas"], n["w1_growth"]),
        (n["w1_sat_meas"], n["w1_sat_growth"]),
        (n["w1_small_meas"], n["w1_small_growth"]),
        (n["w1_ex_slope"], n["w1_ex_growth"]),
        (n["w1_threshold"], n["w1_explode_factor"]),
    ]
    for slope, factor in triples:
        s, h = number(slope), 0.5 * 10.0 ** -decimals(slope)
        f = number(factor)
        ulp = 0.5 * 10.0 ** -decimals(factor) * (f / float(factor.split("·10")[0].replace(",", ".")))
        assert np.exp(T * (s - h)) - ulp <= f <= np.exp(T * (s + h)) + ulp, (slope, factor)
    alts = n["w1_fig_default_alt"] + n["w1_fig_settings_alt"]
    for prefix in ("w1_", "w1_sat_", "w1_small_"):  # the alt texts print the fitted line's factor
        assert n[prefix + "growth"] in alts
    assert f"pendent {n['w1_meas']} per pas, es multiplica per {n['w1_growth']} en {n['w1_T']} passos" in alts
    assert re.search(r"es multiplica per [^ ]+ en 40 passos", n["w1_fig_default_alt"])


def test_the_printed_gap_to_the_eigenvalue_does_not_depend_on_the_reference_s_last_bits():
    r = w1.simulate(seed=w1.page_seed())
    gap = abs(r.spectral_radius - spectral.eigen_radius(r.W_hh)) / spectral.eigen_radius(r.W_hh)
    for nudge in (1 - 2e-16, 1 + 2e-16):  # the printed gap does not depend on the reference's last bits
        assert fmt.power_of_ten(gap * nudge, 1) == page.readout().numbers["w1_rho_gap"]


def page_prose() -> str:
    """Page 01 as a reader reads it: the Markdown without its code cells."""
    from conftest import BOOK

    source = (BOOK / "01-gradient-rnn.md").read_text(encoding="utf-8")
    return re.sub(r"```\{code-cell\}.*?```", "", source, flags=re.S)


def test_the_exploding_case_is_defined_before_it_is_named():
    prose = page_prose()
    assert prose.index("*el cas que explota*") <= prose.index("cas que explota") + 1


def test_seed_statistics_live_in_one_collapsed_box():
    prose = page_prose()
    assert prose.count(":::{admonition} Com ho sabem\n:class: note dropdown") == 1
    assert "{admonition} Comprovació" not in prose
    assert prose.lower().count("llavor") <= 3


def test_one_name_per_quantity_for_pascanu_s_bound():
    """«fita de Pascanu» is the factor γ = ‖W_hh‖₂·max tanh′; its logarithm, a slope per step, is «pendent
    de la fita»: the table, the widget and the prose never print a slope under the factor's name."""
    assert page.LABELS["bound"] == "pendent de la fita"
    assert page.readout().table("readout")[0][6] == "pendent de la fita"
    prose = page_prose()
    for key in ("w1_bound", "w1_sat_bound", "w1_small_bound"):  # the slopes ln γ
        for m in re.finditer(r"\{glue:text\}`%s`" % key, prose):
            before = " ".join(prose[max(0, m.start() - 80) : m.start()].split())
            assert "pendent" in before.split("fita")[-1] or "pendent de la fita" in before, before
    assert "$\\gamma$ = {glue:text}`w1_bound_factor`" in prose
