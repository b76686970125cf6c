"""Sampling from a next-symbol model: cold it is the model's argmax given its own earlier draws (the state carried
step by step is the whole string's), hot it is uniform, a seed gives the same strings, and bad input is refused."""

import numpy as np
import pytest

from chapter09.language import net, sampling, training


@pytest.fixture(scope="module")
def model():
    return training.train("gru", 3, steps=60)


def test_cold_sampling_is_the_argmax_of_the_model_reading_its_own_draws(model):
    x = sampling.sample(model, 64, 0.01, seed=2)
    cell = net.CELLS.index(model.cell)
    at, _ = net.layout(cell, training.V)
    trace = net.new_trace(training.LENGTH, 64, net.WIDTH[cell], training.V)
    net.forward(cell, np.array(model.theta), at, net.inputs_of(x, training.V), trace)
    logits = trace[5]  # (L, V, n): the whole strings read at once
    top2 = np.sort(logits, axis=1)[:, -2:]
    clear = (top2[:, 1] - top2[:, 0]) > 0.2  # τ = 0.01: a gap of 0.2 leaves the runner-up e^-20 of the top
    assert clear.mean() > 0.9
    assert np.array_equal(logits.argmax(axis=1)[clear], x.T[clear])


def test_hot_sampling_is_uniform_and_a_seed_is_a_draw(model):
    x = sampling.sample(model, 2048, 100.0, seed=0)
    assert abs(sampling.repeat_share(x, 3) - 1 / training.V) < 0.02
    assert np.array_equal(x, sampling.sample(model, 2048, 100.0, seed=0))
    assert not np.array_equal(x, sampling.sample(model, 2048, 100.0, seed=1))


def test_the_repeat_share_counts_from_position_k():
    assert sampling.repeat_share([[0, 1, 0, 2, 0]], 2) == pytest.approx(2 / 3)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda m: sampling.sample("lstm", 4, 1.0), "model must be a trained model"),
        (lambda m: sampling.sample(m, 0, 1.0), "n"),
        (lambda m: sampling.sample(m, 4, 0.0), "temperature"),
        (lambda m: sampling.repeat_share([[0, 1]], 2), "k"),
        (lambda m: sampling.repeat_share([0, 1, 2], 1), "x must be a 2-D array"),
    ],
)
def test_bad_input_is_refused_by_name(model, call, message):
    with pytest.raises(ValueError, match=message):
        call(model)
