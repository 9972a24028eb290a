"""SMOSVC(n_jobs=...): threads share out the kernel columns by rows, one thread per row's
sum in the same order, so the fit is the same bit for bit for every number of threads."""
import joblib
import numpy as np
import pytest

from svmtext.smo import KernelColumns, SMOSVC, smo_solve
from svmtext.smo._estimator import column_threads
from svmtext.svr import SMOSVR


def _data(n, d, zeros, seed):
    """Labels from a curved boundary (many support vectors); ``zeros``: the share of
    entries set to 0 (0.8: MNIST-like, the compiled sparse columns)."""
    rng = np.random.default_rng(seed)
    X = rng.random((n, d))
    X[rng.random((n, d)) < zeros] = 0.0
    s = X @ rng.standard_normal(d)
    y = np.where(s > np.median(s) + 0.3 * np.sin(5 * X[:, 0]), 1, -1)
    return X, y


# dense: 700 x 20 is past OpenBLAS's size for a threaded matrix-vector product;
# sparse: 2,500 rows are three blocks of sparse_dot_column
DATA = {"dense": (700, 20, 0.0), "sparse": (2500, 100, 0.8)}
PARAMS = {"rbf": {"gamma": 0.5}, "linear": {}, "poly": {"gamma": 0.2, "coef0": 1.0}}


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("kernel", ["rbf", "linear", "poly"])
@pytest.mark.parametrize("data", ["dense", "sparse"])
def test_same_fit_for_every_n_jobs(data, kernel, dtype):
    X, y = _data(*DATA[data], seed=len(kernel))
    C = 10.0 if kernel != "linear" else 0.5
    fits = [SMOSVC(C=C, kernel=kernel, dtype=dtype, n_jobs=k, **PARAMS[kernel]).fit(X, y)
            for k in (None, 1, 2)]
    ref = fits[0]
    assert ref.fit_info_["converged"] and len(ref.support_) > 20
    for f in fits[1:]:
        np.testing.assert_array_equal(f.alpha_, ref.alpha_)
        assert f.intercept_[0] == ref.intercept_[0]
        assert f.n_iter_ == ref.n_iter_


@pytest.mark.parametrize("kernel", ["rbf", "poly"])
def test_compiled_dense_columns_same_bits_with_threads(kernel):
    """The compiled dense column (kernel_column) against its threaded twin."""
    X, y = _data(1500, 30, 0.0, seed=3)
    res = [smo_solve(KernelColumns(X, kernel, gamma=0.1, coef0=1.0, compiled_columns=True,
                                   n_threads=k), np.where(y > 0, 1.0, -1.0), 10.0)
           for k in (1, 2)]
    np.testing.assert_array_equal(res[1].alpha, res[0].alpha)
    assert (res[1].b, res[1].n_iter) == (res[0].b, res[0].n_iter)


def test_svr_same_fit_for_every_n_jobs():
    X, _ = _data(1200, 100, 0.8, seed=5)
    z = np.sin(4 * X[:, 0]) + X[:, 1]
    a, b = (SMOSVR(C=5.0, gamma=0.1, n_jobs=k).fit(X, z) for k in (1, 2))
    np.testing.assert_array_equal(a.dual_coef_, b.dual_coef_)
    assert (a.intercept_[0], a.n_iter_) == (b.intercept_[0], b.n_iter_)


def test_threads_keep_the_compiled_columns():
    X, _ = _data(50, 10, 0.8, seed=0)
    assert KernelColumns(X, "rbf").compiled_source()[0] == 3
    assert KernelColumns(X, "rbf", n_threads=2).compiled_source()[0] == 3
    # BLAS threads for NumPy's columns only (dense data, no compiled kernel)
    assert not KernelColumns(X, "rbf").numpy_columns
    assert KernelColumns(X + 1.0, "rbf").numpy_columns
    assert not KernelColumns(X + 1.0, "rbf", compiled_columns=True).numpy_columns


def test_column_threads_meaning():
    assert column_threads(None) == column_threads(1) == 1
    assert column_threads(2) == 2
    assert column_threads(-1) == joblib.cpu_count()


@pytest.mark.parametrize("bad", [0, 1.5, "2"])
def test_bad_n_jobs(bad):
    X, y = _data(20, 3, 0.0, seed=0)
    with pytest.raises(ValueError, match="n_jobs"):
        SMOSVC(n_jobs=bad).fit(X, y)
    with pytest.raises(ValueError, match="n_threads"):
        KernelColumns(X, n_threads=0)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_column_blocks_have_the_single_columns_bits(dtype):
    """sparse_dot_columns (several columns per pass over a block of rows, and its
    threaded twin) against sparse_dot_column, one column at a time: every bit, for
    columns of 0 to 40 non-zero features (the four-at-a-time steps and the rest) and
    rows past a block: 9,500 rows, a block of 8,192 and a part for one column at a time
    (_core._COLUMN_BLOCK), nine blocks of 1,024 and a part for several columns and for
    the threads (_core._ROW_BLOCK)."""
    from svmtext.smo._core import _COLUMN_BLOCK, _ROW_BLOCK
    n = 9500
    assert n > _COLUMN_BLOCK and n % _COLUMN_BLOCK and n % _ROW_BLOCK
    from scipy.sparse import csr_matrix

    from svmtext.smo import _core
    rng = np.random.default_rng(7)
    X = rng.standard_normal((n, 60)).astype(dtype) * 10.0 ** rng.uniform(-3, 3, 60)
    X[rng.random(X.shape) < 0.75] = 0.0
    X[:41] = 0.0
    for k in range(41):                      # point k has k non-zero features
        X[k, rng.choice(60, k, replace=False)] = rng.standard_normal(k)
    XT = np.ascontiguousarray(X.T)
    csr = csr_matrix(X)
    cols = np.concatenate([np.arange(41), rng.choice(n, 30, replace=False)])
    single = np.empty((len(cols), n), dtype=dtype)
    for k, c in enumerate(cols):
        lo, hi = csr.indptr[c], csr.indptr[c + 1]
        _core.sparse_dot_column(XT, csr.indices[lo:hi], csr.data[lo:hi], single[k])
    # a sum of p = 60 products in the columns' precision: within p eps sum |x_rf x_cf|
    X64 = X.astype(np.float64)
    bound = 60 * np.finfo(dtype).eps * (abs(X64) @ abs(X64[cols]).T).T
    assert np.all(abs(single - (X64 @ X64[cols].T).T) <= bound)
    threaded = np.full_like(single, np.nan)
    for k, c in enumerate(cols):
        lo, hi = csr.indptr[c], csr.indptr[c + 1]
        _core.sparse_dot_column_threads(XT, csr.indices[lo:hi], csr.data[lo:hi], threaded[k])
    assert np.array_equal(threaded.view(f"i{single.itemsize}"),
                          single.view(f"i{single.itemsize}"))
    for dots in (_core.sparse_dot_columns, _core.sparse_dot_columns_threads):
        block = np.full((len(cols), n), np.nan, dtype=dtype)
        dots(XT, csr.indptr, csr.indices, csr.data, cols, block)
        assert np.array_equal(block.view(f"i{block.itemsize}"),
                              single.view(f"i{single.itemsize}"))


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("kernel", ["rbf", "linear"])
@pytest.mark.parametrize("n_threads", [1, 2])
def test_block_into_has_the_blocks_bits(dtype, kernel, n_threads):
    """KernelColumns.block_into (sparse_kernel_rows: the reconstruction's layout, rows
    a block at a time) against KernelColumns.block, every bit, at the columns ``ks`` of
    a float64 array, the other columns untouched; rows in no order, over two blocks and
    a part, and a set of rows and columns that ends inside a block."""
    X, _ = _data(700, 100, 0.8, 5)
    kc = KernelColumns(X, kernel, gamma=0.3, dtype=dtype, sparse_columns=True,
                       n_threads=n_threads)
    rng = np.random.default_rng(3)
    for rows, cols in ((rng.permutation(700)[:600], rng.choice(700, 37, replace=False)),
                       (np.arange(5, 262), np.arange(3))):
        expected = kc.block(rows, cols)
        out = np.full((len(rows), len(cols) + 4), -7.0)
        ks = rng.permutation(len(cols) + 4)[:len(cols)]
        assert kc.block_into(rows, cols, out, ks)
        assert np.array_equal(out[:, ks], expected.astype(np.float64))
        rest = np.setdiff1d(np.arange(len(cols) + 4), ks)
        assert np.all(out[:, rest] == -7.0)
    assert not KernelColumns(X, "poly", sparse_columns=True).block_into(rows, cols, out, ks)
