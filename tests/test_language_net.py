"""The next-symbol networks: each cell's gradient against central differences, block by block, for a whole string
and for a window that starts from a carried state; truncation cuts exactly what it says; a string gets the same
bits alone as in a batch; the forward pass does not see the future."""

import numpy as np
import pytest

from chapter09.language import net

EPS = 1e-5  # central differences in float64: truncation ~EPS², rounding ~1e-16/EPS
V = 3


def tiny(cell: int, seed: int = 3):
    """A model of ``cell`` with weights N(0, 0.5²), biases included, and 2 strings of 5 symbols."""
    rng = np.random.default_rng(seed)
    at, size = net.layout(cell, V)
    return at, 0.5 * rng.normal(size=size), rng.integers(0, V, (2, 5)).astype(np.int8)


def state_after(cell, theta, at, strings, steps):
    """The state (h, c) the first ``steps`` symbols leave."""
    trace = net.new_trace(steps, strings.shape[0], net.WIDTH[cell], V)
    net.forward(cell, theta, at, net.inputs_of(strings, V)[:steps], trace)
    return trace[0][steps].copy(), trace[1][steps].copy()


def window_loss(cell, theta, at, strings, start, stop, state=None):
    """The loss of symbols ``start … stop − 1`` and its truncated gradient, read from ``state`` (h, c) held fixed,
    by default the state the first ``start`` symbols leave under ``theta``."""
    inputs, targets = net.inputs_of(strings, V), np.ascontiguousarray(strings.T.astype(np.int64))
    n = strings.shape[0]
    state = state_after(cell, theta, at, strings, start) if state is None else state
    trace = net.new_trace(stop - start, n, net.WIDTH[cell], V)
    trace[0][0], trace[1][0] = state
    weights = np.full((stop - start, n), 0.1)
    lanes, grad = np.empty((theta.size, n)), np.empty(theta.size)
    loss = net.window_gradient(cell, theta, at, inputs[start:stop], targets[start:stop], weights, trace, lanes, grad)
    return loss, grad, state


def central_differences(f, theta):
    out = np.empty(theta.size)
    for i in range(theta.size):
        up, down = theta.copy(), theta.copy()
        up[i] += EPS
        down[i] -= EPS
        out[i] = (f(up) - f(down)) / (2 * EPS)
    return out


@pytest.mark.parametrize("start", [0, 2])  # the whole string; a window from a carried state, held fixed
@pytest.mark.parametrize("cell", net.CELLS)
def test_backward_matches_central_differences_block_by_block(cell, start):
    cell = net.CELLS.index(cell)
    at, theta, strings = tiny(cell)
    _, grad, state = window_loss(cell, theta, at, strings, start, 5)
    expected = central_differences(lambda th: window_loss(cell, th, at, strings, start, 5, state)[0], theta)
    for k, name in enumerate(net.BLOCKS):
        block = slice(at[k, 0], at[k, 0] + at[k, 1] * at[k, 2])
        if block.stop > block.start:
            error = np.linalg.norm(grad[block] - expected[block]) / np.linalg.norm(expected[block])
            assert error < 1e-6, (name, error)


@pytest.mark.parametrize("cell", net.CELLS)
def test_truncation_drops_exactly_the_gradient_through_the_carried_state(cell):
    """A window's truncated gradient is the whole string's gradient of that window's loss less what flows back
    into the state it started from: the whole gradient of the late symbols' loss, minus the truncated one, is what
    central differences give when only the early steps see θ move."""
    cell = net.CELLS.index(cell)
    at, theta, strings = tiny(cell)

    def late_loss(early, late):  # the late symbols' loss, the first two steps read with θ ``early``
        return window_loss(cell, late, at, strings, 2, 5, state_after(cell, early, at, strings, 2))[0]

    whole = central_differences(lambda th: late_loss(th, th), theta)
    through_state = central_differences(lambda th: late_loss(th, theta), theta)
    _, truncated, _ = window_loss(cell, theta, at, strings, 2, 5)
    assert np.linalg.norm(through_state) > 1e-3  # the cut gradient is not nothing
    np.testing.assert_allclose(truncated, whole - through_state, atol=1e-8)


@pytest.mark.parametrize("cell", net.CELLS)
def test_a_string_gets_the_same_bits_alone_as_in_a_batch(cell):
    cell = net.CELLS.index(cell)
    at, theta, _ = tiny(cell)
    strings = np.random.default_rng(1).integers(0, V, (4, 7)).astype(np.int8)
    together = net.symbol_losses(cell, theta, at, strings)
    for s in range(4):
        assert np.array_equal(net.symbol_losses(cell, theta, at, strings[s : s + 1])[0], together[s])


@pytest.mark.parametrize("cell", net.CELLS)
def test_a_symbols_loss_does_not_read_the_symbols_after_it(cell):
    cell = net.CELLS.index(cell)
    at, theta, strings = tiny(cell)
    before = net.symbol_losses(cell, theta, at, strings)
    changed = strings.copy()
    changed[:, 3] = (changed[:, 3] + 1) % V
    after = net.symbol_losses(cell, theta, at, changed)
    assert np.array_equal(after[:, :3], before[:, :3]) and not np.array_equal(after[:, 3:], before[:, 3:])


def test_the_layouts_hold_each_cells_blocks():
    sizes = {c: net.layout(net.CELLS.index(c), 4)[1] for c in net.CELLS}
    H = net.H
    assert sizes == {
        "rnn": 5 * H + H * H + H + H * 4 + 4,
        "gru": 5 * 3 * H + H * 2 * H + H * H + 3 * H + H * 4 + 4,
        "lstm": 5 * 4 * H + H * 4 * H + 4 * H + H * 4 + 4,
    }
