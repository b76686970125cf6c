"""The spectral radius: Gelfand's formula against the eigenvalues, on hard matrices and on stacks, and the
refined eigenvalue it is checked against (``chapter09.spectral``)."""

import numpy as np
import pytest

from chapter09 import rnn_draw, spectral


@pytest.mark.parametrize("seed", range(50))
def test_gelfand_radius_matches_the_eigenvalues(seed):
    A = np.random.default_rng(seed).standard_normal((10, 10)) * (0.1 + seed / 10)
    assert spectral.gelfand_radius(A) == pytest.approx(max(abs(np.linalg.eigvals(A))), rel=1e-9)


@pytest.mark.parametrize(
    "A, rho",
    [
        ([[0.0, -1.0], [1.0, 0.0]], 1.0),  # rotation: a complex pair
        ([[0.5, 1e3], [0.0, 0.5]], 0.5),  # Jordan block, very non-normal
        ([[0.0, 1.0], [0.0, 0.0]], 0.0),  # nilpotent
        ([[0.0]], 0.0),
        ([[3.0, 0.0], [0.0, -3.0]], 3.0),  # two eigenvalues of equal modulus
        ([[1e150, 0.0], [0.0, 1.0]], 1e150),  # no overflow on the way
    ],
)
def test_gelfand_radius_on_hard_matrices(A, rho):
    assert spectral.gelfand_radius(np.array(A)) == pytest.approx(rho, rel=1e-9, abs=1e-300)


def test_radius_is_homogeneous_as_the_sweep_assumes():
    W0 = rnn_draw.draw(seed=4).W0
    for s in (0.05, 0.8, 2.0, 3.7):
        assert spectral.gelfand_radius(s * W0) == pytest.approx(s * spectral.gelfand_radius(W0), rel=1e-9)


@pytest.mark.parametrize("A", [np.zeros((2, 3)), np.zeros((0, 0)), np.array([[np.nan]]), np.ones(3)])
def test_gelfand_rejects_what_is_not_a_finite_square_matrix(A):
    with pytest.raises(ValueError, match="^A must"):
        spectral.gelfand_radius(A)


def test_gelfand_radius_of_a_stack_is_the_radius_of_each_matrix():
    stack = rnn_draw.draws(range(4)).W0 * np.array([0.5, 1.0, 2.0, 0.0])[:, None, None]
    radii = spectral.gelfand_radius(stack)
    assert radii.shape == (4,) and radii[3] == 0.0
    for A, rho in zip(stack, radii):
        assert rho == pytest.approx(spectral.gelfand_radius(A), rel=1e-12)


def test_the_eigenvalue_reference_is_refined_beyond_lapack():
    for seed in (0, 2, 7):
        A = rnn_draw.draw(seed=seed).W0 * 0.8
        ref = spectral.eigen_radius(A)
        assert ref == pytest.approx(max(abs(np.linalg.eigvals(A))), rel=1e-13)
    A = np.array([[0.6, 0.25], [0.1, 0.4]])  # eigenvalues 0,5 ± √0,035: refined to the last bit or so
    assert abs(spectral.eigen_radius(A) - (0.5 + np.sqrt(0.035))) < 2e-16


def test_gelfand_refuses_work_of_more_than_a_few_seconds():
    with pytest.raises(ValueError, match=r"^A must keep squarings·matrices·n³ at most 7,500,000,000"):
        spectral.gelfand_radius(np.eye(2000))
