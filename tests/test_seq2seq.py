"""Seq2seq from scratch: every gradient against central differences, a deterministic training,
held-out strings, the three arms' ordering at the longest length, and refused inputs."""

import numpy as np
import pytest

from chapter09 import seq2seq as s2s
from chapter09 import seq2seq_sweep as sw
from chapter09 import seq2seq_task as task

EPS = 1e-5  # central differences in float64: truncation ~EPS², rounding ~1e-16/EPS


def tiny(arm: str, seed: int = 3, models: int = 1):
    """Models of state 3 over 4 symbols side by side, weights moved off their initial values, and a
    batch of 2 strings of 3 each."""
    rng = np.random.default_rng(seed)
    p = s2s._stack([s2s._init(rng, arm == "attention", v=4, h=3) for _ in range(models)])
    p = {k: v + 0.3 * rng.normal(size=v.shape) for k, v in p.items()}
    strings = rng.integers(0, 4, (models, 2, 3))
    return p, s2s._source(arm, strings), s2s._decoder_inputs(strings, go=4), strings


def numeric(loss, p: dict, key: str) -> np.ndarray:
    """∂loss/∂p[key] by central differences."""
    grad = np.zeros_like(p[key])
    for i in np.ndindex(p[key].shape):
        q = {k: v.copy() for k, v in p.items()}
        q[key][i] += EPS
        up = loss(q)
        q[key][i] -= 2 * EPS
        grad[i] = (up - loss(q)) / (2 * EPS)
    return grad


def relative_error(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.linalg.norm(a - b) / np.linalg.norm(b))


@pytest.mark.parametrize("models", [1, 2])
@pytest.mark.parametrize("arm", s2s.ARMS)
def test_backward_matches_central_differences_for_every_parameter(arm, models):
    """Every parameter of every model of a stack (the sum of the models' losses: nothing mixes them)."""
    p, source, inputs, targets = tiny(arm, models=models)
    logits, saved = s2s._forward(p, source, inputs)
    grads, _ = s2s._backward(p, s2s._loss(logits, targets)[1], saved)  # no clipping: the raw gradient
    expected = {"E_src", "E_tgt", "W_enc", "U_enc", "b_enc", "W_dec", "U_dec", "b_dec", "W_out", "b_out"}
    if arm == "attention":
        expected |= {"C_dec", "C_out", "W_a", "U_a", "v_a"}
    assert set(grads) == set(p) == expected

    def loss(q):
        return s2s._loss(s2s._forward(q, source, inputs)[0], targets)[0].sum()

    errors = {k: relative_error(grads[k], numeric(loss, p, k)) for k in p}
    assert max(errors.values()) < 1e-6, errors


@pytest.mark.parametrize("arm", s2s.ARMS)
def test_input_embedding_gradient_matches_central_differences(arm):
    """Each (string, position) gets an embedding row of its own, so that ∂ℒ/∂row is ∂ℒ/∂x_j."""
    p, source, inputs, targets = tiny(arm)
    p["E_src"] = np.random.default_rng(4).normal(size=(1, source.size, 3))
    own = np.arange(source.size).reshape(source.shape)
    logits, saved = s2s._forward(p, own, inputs)
    d_x = s2s._input_gradient(p, s2s._backward(p, s2s._loss(logits, targets)[1], saved)[1])

    def loss(q):
        return s2s._loss(s2s._forward(q, own, inputs)[0], targets)[0][0]

    assert relative_error(d_x.reshape(-1, 3), numeric(loss, p, "E_src")) < 1e-6


@pytest.mark.parametrize("arm", ["reversed", "attention"])
def test_path_gradients_are_the_gradients_of_each_outputs_loss(arm):
    """path_gradients on one string against central differences of ℓ_t = −log p(y_t) in each x_j."""
    trained = s2s.train(arm, 4, seed=0, steps=20)
    string = trained.test[:1]
    p = {k: v[None] for k, v in trained.params.items()}
    p["E_src"] = p["E_src"][:, s2s._source(arm, string)[0]]  # row k: the embedding the encoder reads at step k
    own = np.arange(4)[None, None]
    inputs = s2s._decoder_inputs(string, task.V)[None]

    def loss_at(t):
        def loss(q):
            logits = s2s._forward(q, own, inputs)[0][0, 0, t]
            return -(logits[string[0, t]] - logits.max() - np.log(np.exp(logits - logits.max()).sum()))

        return loss

    numbers = np.array([np.linalg.norm(numeric(loss_at(t), p, "E_src")[0], axis=1) for t in range(4)])
    if arm == "reversed":
        numbers = numbers[:, ::-1]  # encoder step k reads position L − 1 − k
    measured = sw.path_gradients(trained, n_strings=1)
    np.testing.assert_allclose(measured.norms, numbers, rtol=1e-6)
    assert np.allclose(measured.share.sum(axis=1), 1)


def test_clipping_rescales_only_a_longer_gradient_model_by_model():
    g = {"a": np.array([[3.0, 0.0], [0.3, 0.0]]), "b": np.array([[[4.0]], [[0.4]]])}  # norms 5 and 0,5
    assert s2s._clip(g, 10.0).tolist() == [5.0, 0.5] and g["a"].tolist() == [[3.0, 0.0], [0.3, 0.0]]
    assert np.allclose(s2s._clip(g, 1.0), [5.0, 0.5])
    assert g["a"][1].tolist() == [0.3, 0.0] and g["b"][1, 0, 0] == 0.4  # the shorter one untouched
    assert np.isclose(np.sqrt(g["a"][0] @ g["a"][0] + g["b"][0, 0, 0] ** 2), 1.0)


def same(a, b) -> bool:
    """Two trainings gave the same model, bit for bit."""
    arrays = [(a.loss, b.loss), (a.position_accuracy, b.position_accuracy), (a.test, b.test)]
    arrays += [(a.params[k], b.params[k]) for k in a.params]
    return a.accuracy == b.accuracy and all(np.array_equal(x, y) for x, y in arrays)


def test_training_is_bitwise_deterministic_per_seed():
    runs = (("attention", 0),)
    (a,), (b,), (c,) = (
        s2s._train_many(runs, 5, 30),
        s2s._train_many(runs, 5, 30),
        s2s._train_many((("attention", 1),), 5, 30),
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
    together = s2s._train_many(runs, 5, 30)
    alone = [s2s._train_many((run,), 5, 30)[0] for run in runs]
    assert all(same(a, b) for a, b in zip(together, alone))
    assert [(m.arm, m.seed) for m in together] == list(runs)


@pytest.mark.parametrize("length", [4, 5, 16])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_held_out_strings_are_disjoint_from_the_training_stream(length, seed):
    train, test = task._data(length, seed, 600)
    assert not np.isin(task._codes(train.reshape(-1, length)), task._codes(test)).any()
    assert np.array_equal(test, task._data(length, seed, 10)[1])  # a stream of its own: the budget does not move it


def test_a_readout_cannot_be_written_to():
    t = s2s.train("bottleneck", 4, steps=5)
    for a in (t.loss, t.position_accuracy, t.test, *t.params.values()):
        with pytest.raises(ValueError):
            a[0] = 0
    with pytest.raises(TypeError):
        t.params["W_out"] = 0


@pytest.fixture(scope="module")
def longest():
    """The page's models at its longest length, seed 0 (trained with the page's sweep, where the
    registry is computed: see conftest)."""
    return {arm: sw.sweep().model(arm, s2s.LENGTHS[-1], 0) for arm in s2s.ARMS}


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
    assert sw.sweep().model(arm, s2s.LENGTHS[0], 0).accuracy > 0.9


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
