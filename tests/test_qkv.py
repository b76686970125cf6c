"""Attention as the Transformer computes it (chapter09.qkv): the formula, heads, the mask, positions,
and the three demonstrations the page glues."""

import math

import numpy as np
import pytest

from chapter09 import qkv, qkv_properties


def naive(q, k, v, causal=False):
    """softmax(QKᵀ/√d_k)V with numpy's own arithmetic: the formula, to compare with to rounding."""
    scores = q @ k.T / math.sqrt(q.shape[1])
    if causal:
        scores = np.where(np.tril(np.ones(scores.shape, dtype=bool)), scores, -np.inf)
    e = np.exp(scores - scores.max(axis=1, keepdims=True))
    w = e / e.sum(axis=1, keepdims=True)
    return w, w @ v


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("seed", range(5))
def test_attention_is_the_formula(seed, causal):
    rng = np.random.default_rng(seed)
    q, k, v = rng.standard_normal((6, 4)), rng.standard_normal((6, 4)), rng.standard_normal((6, 3))
    a = qkv.attention(q, k, v, causal=causal)
    w, out = naive(q, k, v, causal)
    np.testing.assert_allclose(a.weights, w, rtol=1e-14, atol=1e-300)
    np.testing.assert_allclose(a.output, out, rtol=1e-13, atol=1e-15)
    assert np.all(np.abs(a.weights.sum(axis=1) - 1) <= 4 * 2.0**-53)
    if causal:  # nothing above the diagonal: exact zeros
        assert np.all(a.weights[np.triu_indices(6, 1)] == 0.0)


def test_cross_attention_reads_another_sequence():
    """Queries from 3 decoder steps, keys and values from 5 encoder tokens: weights 3 × 5."""
    layer, rng = qkv.random_layer(8, 2, 0), np.random.default_rng(1)
    s, h = rng.standard_normal((3, 8)), rng.standard_normal((5, 8))
    m = qkv.multi_head(s, layer, memory=h)
    assert m.weights.shape == (2, 3, 5) and m.output.shape == (3, 8)
    q, k, v = s @ layer.w_q, h @ layer.w_k, h @ layer.w_v
    outs = [naive(q[:, i * 4 : i * 4 + 4], k[:, i * 4 : i * 4 + 4], v[:, i * 4 : i * 4 + 4])[1] for i in range(2)]
    np.testing.assert_allclose(m.output, np.hstack(outs) @ layer.w_o, rtol=1e-12, atol=1e-14)


def test_heads_cut_the_columns_and_one_head_is_the_whole_width():
    m = np.arange(12.0).reshape(2, 6)
    np.testing.assert_array_equal(qkv.head(m, 1, 3), [[2.0, 3.0], [8.0, 9.0]])
    layer, x = qkv.random_layer(4, 1, 2), qkv.tokens(5, 4, 3)
    whole = qkv.attention(x @ layer.w_q, x @ layer.w_k, x @ layer.w_v)
    np.testing.assert_allclose(qkv.multi_head(x, layer).output, whole.output @ layer.w_o, rtol=1e-12)


def test_sinusoidal_positions_are_vaswanis():
    pe = qkv.sinusoidal_positions(50, 16)
    p, i = 37, 5
    assert pe[p, 2 * i] == pytest.approx(math.sin(p / 10000 ** (2 * i / 16)), abs=qkv.GRID / 2)
    assert pe[p, 2 * i + 1] == pytest.approx(math.cos(p / 10000 ** (2 * i / 16)), abs=qkv.GRID / 2)
    assert np.array_equal(np.rint(pe / qkv.GRID) * qkv.GRID, pe)  # on the grid
    assert np.all(np.abs(pe) <= 1) and len({tuple(r) for r in pe}) == 50  # every position its own vector


def test_no_position_lies_near_a_midpoint_of_the_grid_over_the_whole_range():
    for d in range(1, 65):  # what a machine's last bits could round the other way: none
        qkv.sinusoidal_positions(512, d)


def test_the_causal_mask_is_lower_triangular():
    mask = qkv.causal_mask(4)
    assert mask.dtype == bool and mask.sum() == 10 and np.all(mask == np.tril(mask))


@pytest.mark.parametrize("seed", range(10))
def test_without_positions_a_permutation_gives_the_same_bits(seed):
    """Any permutation, not only the reversal the page prints: the output permuted alike, to the bit."""
    layer, x = qkv.random_layer(8, 2, seed), qkv.tokens(7, 8, seed + 100)
    perm = np.random.default_rng(seed).permutation(7)
    assert np.array_equal(qkv.multi_head(x[perm], layer).output, qkv.multi_head(x, layer).output[perm])
    s = qkv.tokens(4, 8, seed + 200)
    assert np.array_equal(qkv.multi_head(s, layer, memory=x[perm]).output, qkv.multi_head(s, layer, memory=x).output)


def test_ordinary_sums_would_not_give_the_same_bits():
    """Why the sums over the positions are math.fsum: numpy's, in the order of the positions, round the
    permuted sentence otherwise in some of the draws (a difference of a few 10⁻¹⁶)."""
    off = 0
    for seed in range(20):
        rng = np.random.default_rng(seed)
        q, k, v = rng.standard_normal((7, 4)), rng.standard_normal((7, 4)), rng.standard_normal((7, 4))
        perm = rng.permutation(7)
        off += not np.array_equal(naive(q[perm], k[perm], v[perm])[1], naive(q, k, v)[1][perm])
        a, b = qkv.attention(q[perm], k[perm], v[perm]).output, qkv.attention(q, k, v).output[perm]
        assert np.array_equal(a, b)
    assert off > 0


def test_the_demonstrations_as_the_page_glues_them():
    e, m = qkv_properties.equivariance(), qkv_properties.mask_test()
    assert e.blind == 0.0 and e.cross_blind == 0.0
    assert min(e.with_positions, e.cross_with_positions) > qkv_properties.CLEAR * e.scale
    assert m.masked_before == 0.0 and m.unchanged == 6 and m.masked[-1] > 0
    assert m.unmasked_before > qkv_properties.CLEAR * e.scale and np.all(m.unmasked > 0)


@pytest.mark.parametrize("changed", range(7))
def test_the_mask_keeps_every_output_before_the_changed_token(changed):
    m = qkv_properties.mask_test(changed=changed)
    assert np.all(m.masked[:changed] == 0.0) and np.all(m.masked[changed:] > 0)
    assert m.unchanged == changed


@pytest.mark.parametrize("a, b", [*qkv_properties.PAIRS, (-3.5, 1e5), (0.1, 0.2)])
def test_one_head_returns_the_mean_and_two_heads_both(a, b):
    h = qkv_properties.heads_example(a, b)
    assert h.one_weights == (0.5, 0.5, 0.0) and h.two_weights == ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0))
    assert h.one_head == 0.5 * a + 0.5 * b and h.two_heads == (a, b)


def test_the_shares_over_the_draws():
    r = qkv_properties.robustness(20)
    assert (r.blind_exact, r.masked_exact, r.positions_clear, r.unmasked_clear) == (1.0, 1.0, 1.0, 1.0)
    assert r.least_positions > qkv_properties.CLEAR and r.least_unmasked > qkv_properties.CLEAR


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: qkv.attention(np.ones((2, 3)), np.ones((2, 4)), np.ones((2, 1))), "k"),
        (lambda: qkv.attention(np.ones((2, 3)), np.ones((2, 3)), np.ones((3, 1))), "v"),
        (lambda: qkv.attention(np.ones((1, 3)), np.ones((2, 3)), np.ones((2, 1)), causal=True), "causal"),
        (lambda: qkv.attention(np.full((1, 1), 1e200), np.full((1, 1), 1e200), np.ones((1, 1))), "q and k"),
        (lambda: qkv.random_layer(8, 3), "n_heads"),
        (lambda: qkv.head(np.ones((2, 4)), 2, 2), "i"),
        (lambda: qkv.multi_head(np.ones((2, 4)), qkv.random_layer()), "x"),
        (lambda: qkv.multi_head(np.ones((2, 8)), qkv.random_layer(), causal=True, memory=np.ones((3, 8))), "causal"),
        (lambda: qkv_properties.mask_test(changed=7), "changed"),
        (lambda: qkv_properties.equivariance(length=1), "length"),
        (lambda: qkv_properties.heads_example(2e6, 1.0), "a"),
        (lambda: qkv.sinusoidal_positions(0, 4), "length"),
    ],
)
def test_bad_input_is_refused_by_name(call, name):
    with pytest.raises(ValueError, match=rf"^{name} must"):
        call()
