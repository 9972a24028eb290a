"""NumPy's own BLAS from compiled code (svmtext._blas): NumPy's bits for its products."""
import numpy as np
import pytest

from svmtext._blas import matmul_abt, matvec, numpy_blas
from svmtext.smo._columns import loop_blocks_are_numpys, loop_products_are_numpys

BLAS = np.array(numpy_blas())
needs_blas = pytest.mark.skipif(not BLAS.all(), reason="NumPy's BLAS functions not found "
                                "(the loop keeps numba's np.dot)")

SHAPES = [(2, 2, 2), (2, 3, 5), (7, 5, 9), (33, 40, 784), (300, 256, 22), (1001, 13, 8),
          (1, 5, 3), (5, 1, 3), (4, 4, 1), (1, 1, 6)]


@needs_blas
@pytest.mark.parametrize("m, n, k", SHAPES)
def test_products_have_numpys_bits(m, n, k):
    """A @ B.T, A @ x, one row's A @ Y.T and a one-row matrix-vector product, bit for bit
    NumPy's (the values scaled over orders of magnitude, so that any other order of
    summation shows)."""
    rng = np.random.default_rng(m * 1000 + n * 10 + k)
    A = rng.standard_normal((m, k)) * 10.0 ** rng.uniform(-4, 4, k)
    B = rng.standard_normal((n, k)) * 10.0 ** rng.uniform(-4, 4, k)
    C = matmul_abt(BLAS[0], A, B)
    assert C.shape == (m, n)
    assert np.array_equal(C.view(np.int64), (A @ B.T).view(np.int64))
    v = rng.standard_normal(n)
    assert np.array_equal(matvec(BLAS, C, v), C @ v)
    assert np.array_equal(matvec(BLAS, A, B[0]), A @ B[0])
    assert np.array_equal(matvec(BLAS, A, B[0]), (A @ B[[0]].T)[:, 0])


def test_without_the_addresses_numba_computes_the_same_values():
    rng = np.random.default_rng(1)
    A, B = rng.standard_normal((30, 7)), rng.standard_normal((20, 7))
    np.testing.assert_allclose(matmul_abt(0, A, B), A @ B.T, rtol=1e-13, atol=1e-13)
    np.testing.assert_allclose(matvec(np.zeros(3, np.int64), A, B[0]), A @ B[0],
                               rtol=1e-13, atol=1e-13)


@needs_blas
def test_the_loop_has_numpys_bits_wherever_numpys_blas_is_found():
    """With NumPy's own functions and NumPy's arguments the compiled loop's columns,
    kernel blocks and products agree with NumPy's whatever BLAS kernels run (SciPy's
    separate OpenBLAS build did not under OPENBLAS_CORETYPE=Haswell): the loop makes
    the gradient reconstruction itself on dense data."""
    assert loop_products_are_numpys()
    assert loop_blocks_are_numpys()
