"""Widget 4b's page: the trained models' numbers as the page prints them, its exercises, its
widget and its refusals, what its curves say, and where its module makes each number.  The page's own
sweep (every arm, length and seed) is trained once for the module, in the worker that runs the
registry's tests too (see conftest)."""

import ast
import re
from pathlib import Path

import numpy as np
import pytest

from chapter09 import attention as w4
from chapter09 import fmt
from chapter09.pages import seq2seq as page
from chapter09.seq2seq import curves
from chapter09.seq2seq import sweep as sw
from chapter09.seq2seq import training as s2s
from chapter09.seq2seq.task import V

NBSP = fmt.NBSP
PAGE = Path(__file__).parents[1] / "book" / "04b-seq2seq.md"

pytestmark = pytest.mark.registry


@pytest.fixture(scope="module")
def numbers():
    return page.readout().numbers


def test_the_three_models_keep_their_order_at_the_longest_length_for_every_seed():
    acc = sw.page_sweep().accuracy[:, -1]  # (arms, seeds) at the longest length
    attention, reversed_, bottleneck = (acc[s2s.ARMS.index(a)] for a in ("attention", "reversed", "bottleneck"))
    assert (attention > reversed_).all() and (reversed_ > bottleneck).all() and (bottleneck > 1 / V).all()


def test_every_seeds_accuracy_is_in_the_table_as_the_prose_prints_it(numbers):
    header, rows = page.readout().table("seeds")
    assert header[2:] == [f"L = {n}" for n in s2s.LENGTHS] and len(rows) == len(s2s.ARMS) * len(s2s.SEEDS)
    acc = sw.page_sweep().accuracy
    for a, arm in enumerate(s2s.ARMS):
        for s, seed in enumerate(s2s.SEEDS):
            row = rows[a * len(s2s.SEEDS) + s]
            assert row[:2] == [page.ARM_NAMES[arm], str(seed)]
            models = [sw.page_sweep().model(arm, n, seed) for n in s2s.LENGTHS]
            forced = [m.curve_forced[-1].mean() for m in models]  # teacher-forced beside greedy, in brackets
            assert row[2:] == [f"{fmt.accuracy(x)} ({fmt.accuracy(y)})" for x, y in zip(acc[a, :, s], forced)]
        means = [numbers[f"w4b_acc_{arm}_{n}"] for n in s2s.LENGTHS]
        assert means == [fmt.accuracy(x) for x in acc[a].mean(axis=1)]


def test_an_accuracy_never_prints_a_false_hundred_percent():
    texts = [fmt.accuracy(x) for x in (0.994, 0.996, 1.0, 0.127)]
    assert texts == [f"99{NBSP}%", f"99,6{NBSP}%", f"100{NBSP}%", f"13{NBSP}%"]
    assert [page.gain_text(x) for x in (0.27, 0.01, -0.01)] == ["27 punts", "1 punt", "−1 punt"]


def test_the_exercises_answers(numbers):
    bits, L = int(np.log2(V)), max(s2s.LENGTHS)
    assert numbers["w4b_bits_longest"] == fmt.integer(bits * L) == "36"
    assert numbers["w4b_bits_held"] == fmt.integer(2 * s2s.H * 64) == "2.048"
    assert numbers["w4b_ratio_bits"] == fmt.decimal(2 * s2s.H * 64 / (bits * L), 1) == "56,9"
    points = lambda k: int(numbers[k].split(NBSP)[0])  # noqa: E731
    for end in ("first", "last"):  # the gain recomputes from the two percentages printed beside it
        gain = points(f"w4b_{end}_reversed") - points(f"w4b_{end}_bottleneck")
        assert numbers[f"w4b_{end}_gain"] == page.gain_text(gain / 100)
    # path lengths (positions from 1): L − j + t in the original order, j + t − 1 reversed; on the diagonal
    # both average L
    assert (numbers["w4b_dist_first_plain"], numbers["w4b_dist_first_reversed"]) == (str(L), "1")
    assert numbers["w4b_dist_last_reversed"] == str(2 * L - 1)
    assert numbers["w4b_dist_mean_plain"] == numbers["w4b_dist_mean_reversed"] == str(L)
    assert (numbers["w4b_loss_chance"], numbers["w4b_chance"]) == ("2,08", f"12,5{NBSP}%")


def test_the_learned_span_is_page_04s_measure_of_the_learned_weights(numbers):
    """Page 04's span is printed here with page 04's own string (issue 23, item 4: 5,93, never 5,926)."""
    from chapter09.pages import attention as page04

    hand = page04.readout().numbers
    assert numbers["w4b_span_hand"] == hand["w4_span"] == fmt.decimal(w4.attend().span.mean(), 2) == "5,93"
    assert (numbers["w4b_tau_hand"], numbers["w4b_n_hand"]) == (hand["w4_tau"], hand["w4_n"])
    short = sorted(s2s.LENGTHS)[1]
    alpha = sw.alignment(short, 0, page.N_ALIGN)
    assert alpha.shape == (short, short) and np.allclose(alpha.sum(axis=1), 1)
    assert numbers["w4b_span_short"] == fmt.decimal(w4.effective_span(alpha).mean(), 2)
    assert 1 < w4.effective_span(alpha).mean() < w4.attend().span.mean()  # more concentrated than by hand


def test_the_widget_shows_every_length_as_the_prose_does(numbers):
    spec = page.controls()
    (control,) = spec["controls"]
    assert control["values"] == list(s2s.LENGTHS) and control["labels"] == [str(n) for n in s2s.LENGTHS]
    for i, length in enumerate(s2s.LENGTHS):
        state = spec["states"][str(i)]
        assert state["readout"] == page.reading(length)
        assert [state["readout"][arm] for arm in s2s.ARMS] == [numbers[f"w4b_acc_{a}_{length}"] for a in s2s.ARMS]
        z = np.array(state["plot"]["z"])
        assert z.shape == (length, length) and np.allclose(z.sum(axis=1), 1, atol=0.01)
    assert spec["states"][str(len(s2s.LENGTHS) - 1)]["readout"]["span"] == numbers["w4b_span_longest"]


def test_reading_refuses_a_length_it_cannot_train():
    for bad in (3, 21, 7.5, True):
        with pytest.raises(ValueError, match="^length must"):
            page.reading(bad)


def test_the_code_cells_print_what_the_prose_glues(numbers):
    """The «Amb codi» cells: the example's span as the prose glues it, and the diagonal the prose names."""
    short = sorted(s2s.LENGTHS)[1]
    example = sw.attention_weights(sw.sweep().model("attention", short, s2s.SEEDS[0]), index=0)
    assert fmt.decimal(w4.effective_span(example.alpha).mean(), 2) == numbers["w4b_example_span"]
    assert (example.alpha.argmax(axis=1) == np.arange(short)).all()  # «mira sobretot la posició que ha de copiar»
    assert "w4b_acc_attention_example" not in numbers  # the cell prints its own accuracies, to a tenth


def test_printed_factors_counts_and_totals_agree(numbers):
    """Each printed (per-unit amount, count, total) triple recomputes from the printed strings."""
    integer = lambda k: int(numbers[k].replace(".", ""))  # noqa: E731
    assert integer("w4b_bits_symbol") * integer("w4b_l_max") == integer("w4b_bits_longest")
    assert integer("w4b_state_numbers") * integer("w4b_bits_number") == integer("w4b_bits_held")
    assert integer("w4b_steps") * integer("w4b_batch") == integer("w4b_strings")
    ratio = float(numbers["w4b_ratio_bits"].replace(",", "."))
    assert abs(integer("w4b_bits_held") / integer("w4b_bits_longest") - ratio) <= 0.05
    own, uniform = (float(numbers[k].split(NBSP)[0].replace(",", ".")) for k in ("w4b_own_attention", "w4b_uniform"))
    assert abs(own / uniform - float(numbers["w4b_own_ratio"].replace(",", "."))) <= 0.05 + 0.5 / uniform


def test_the_page_talks_about_the_models_not_the_build():
    """Item 11, 13 and 15: no build machinery in the prose, «Prova-ho» marked as the book's, Catalan terms."""
    source = PAGE.read_text(encoding="utf-8")
    assert source.count(":::{admonition} Com ho sabem\n:class: note dropdown") == 1
    assert "en construir el llibre" not in source and "Són els" not in source
    assert ":::{container} afegit\n**Prova-ho.**" in source
    prose = source.replace("(*encoder–decoder*)", "")
    assert "encoder" not in prose and "decoder" not in prose and "mossega" not in prose


def test_the_long_budget_as_the_prose_prints_it(numbers):
    """The long training's numbers recompute from its models: accuracy after it, when each model reached 90 %,
    where it stopped (never past the cap, never before twice the small budget unless at the cap)."""
    long = sw.page_long()
    assert long.lengths == sw.LONG_LENGTHS
    for arm in s2s.ARMS:
        for length in sw.LONG_LENGTHS:
            models = [long.model(arm, length, seed) for seed in s2s.SEEDS]
            assert numbers[f"w4b_long_{arm}_{length}"] == fmt.accuracy(np.mean([m.accuracy for m in models]))
            assert all(2 * s2s.STEPS <= m.steps <= s2s.CAP and m.checkpoints[-1] == m.steps for m in models)
            for m in models:  # rule (4) on the validation strings, or the cap; the best checkpoint kept
                best = lambda n: np.nanmax(m.curve_valid[m.checkpoints <= n])  # noqa: E731
                stopped = m.steps >= 2 * s2s.STEPS and best(m.steps) - best(m.steps // 2) < s2s.GAIN
                assert m.stopped_by == ("rule" if stopped else "cap") and (stopped or m.steps == s2s.CAP)
                assert m.kept == m.checkpoints[np.nanargmax(m.curve_valid)]
                assert numbers[f"w4b_stop_{arm}_{length}_s{m.seed}"].startswith(fmt.integer(m.steps) + " (")
    assert numbers["w4b_plain_reached"] == f"cap dels {2 * len(s2s.SEEDS)} models"  # none reached 90 % at L = 12
    attention = [long.model("attention", n, seed) for n in sw.LONG_LENGTHS for seed in s2s.SEEDS]
    assert numbers["w4b_reach_attention_max"] == fmt.integer(max(curves.reach(m, page.TARGET) for m in attention))


def test_the_one_step_by_hand_is_the_models_own_step():
    """encode's states, through (2) written with numpy, give the attention weights the model itself gives."""
    model = sw.page_sweep().model("attention", 6, 0)
    h, s, _ = sw.encode(model, model.test[0])
    p = model.params
    e = np.tanh(s @ p["W_a"] + h @ p["U_a"]) @ p["v_a"]
    alpha = np.exp(e - e.max()) / np.exp(e - e.max()).sum()
    assert np.allclose(alpha, sw.attention_weights(model, 0).alpha[0], atol=1e-12)
    assert h.shape == (6, s2s.H) and np.array_equal(h[-1], s)
    with pytest.raises(ValueError, match="^string must"):
        sw.encode(model, [1, 2, 9, 0])


def test_the_curves_read_the_long_training():
    """A long training's row at STEPS is the small budget's model; reach, gain and fall read its curves."""
    longest = max(s2s.LENGTHS)
    models = curves.long_models("bottleneck", longest)
    small = [sw.page_sweep().model("bottleneck", longest, seed).position_accuracy for seed in s2s.SEEDS]
    assert np.array_equal(curves.by_position(models, s2s.STEPS), small)
    first, last = curves.end_accuracies("bottleneck", page.N_FIRST)
    assert np.array_equal(first - last, np.subtract(*curves.ends(small, page.N_FIRST)))
    greedy, forced = curves.falls(models, page.N_FIRST)
    assert np.array_equal(forced, np.subtract(*curves.ends(curves.by_position(models, forced=True), page.N_FIRST)))
    assert (greedy >= 2 * page.MARGIN).all() and (forced < greedy / 2).all()  # W4b.8, in each seed
    for m in [*models, *curves.long_models("attention", longest)]:
        reached = curves.reach(m, page.TARGET)
        below = m.curve[: m.at(reached) if reached else None]
        assert (below < page.TARGET).all() and (reached is None or m.curve[m.at(reached)] >= page.TARGET)
    assert [curves.gain_since(m, page.STILL) for m in models] == [
        m.accuracy - m.curve[m.at(page.STILL)] for m in models
    ]


def test_the_loss_bounds_the_bits_the_decoder_reads(numbers):
    """(1) of seq2seq.curves: L log₂ V − L ℓ / ln 2 bits, from the held-out loss at the checkpoint printed; never
    more than the string holds, and more after the long training than after the small budget."""
    L = max(s2s.LENGTHS)
    for arm in s2s.ARMS:
        models = curves.long_models(arm, L)
        for steps, key in ((s2s.STEPS, f"w4b_bits_read_{arm}_400"), (None, f"w4b_bits_read_{arm}")):
            bits = [L * (np.log2(V) - m.curve_loss[m.at(steps or m.kept)] / np.log(2)) for m in models]
            assert numbers[key] == fmt.decimal(np.mean(bits), 0) and 0 < min(bits) and max(bits) < L * np.log2(V)
    assert curves.mean_bits_read(models) > curves.mean_bits_read(models, s2s.STEPS)


def test_where_the_long_trainings_stopped_is_counted_as_the_prose_says(numbers):
    plain = [m for arm in curves.PLAIN for n in sw.LONG_LENGTHS[1:] for m in curves.long_models(arm, n)]
    attention = [m for n in sw.LONG_LENGTHS for m in curves.long_models("attention", n)]
    assert numbers["w4b_plain_cap"] == fmt.integer(sum(m.stopped_by == "cap" for m in plain))
    assert numbers["w4b_n_plain_long"] == fmt.integer(len(plain))
    assert numbers["w4b_attention_rule"] == fmt.integer(sum(m.stopped_by == "rule" for m in attention))
    assert numbers["w4b_rule_marks"].startswith(fmt.integer(2 * s2s.STEPS) + ", ")
    assert numbers["w4b_rule_marks"].endswith(" i " + fmt.integer(s2s.CAP))


def test_exercise_4_trains_the_tables_model_bit_for_bit(numbers):
    """The student's one model (the bottleneck at the middle long length, first seed, small budget) is the table's."""
    r = s2s.train("bottleneck", length=sw.LONG_LENGTHS[1], seed=s2s.SEEDS[0])
    assert fmt.accuracy(r.accuracy) == numbers[f"w4b_acc_bottleneck_{sw.LONG_LENGTHS[1]}_s0"]
    assert fmt.accuracy(r.curve_forced[-1].mean()) == numbers[f"w4b_forced_bottleneck_{sw.LONG_LENGTHS[1]}_s0"]
    assert r.curve_forced[-1].mean() > r.accuracy


SECTIONS = {  # the page's sections (its «##» headings; "" before the first) → the function that makes their keys
    "": "_numbers_the_task",
    "L'encert segons la longitud": "_numbers_accuracy_by_length",
    "Com aprenen": "_numbers_how_they_learn",
    "Què hi guanya la frase invertida": "_numbers_what_reversing_gains",
    "L'alineament, après": "_numbers_the_learned_alignment",
    "El camí del gradient": "_numbers_the_gradients_path",
    "La pèrdua": "_numbers_the_loss",
    "Amb codi": "_numbers_with_code",
    "Exercicis": "_numbers_exercises",
}


def test_each_key_is_made_in_the_section_where_the_page_first_prints_it(numbers):
    """«A page module you can navigate»: a key the prose glues is written out in its section's function."""
    first_section, section = {}, ""
    for line in PAGE.read_text(encoding="utf-8").splitlines():
        section = line[3:] if line.startswith("## ") else section
        for key in re.findall(r"\{glue:text\}`(w4b_\w+?)(?:__\w+)?`", line):
            first_section.setdefault(key, section)
    assert set(first_section.values()) == set(SECTIONS) and set(first_section) <= set(numbers)
    tree = ast.parse(Path(page.__file__).read_text(encoding="utf-8"))
    made = {
        node.value: f.name
        for f in tree.body
        if isinstance(f, ast.FunctionDef) and f.name.startswith("_numbers_")
        for node in ast.walk(f)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and re.fullmatch(r"w4b_\w+", node.value)
    }
    misplaced = {k: (made[k], SECTIONS[s]) for k, s in first_section.items() if k in made and made[k] != SECTIONS[s]}
    assert misplaced == {}
    assert len(made) > 70  # most keys are written out whole (the others are the tables' keys, by arm and length)
