"""Seq2seq from scratch: every gradient against central differences, a deterministic training,
held-out strings, the three arms' ordering at the longest length, and refused inputs."""

import dataclasses
import pickle

import numpy as np
import pytest
from claim_cases import Book

from chapter09 import seq2seq
from chapter09.pages import seq2seq_claims as w4b  # the thresholds of W4b's checks
from chapter09.seq2seq import net, task
from chapter09.seq2seq import sweep as sw
from chapter09.seq2seq import training as s2s

EPS = 1e-5  # central differences in float64: truncation ~EPS², rounding ~1e-16/EPS


def tiny(arm: str, seed: int = 3):
    """A model with its weights moved off their initial values, and a batch of 2 strings of 3 symbols."""
    rng = np.random.default_rng(seed)
    theta = s2s.init(rng, arm == "attention") + 0.3 * rng.normal(size=net.SIZE)
    if arm != "attention":
        theta[net.AT[net.C_DEC] :] = 0.0
    strings = rng.integers(0, task.V, (2, 3)).astype(np.int8)
    return theta, s2s.encoder_input(arm, strings), s2s.decoder_inputs(strings), strings


def loss_and_gradient(arm, theta, source, inputs, targets, weights=None):
    weights = np.full(targets.shape, 1 / targets.size) if weights is None else weights
    grad, d_pre = np.empty(net.SIZE), np.empty((*source.shape, net.G))
    loss = net.gradient(theta, arm == "attention", source, inputs, targets, weights, grad, d_pre)
    return loss, grad, d_pre


def numeric(loss, x: np.ndarray) -> np.ndarray:
    """∂loss/∂x by central differences."""
    grad = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[i] += EPS
        down[i] -= EPS
        grad[i] = (loss(up) - loss(down)) / (2 * EPS)
    return grad


def relative_error(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.linalg.norm(a - b) / np.linalg.norm(b))


@pytest.mark.parametrize("arm", s2s.ARMS)
def test_backward_matches_central_differences_for_every_parameter(arm):
    """Every block of θ; a model without attention has no gradient in the attention's blocks."""
    theta, source, inputs, targets = tiny(arm)
    _, grad, _ = loss_and_gradient(arm, theta, source, inputs, targets)
    expected = numeric(lambda th: loss_and_gradient(arm, th, source, inputs, targets)[0], theta)
    blocks = net.BLOCKS if arm == "attention" else net.BLOCKS[: -len(net.ATTENTION)]
    errors = {
        k: relative_error(grad[net.AT[i] : net.AT[i + 1]], expected[net.AT[i] : net.AT[i + 1]])
        for i, k in enumerate(blocks)
    }
    assert max(errors.values()) < 1e-6, errors
    assert not grad[len(blocks) and net.AT[len(blocks)] :].any()


@pytest.mark.parametrize("arm", s2s.ARMS)
def test_input_gradient_matches_central_differences(arm):
    """A string of distinct symbols: the gradient in the embedding row of x_j is ∂ℓ/∂x_j = ∂ℓ/∂(x_j W) Wᵀ."""
    theta, _, _, _ = tiny(arm)
    string = np.array([[5, 2, 7, 0]], np.int8)
    source, inputs = s2s.encoder_input(arm, string), s2s.decoder_inputs(string)
    _, _, d_pre = loss_and_gradient(arm, theta, source, inputs, string)
    d_x = d_pre[0] @ theta[net.AT[net.W_ENC] : net.AT[net.W_ENC + 1]].reshape(net.H, net.G).T
    rows = slice(net.AT[net.E_SRC], net.AT[net.E_SRC + 1])

    def loss(table):
        th = theta.copy()
        th[rows] = table.ravel()
        return loss_and_gradient(arm, th, source, inputs, string)[0]

    expected = numeric(loss, theta[rows].reshape(task.V, net.H))[source[0]]
    assert relative_error(d_x, expected) < 1e-6


@pytest.mark.parametrize("arm", ["reversed", "attention"])
def test_path_gradients_are_the_gradients_of_each_outputs_loss(arm):
    """path_gradients on one string against central differences of ℓ_t = −log p(y_t) in each x_j."""
    trained = s2s.train(arm, 4, seed=0, steps=20)
    string = trained.test[:1].astype(np.int8)
    string[0] = [6, 1, 3, 4]  # distinct symbols: the embedding row of each one is one position's
    trained = dataclasses.replace(trained, test=string)
    theta, rows = s2s.flat_theta(trained.params), slice(net.AT[net.E_SRC], net.AT[net.E_SRC + 1])
    source, inputs = s2s.encoder_input(arm, string), s2s.decoder_inputs(string)

    def loss_at(t):
        weights = (np.arange(4) == t)[None].astype(float)

        def loss(table):
            th = theta.copy()
            th[rows] = table.ravel()
            return loss_and_gradient(arm, th, source, inputs, string, weights)[0]

        return loss

    numbers = np.array(
        [np.linalg.norm(numeric(loss_at(t), theta[rows].reshape(task.V, net.H))[string[0]], axis=1) for t in range(4)]
    )
    measured = sw.path_gradients(trained, n_strings=1)
    np.testing.assert_allclose(measured.norms, numbers, rtol=1e-6)
    assert np.allclose(measured.share.sum(axis=1), 1)


def test_clipping_rescales_only_a_longer_gradient():
    g = np.array([3.0, 0.0, 4.0])  # norm 5
    assert net.clip_norm(g, 10.0) == 5.0 and g.tolist() == [3.0, 0.0, 4.0]
    assert net.clip_norm(g, 1.0) == 5.0 and np.allclose(g, [0.6, 0.0, 0.8])


def same(a, b) -> bool:
    """Two trainings gave the same model, bit for bit."""
    arrays = [(a.loss, b.loss), (a.position_accuracy, b.position_accuracy), (a.test, b.test)]
    arrays += [(a.curve_forced, b.curve_forced), (a.curve_loss, b.curve_loss)]
    arrays += [(a.params[k], b.params[k]) for k in a.params]
    return a.accuracy == b.accuracy and all(np.array_equal(x, y) for x, y in arrays)


def test_training_is_bitwise_deterministic_per_seed():
    runs = (("attention", 0),)
    (a,), (b,), (c,) = (
        s2s.train_many(runs, 5, 30),
        s2s.train_many(runs, 5, 30),
        s2s.train_many((("attention", 1),), 5, 30),
    )
    assert same(a, b) and not np.array_equal(a.loss, c.loss)


@pytest.mark.parametrize(
    "runs",
    [
        (("bottleneck", 0), ("reversed", 1), ("bottleneck", 2)),
        (("attention", 1), ("attention", 0)),
        (("attention", 2), ("bottleneck", 0), ("attention", 0), ("reversed", 1)),
    ],
)
def test_models_side_by_side_learn_bit_for_bit_what_they_learn_alone(runs):
    together = s2s.train_many(runs, 5, 30)
    alone = [s2s.train_many((run,), 5, 30)[0] for run in runs]
    assert all(same(a, b) for a, b in zip(together, alone))
    assert [(m.arm, m.seed) for m in together] == list(runs)


def test_a_long_training_starts_as_the_short_one():
    """The small budget read back from a longer training is that training, bit for bit."""
    long = s2s.train("reversed", 4, seed=1, steps=450)
    short = s2s.train("reversed", 4, seed=1, steps=s2s.STEPS)
    assert same(sw.at_budget(long), short) and sw.at_budget(long).steps == s2s.STEPS
    assert long.curve[long.at(s2s.STEPS)] == short.accuracy and sw.at_budget(short) is short


def checkpoint(mark: int, valid: float) -> tuple:
    """A checkpoint as a training keeps it: (step, greedy, forced, loss, validation accuracy, its error)."""
    return (mark, None, None, None, valid, 0.001)


def test_a_long_training_stops_when_its_best_validation_accuracy_gained_less_than_half_a_point():
    """Rule (4): the best validation accuracy up to n against the best up to n/2; a dip alone never stops it."""
    early = [checkpoint(n, np.nan) for n in (25, 200)]  # before STEPS: not copied on the validation strings
    dip = [*early, checkpoint(400, 0.80), checkpoint(600, 0.85), checkpoint(800, 0.804)]
    assert not s2s.flat(dip)  # 0,804 − 0,80 < GAIN, but the best so far, 0,85, gained 5 points
    plateau = [*early, checkpoint(400, 0.85), checkpoint(600, 0.852), checkpoint(800, 0.80)]
    assert s2s.flat(plateau) and not s2s.flat(plateau[:-1])
    # at 1.200 the best up to 600 counts, though no checkpoint is at 600 exactly half-way to anything else
    later = [*early, checkpoint(400, 0.7), checkpoint(600, 0.9), checkpoint(800, 0.9), checkpoint(1200, 0.9049)]
    assert s2s.flat(later) and not s2s.flat([*later[:-1], checkpoint(1200, 0.905)])


def test_a_long_training_keeps_its_best_checkpoint_on_the_validation_strings():
    """The weights kept are those of the checkpoint with the best validation accuracy: a training of that many
    steps, bit for bit; its accuracy is the test accuracy there, and where it stopped says why."""
    for m in s2s.train_many((("attention", 0), ("bottleneck", 1)), 4, 1200, until_flat=True):
        judged = m.checkpoints >= s2s.STEPS
        assert np.isnan(m.curve_valid[~judged]).all() and not np.isnan(m.curve_valid[judged]).any()
        assert m.kept == m.checkpoints[np.nanargmax(m.curve_valid)] and m.accuracy == m.curve[m.at(m.kept)]
        assert (m.stopped_by, m.steps) in {("rule", m.steps), ("cap", 1200)} and m.steps >= 2 * s2s.STEPS
        alone = s2s.train(m.arm, 4, m.seed, steps=int(m.kept))
        assert all(np.array_equal(m.params[k], alone.params[k]) for k in m.params)
        assert (m.accuracy, m.loss[: m.kept].tolist()) == (alone.accuracy, alone.loss.tolist())
        assert np.array_equal(m.position_accuracy, alone.position_accuracy)
        assert (0 <= m.valid_error[judged]).all() and (m.valid_error[judged] < 0.02).all()


@pytest.mark.parametrize("length", [4, 5, 6, 16])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_held_out_strings_are_never_trained_on_and_training_strings_repeat_only_when_they_must(length, seed):
    """Test and validation strings: distinct, disjoint, never in the training stream.  Training strings: without
    replacement while the pool lasts, else each string of the pool as often as any other, give or take one."""
    train, test, valid = task.task_strings(length, seed)
    assert train.shape == (task.CAP, task.BATCH, length) and test.shape == (task.N_TEST, length)
    assert len(valid) == task.n_valid(length) == min(task.N_VALID, task.V**length // 4)
    held = np.concatenate([task.codes(test), task.codes(valid)])
    drawn = task.codes(train.reshape(-1, length))
    assert len(np.unique(held)) == len(held) and not np.isin(drawn, held).any()
    counts = np.unique(drawn, return_counts=True)[1]
    if task.repeats(length, task.CAP) == 1:
        assert (counts == 1).all() and task.pool_size(length) >= drawn.size
    else:
        assert len(counts) == task.pool_size(length) and counts.max() - counts.min() <= 1
        assert abs(counts.mean() - task.repeats(length, task.CAP)) < 1e-9


def test_a_readout_cannot_be_written_to_and_pickles_as_it_is():
    t = s2s.train("bottleneck", 4, steps=5)
    u = pickle.loads(pickle.dumps(t))
    for m in (t, u):
        for a in (m.loss, m.position_accuracy, m.test, m.curve_forced, *m.params.values(), *m.budget_params.values()):
            with pytest.raises(ValueError):
                a[0] = 0
        with pytest.raises(TypeError):
            m.params["W_out"] = 0
    assert same(t, u)


def test_the_package_is_the_training_a_reader_calls():
    """``from chapter09 import seq2seq``: the training's public names, the same objects, and nothing more."""
    assert seq2seq.__all__ == s2s.__all__
    assert all(getattr(seq2seq, name) is getattr(s2s, name) for name in s2s.__all__)
    assert seq2seq.train("attention", 4, steps=3) is s2s.train("attention", 4, steps=3)  # one memory


@pytest.fixture(scope="module")
def longest():
    """The page's models at its longest length, seed 0, on the small budget (the page's sweep, where the
    registry is computed: see conftest)."""
    return {arm: sw.page_sweep().model(arm, s2s.LENGTHS[-1], 0) for arm in s2s.ARMS}


@pytest.mark.registry
def test_attention_beats_reversed_beats_the_bottleneck_at_the_longest_length(longest):
    acc = {arm: t.accuracy for arm, t in longest.items()}
    assert acc["attention"] > 0.9 > acc["reversed"] > acc["bottleneck"] + 0.05 > 1 / task.V + 0.05, acc
    assert all(len(t.loss) == s2s.STEPS and t.loss[-1] < t.loss[0] for t in longest.values())


@pytest.mark.registry
def test_reversing_helps_the_first_positions_most(longest):
    gain = longest["reversed"].position_accuracy - longest["bottleneck"].position_accuracy
    assert gain[:4].mean() > 0.15 > gain[-4:].mean()


@pytest.mark.registry
@pytest.mark.parametrize("arm", s2s.ARMS)
def test_every_arm_copies_the_shortest_strings(arm):
    assert sw.page_sweep().model(arm, s2s.LENGTHS[0], 0).accuracy > 0.9


@pytest.mark.registry
def test_attention_looks_at_the_position_it_writes(longest):
    L = s2s.LENGTHS[-1]
    a = sw.attention_weights(longest["attention"], index=0)
    assert a.alpha.shape == (L, L) and np.allclose(a.alpha.sum(axis=1), 1) and a.alpha.min() >= 0
    on_the_diagonal = [
        sw.attention_weights(longest["attention"], i).alpha.argmax(axis=1) == np.arange(L) for i in range(32)
    ]
    assert np.mean(on_the_diagonal) >= 0.75
    assert np.array_equal(a.source, longest["attention"].test[0])


@pytest.mark.registry
def test_with_attention_the_gradient_of_output_t_goes_to_input_t(longest):
    shares = {arm: np.diag(sw.path_gradients(t).share).mean() for arm, t in longest.items()}
    L = s2s.LENGTHS[-1]
    assert shares["attention"] > 2 / L > shares["bottleneck"], shares
    path = sw.path_gradients(longest["bottleneck"])  # L − j + t steps along the recurrence
    assert path.distance[0, 0] == L and path.distance[L - 1, 0] == 2 * L - 1 and path.offset[L - 1, 0] == L - 1
    assert sw.path_gradients(longest["reversed"]).distance[0, 0] == 1


def test_the_sweep_is_remembered_and_shaped_by_its_arguments():
    first = sw.sweep(arms=["attention", "bottleneck"], lengths=(4,), seeds=(0, 1), steps=5)
    assert first is sw.sweep(arms=("attention", "bottleneck"), lengths=[4], seeds=[0, 1], steps=5)
    assert first.accuracy.shape == (2, 1, 2) and first.model("bottleneck", 4, 1).seed == 1
    assert first.accuracy[1, 0, 1] == s2s.train("bottleneck", 4, seed=1, steps=5).accuracy


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: s2s.train("bottleneck", 3), "^length must"),
        (lambda: s2s.train("bottleneck", 21), "^length must"),
        (lambda: s2s.train("bottleneck", 8.0), "^length must"),
        (lambda: s2s.train("copy", 8), "^arm must"),
        (lambda: s2s.train(None, 8), "^arm must"),
        (lambda: s2s.train("attention", 8, seed=-1), "^seed must"),
        (lambda: s2s.train("attention", 8, steps=0), "^steps must"),
        (lambda: sw.sweep(lengths=[8, 3]), r"^lengths\[1\] must"),
        (lambda: sw.sweep(arms=[]), "^arms must"),
        (lambda: sw.sweep(arms=["bottleneck", "copy"]), r"^arms\[1\] must"),
        (lambda: sw.sweep(seeds=[0, -1]), r"^seeds\[1\] must"),
        (lambda: sw.sweep(steps=True), "^steps must"),
        (lambda: sw.attention_weights("model"), "^trained must"),
        (lambda: sw.path_gradients(None), "^trained must"),
    ],
)
def test_bad_input_is_refused_naming_the_parameter(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_a_trained_model_refuses_what_it_cannot_show():
    t = s2s.train("bottleneck", 4, steps=5)
    with pytest.raises(ValueError, match="^trained must be a model of the attention arm"):
        sw.attention_weights(t)
    with pytest.raises(ValueError, match="^index must"):
        sw.attention_weights(s2s.train("attention", 4, steps=5), index=task.N_TEST)
    with pytest.raises(ValueError, match="^n_strings must"):
        sw.path_gradients(t, n_strings=0)


# --- where its claims' checks must flip (tests/claim_cases.py; tests/test_claim_checks.py runs them) ---
GAP = Book("W4b.1", "gap")
UNIFORM = Book("W4b.5", "uniform")

# Just across a threshold, one number changed and the others left at the book's: the claim fails.
FAILS = [
    ("W4b.1", dict(from_length=16)),  # the longest: no length left where the arms separate
    ("W4b.1", dict(from_length=5)),  # not a length of the sweep
    ("W4b.1", dict(gap=GAP.apply(lambda g: (*g[:-1], w4b.MARGIN), "last gap = margin"))),
    ("W4b.1", dict(from_length=4, gap=GAP.apply(lambda g: (w4b.MARGIN / 2, *g[1:]), "first gap = margin/2"))),
    ("W4b.2", dict(first_gain=w4b.MARGIN - 1e-9, last_gain=0.0)),
    ("W4b.2", dict(first_gain=0.3, last_gain=0.3 - w4b.MARGIN + 1e-9)),
    ("W4b.3", dict(attention=Book("W4b.3", "reversed_") + w4b.MARGIN / 2)),
    ("W4b.3", dict(reversed_=Book("W4b.3", "bottleneck") + w4b.MARGIN / 2)),
    ("W4b.3", dict(bottleneck=Book("W4b.3", "chance") + w4b.MARGIN / 2)),
    ("W4b.4", dict(aligned_share=w4b.ALIGNED - 1e-9)),
    ("W4b.5", dict(attention_share=2 * UNIFORM + -1e-9)),
    ("W4b.5", dict(bottleneck_share=2 * UNIFORM)),
    ("W4b.6", dict(attention_steps=Book("W4b.6", "budget").apply(lambda b: b + 1, "budget+1"))),
    ("W4b.6", dict(plain_reached=1)),
    ("W4b.7", dict(gap=w4b.MARGIN)),
    ("W4b.7", dict(still_gaining=w4b.s2s.GAIN - 1e-9)),
    ("W4b.8", dict(greedy_fall=2 * w4b.MARGIN - 1e-9, forced_fall=0.0)),
    ("W4b.8", dict(forced_fall=Book("W4b.8", "greedy_fall").apply(lambda g: g / 2, "greedy_fall/2"))),
]

# Just inside a threshold: the claim still holds (a check made stricter than the book says fails here).
HOLDS = [
    ("W4b.1", dict(from_length=4, gap=GAP.apply(lambda g: (w4b.MARGIN * 1.5, *g[1:]), "first gap = 1,5 margin"))),
    ("W4b.2", dict(first_gain=w4b.MARGIN, last_gain=0.0)),
    ("W4b.4", dict(aligned_share=w4b.ALIGNED)),
    ("W4b.5", dict(attention_share=2 * UNIFORM)),
    ("W4b.6", dict(attention_steps=Book("W4b.6", "budget"))),
    ("W4b.7", dict(gap=w4b.MARGIN + 1e-9, still_gaining=w4b.s2s.GAIN)),
    ("W4b.8", dict(greedy_fall=2 * w4b.MARGIN, forced_fall=w4b.MARGIN - 1e-9)),
]
