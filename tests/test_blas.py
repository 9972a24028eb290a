"""NumPy's own BLAS from compiled code (svmtext._blas): NumPy's bits for its products."""
import numpy as np
import pytest

from svmtext import _blas
from svmtext._blas import matmul_abt, matvec, numpy_blas
from svmtext.datasets.toy import make_smo_problem
from svmtext.smo import SMOSVC
from svmtext.smo import _columns, _loop

BLAS = np.array(numpy_blas())
needs_blas = pytest.mark.skipif(not BLAS.all(), reason="NumPy's BLAS functions not found "
                                "(the loop keeps numba's np.dot)")

# (m, n, k): A is m x k, B is n x k; every special case of NumPy's matmul
SHAPES = [(2, 2, 2), (2, 3, 5), (7, 5, 9), (33, 40, 784), (300, 256, 22), (1001, 13, 8),
          (1, 5, 3), (5, 1, 3), (4, 4, 1), (1, 1, 6), (1, 1, 1), (3, 1, 1), (1, 3, 1)]


def test_numpys_functions_are_found_where_numpy_bundles_its_openblas():
    """A look-up that stopped finding them would leave every other test here skipped."""
    config = np.__config__.CONFIG["Build Dependencies"]["blas"]
    bundled = config.get("name") == "scipy-openblas" and \
        "USE64BITINT" in str(config.get("openblas configuration"))
    assert BLAS.all() == bundled


@needs_blas
@pytest.mark.parametrize("m, n, k", SHAPES)
def test_products_have_numpys_bits(m, n, k):
    """A @ B.T, A @ x and one row's A @ Y.T bit for bit NumPy's (the values scaled over
    orders of magnitude, so that any other order of summation shows)."""
    rng = np.random.default_rng(m * 1000 + n * 10 + k)
    A = rng.standard_normal((m, k)) * 10.0 ** rng.uniform(-4, 4, k)
    B = rng.standard_normal((n, k)) * 10.0 ** rng.uniform(-4, 4, k)
    C = matmul_abt(BLAS, A, B)
    assert C.shape == (m, n)
    assert np.array_equal(C.view(np.int64), (A @ B.T).view(np.int64))
    v = rng.standard_normal(n)
    assert np.array_equal(matvec(BLAS, C, v).view(np.int64), (C @ v).view(np.int64))
    assert np.array_equal(matvec(BLAS, A, B[0]), A @ B[0])
    assert np.array_equal(matvec(BLAS, A, B[0]), (A @ B[[0]].T)[:, 0])


def test_other_operands_take_numbas_product():
    """No addresses, float32, a strided view, mismatched lengths: numba's np.dot (the
    same values; an error where the shapes do not fit)."""
    rng = np.random.default_rng(1)
    A, B = rng.standard_normal((30, 7)), rng.standard_normal((20, 7))
    close = {"rtol": 1e-12, "atol": 1e-12}
    np.testing.assert_allclose(matmul_abt(np.zeros(3, np.int64), A, B), A @ B.T, **close)
    np.testing.assert_allclose(matvec(np.zeros(3, np.int64), A, B[0]), A @ B[0], **close)
    A32, B32 = A.astype(np.float32), B.astype(np.float32)
    np.testing.assert_allclose(matmul_abt(BLAS, A32, B32), A32 @ B32.T, rtol=1e-5)
    np.testing.assert_allclose(matvec(BLAS, A32, B32[0]), A32 @ B32[0], rtol=1e-5)
    wide = rng.standard_normal((30, 14))
    np.testing.assert_allclose(matmul_abt(BLAS, wide[:, ::2], B), wide[:, ::2] @ B.T, **close)
    np.testing.assert_allclose(matvec(BLAS, A, wide[0, ::2]), A @ wide[0, ::2], **close)
    with pytest.raises(ValueError):
        matvec(BLAS, A, B[0, :5].copy())


@needs_blas
def test_the_loop_has_numpys_bits_wherever_numpys_blas_is_found():
    """With NumPy's own functions and NumPy's arguments the compiled loop's columns,
    kernel blocks and products agree with NumPy's whatever BLAS kernels run (SciPy's
    separate OpenBLAS build did not under OPENBLAS_CORETYPE=Haswell): the loop makes
    the gradient reconstruction itself on dense data."""
    assert _columns.loop_products_are_numpys()
    assert _columns.loop_blocks_are_numpys()


def test_the_same_fits_without_numpys_functions(monkeypatch):
    """Without the addresses the loop runs numba's products and its checks decide what
    it may compute itself; the fits are the same, bit for bit (dense data, shrinking,
    the three kernels)."""
    problems = [make_smo_problem(seed, scaled=False) for seed in range(12)]

    def fits():
        out = []
        for X, y, kernel, params, C in problems:
            clf = SMOSVC(C=C, kernel=kernel, **params).fit(X, y)
            out.append((clf.alpha_.tobytes(), float(clf.intercept_[0]), int(clf.n_iter_)))
        return out

    reference = fits()
    checks = (_columns.loop_products_are_numpys, _columns.loop_blocks_are_numpys)
    monkeypatch.setattr(_loop, "numpy_blas", lambda: (0, 0, 0))
    monkeypatch.setattr(_blas, "numpy_blas", lambda: (0, 0, 0))
    for check in checks:
        check.cache_clear()
    try:
        assert fits() == reference
    finally:
        for check in checks:
            check.cache_clear()
