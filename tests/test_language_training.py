"""The next-symbol trainings: models side by side learn bit for bit what they learn alone, every window gives the
same forward pass, the weights are drawn as documented, and bad input is refused by name."""

import numpy as np
import pytest

from chapter09.language import net, training
from chapter09.language.source import LN2


def same(a, b) -> bool:
    return a.bits == b.bits and np.array_equal(a.loss, b.loss) and np.array_equal(a.theta, b.theta)


def test_models_side_by_side_learn_bit_for_bit_what_they_learn_alone():
    runs = ((3, 1), (5, 0), (3, 0))
    together = training.train_many("gru", 12, runs, steps=20)
    alone = [training.train_many("gru", 12, (run,), steps=20)[0] for run in runs]
    assert all(same(a, b) for a, b in zip(together, alone)) and not same(together[0], together[2])
    assert [(m.k, m.seed) for m in together] == list(runs)


@pytest.mark.parametrize("cell", training.CELLS)
def test_a_short_training_lowers_the_loss_from_the_uniforms(cell):
    m = training.train(cell, 2, steps=60)
    assert m.loss[0] == pytest.approx(np.log(training.V), rel=0.2)  # about the uniform's log V at the start
    assert m.loss[-10:].mean() < m.loss[:10].mean()


def test_a_batchs_loss_is_its_mean_per_symbol_before_the_update():
    whole, cut = training.train("lstm", 2, steps=1), training.train("lstm", 2, window=12, steps=1)
    assert not np.array_equal(whole.theta, cut.theta)  # four updates against one
    c = net.CELLS.index("lstm")
    at, _ = net.layout(c, training.V)
    theta = training.init(c, training.streams(0)[0])
    batch = training.draw(training.streams(0)[1], 2, training.P, (1, training.BATCH, training.LENGTH), training.V)[0]
    per_symbol = net.symbol_losses(c, theta, at, batch)
    assert whole.loss[0] == pytest.approx(per_symbol.mean(), rel=1e-12)


def test_the_initial_weights_are_drawn_as_documented():
    c = net.CELLS.index("lstm")
    at, _ = net.layout(c, training.V)
    theta = training.init(c, np.random.default_rng(0))
    block = {name: theta[at[k, 0] : at[k, 0] + at[k, 1] * at[k, 2]] for k, name in enumerate(net.BLOCKS)}
    H = net.H
    assert block["b"].tolist() == [0.0] * H + [1.0] * H + [0.0] * 2 * H and not block["b_out"].any()
    assert abs(block["U"].std() * np.sqrt(H) - 1) < 0.1 and abs(block["W"].std() - 1) < 0.15


def test_bits_are_nats_over_ln_2_from_position_k():
    m = training.train("rnn", 3, steps=5)
    c = net.CELLS.index("rnn")
    at, _ = net.layout(c, training.V)
    test = training.draw(training.streams(0)[2], 3, training.P, (training.N_TEST, training.LENGTH), training.V)
    assert m.bits == pytest.approx(net.symbol_losses(c, np.asarray(m.theta), at, test)[:, 3:].mean() / LN2, rel=1e-12)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: training.train("elman", 2), "cell must be one of rnn, gru, lstm"),
        (lambda: training.train("rnn", 0), "k"),
        (lambda: training.train("rnn", 2, window=5), "window must divide 48"),
        (lambda: training.train("rnn", 2, steps=0), "steps"),
    ],
)
def test_bad_input_is_refused_by_name(call, message):
    with pytest.raises(ValueError, match=message):
        call()
