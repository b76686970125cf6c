"""Seq2seq from scratch: every gradient against central differences, a deterministic training,
held-out strings, the three arms' ordering at the longest length, and refused inputs."""

import numpy as np
import pytest

from chapter09 import seq2seq as s2s
from chapter09 import seq2seq_task as task

EPS = 1e-5  # central differences in float64: truncation ~EPS², rounding ~1e-16/EPS


def tiny(arm: str, seed: int = 3):
    """A model of state 3 over 4 symbols, weights moved off their initial values, and a batch of 2 strings of 3."""
    rng = np.random.default_rng(seed)
    p = s2s._init(rng, arm == "attention", v=4, h=3)
    p = {k: v + 0.3 * rng.normal(size=v.shape) for k, v in p.items()}
    strings = rng.integers(0, 4, (2, 3))
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


@pytest.mark.parametrize("arm", s2s.ARMS)
def test_backward_matches_central_differences_for_every_parameter(arm):
    p, source, inputs, targets = tiny(arm)
    logits, saved = s2s._forward(p, source, inputs)
    grads, _ = s2s._backward(p, s2s._loss(logits, targets)[1], saved)  # no clipping: the raw gradient
    expected = {"E_src", "E_tgt", "W_enc", "U_enc", "b_enc", "W_dec", "U_dec", "b_dec", "W_out", "b_out"}
    if arm == "attention":
        expected |= {"C_dec", "C_out", "W_a", "U_a", "v_a"}
    assert set(grads) == set(p) == expected

    def loss(q):
        return s2s._loss(s2s._forward(q, source, inputs)[0], targets)[0]

    errors = {k: relative_error(grads[k], numeric(loss, p, k)) for k in p}
    assert max(errors.values()) < 1e-6, errors


@pytest.mark.parametrize("arm", s2s.ARMS)
def test_input_embedding_gradient_matches_central_differences(arm):
    """Each (string, position) gets an embedding row of its own, so that ∂ℒ/∂row is ∂ℒ/∂x_j."""
    p, source, inputs, targets = tiny(arm)
    p["E_src"] = np.random.default_rng(4).normal(size=(source.size, 3))
    own = np.arange(source.size).reshape(source.shape)
    logits, saved = s2s._forward(p, own, inputs)
    _, d_x = s2s._backward(p, s2s._loss(logits, targets)[1], saved)

    def loss(q):
        return s2s._loss(s2s._forward(q, own, inputs)[0], targets)[0]

    assert relative_error(d_x.reshape(-1, 3), numeric(loss, p, "E_src")) < 1e-6


@pytest.mark.parametrize("arm", ["reversed", "attention"])
def test_path_gradients_are_the_gradients_of_each_outputs_loss(arm):
    """path_gradients on one string against central differences of ℓ_t = −log p(y_t) in each x_j."""
    trained = s2s.train(arm, 4, seed=0, steps=20)
    string = trained.test[:1]
    p = dict(trained.params)
    p["E_src"] = p["E_src"][s2s._source(arm, string)[0]]  # row k: the embedding the encoder reads at step k
    own = np.arange(4)[None]
    inputs = s2s._decoder_inputs(string, task.V)

    def loss_at(t):
        def loss(q):
            logits = s2s._forward(q, own, inputs)[0][0, t]
            return -(logits[string[0, t]] - logits.max() - np.log(np.exp(logits - logits.max()).sum()))

        return loss

    numbers = np.array([np.linalg.norm(numeric(loss_at(t), p, "E_src"), axis=1) for t in range(4)])
    if arm == "reversed":
        numbers = numbers[:, ::-1]  # encoder step k reads position L − 1 − k
    measured = s2s.path_gradients(trained, n_strings=1)
    np.testing.assert_allclose(measured.norms, numbers, rtol=1e-6)
    assert np.allclose(measured.share.sum(axis=1), 1)


def test_clipping_rescales_only_a_longer_gradient():
    g = {"a": np.array([3.0, 0.0]), "b": np.array([[4.0]])}
    assert s2s._clip(g, 10.0) == 5.0 and g["a"].tolist() == [3.0, 0.0]
    assert s2s._clip(g, 1.0) == 5.0 and np.isclose(np.sqrt(sum((v**2).sum() for v in g.values())), 1.0)


def test_training_is_bitwise_deterministic_per_seed():
    a, b, c = s2s._train("attention", 5, 0, 30), s2s._train("attention", 5, 0, 30), s2s._train("attention", 5, 1, 30)
    assert np.array_equal(a.loss, b.loss) and np.array_equal(a.position_accuracy, b.position_accuracy)
    assert all(np.array_equal(a.params[k], b.params[k]) for k in a.params)
    assert not np.array_equal(a.loss, c.loss)


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
    """The page's budget at its longest length, seed 0: the three arms (about 7 s of CPU)."""
    return {arm: s2s.train(arm, s2s.LENGTHS[-1], seed=0) for arm in s2s.ARMS}


def test_attention_beats_reversed_beats_the_bottleneck_at_the_longest_length(longest):
    acc = {arm: t.accuracy for arm, t in longest.items()}
    assert acc["attention"] > 0.9 > acc["reversed"] > acc["bottleneck"] + 0.05 > 1 / task.V + 0.05, acc
    assert all(len(t.loss) == s2s.STEPS and t.loss[-1] < t.loss[0] for t in longest.values())


def test_reversing_helps_the_first_positions_most(longest):
    gain = longest["reversed"].position_accuracy - longest["bottleneck"].position_accuracy
    assert gain[:4].mean() > 0.15 > gain[-4:].mean()


@pytest.mark.parametrize("arm", s2s.ARMS)
def test_every_arm_copies_the_shortest_strings(arm):
    assert s2s.train(arm, s2s.LENGTHS[0], seed=0).accuracy > 0.9


def test_attention_looks_at_the_position_it_writes(longest):
    a = s2s.attention_weights(longest["attention"], index=0)
    assert a.alpha.shape == (16, 16) and np.allclose(a.alpha.sum(axis=1), 1) and a.alpha.min() >= 0
    assert (a.alpha.argmax(axis=1) == np.arange(16)).mean() >= 0.75
    assert np.array_equal(a.source, longest["attention"].test[0])


def test_with_attention_the_gradient_of_output_t_goes_to_input_t(longest):
    shares = {arm: np.diag(s2s.path_gradients(t).share).mean() for arm, t in longest.items()}
    assert shares["attention"] > 2 / 16 > shares["bottleneck"], shares
    path = s2s.path_gradients(longest["bottleneck"])
    assert path.distance[0, 0] == 16 and path.distance[15, 0] == 31 and path.offset[15, 0] == 15
    assert s2s.path_gradients(longest["reversed"]).distance[0, 0] == 1


def test_the_sweep_is_remembered_and_shaped_by_its_arguments():
    first = s2s.sweep(arms=["attention", "bottleneck"], lengths=(4,), seeds=(0, 1), steps=5)
    assert first is s2s.sweep(arms=("attention", "bottleneck"), lengths=[4], seeds=[0, 1], steps=5)
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
        (lambda: s2s.sweep(lengths=[8, 3]), r"^lengths\[1\] must"),
        (lambda: s2s.sweep(arms=[]), "^arms must"),
        (lambda: s2s.sweep(arms=["bottleneck", "copy"]), r"^arms\[1\] must"),
        (lambda: s2s.sweep(seeds=[0, -1]), r"^seeds\[1\] must"),
        (lambda: s2s.sweep(steps=True), "^steps must"),
        (lambda: s2s.attention_weights("model"), "^trained must"),
        (lambda: s2s.path_gradients(None), "^trained must"),
    ],
)
def test_bad_input_is_refused_naming_the_parameter(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_a_trained_model_refuses_what_it_cannot_show():
    t = s2s.train("bottleneck", 4, steps=5)
    with pytest.raises(ValueError, match="^trained must be a model of the attention arm"):
        s2s.attention_weights(t)
    with pytest.raises(ValueError, match="^index must"):
        s2s.attention_weights(s2s.train("attention", 4, steps=5), index=task.N_TEST)
    with pytest.raises(ValueError, match="^n_strings must"):
        s2s.path_gradients(t, n_strings=0)
