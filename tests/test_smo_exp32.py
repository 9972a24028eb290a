"""The float32 RBF columns' exp (svmtext.smo._exp32): the bits of the C library's exp,
rounded to float32, everywhere, including the values it has to make again."""
import numpy as np
import pytest
from numba import njit

from svmtext.smo import _core
from svmtext.smo._exp32 import MARGIN, X_MIN, _fast_pass, exp_near, rbf_single


@njit(cache=False)
def _library_exp(xs):
    out = np.empty_like(xs)
    for k in range(len(xs)):
        out[k] = np.exp(xs[k])
    return out


@njit(cache=False)
def _near(xs):
    out = np.empty_like(xs)
    for k in range(len(xs)):
        out[k] = exp_near(xs[k])
    return out


def _reference(dots, sq_rows, sq_c, gamma):
    """The C library's exp, one value at a time: rbf_from_dots' float64 loop on the
    float32 values made float64 (exactly), its results rounded to float32, as the
    float32 loop stored them."""
    out = _core.rbf_from_dots(dots.astype(np.float64), sq_rows.astype(np.float64),
                              sq_c, gamma)
    dots[:] = out.astype(np.float32)
    return dots


def test_exp_near_is_within_two_to_the_minus_50():
    """The bound the rounding test relies on (MARGIN = 2^-46 leaves a factor 16)."""
    rng = np.random.default_rng(0)
    xs = np.concatenate([-rng.random(20_000_000) * -X_MIN, [0.0, -0.0, -1e-300, X_MIN],
                         -np.log(2.0) * np.arange(0, 159) + 1e-12])
    xs = xs[(xs >= X_MIN) & (xs <= 0)]
    rel = np.abs(_near(xs) / _library_exp(xs) - 1.0)
    assert rel.max() < 2.0 ** -50
    assert MARGIN >= 16 * 2.0 ** -50


def _inputs(rng, m):
    """Inner products, squared norms and the norm of the column: MNIST-like values."""
    sq_rows = (rng.random(m) * 100 + 20).astype(np.float32)
    dots = (rng.random(m) * 60).astype(np.float32)
    return dots, sq_rows, float(rng.random() * 100 + 20)


@pytest.mark.parametrize("gamma", [0.02, 1.0, 30.0, 0.0])
def test_same_bits_as_the_library_exp(gamma):
    rng = np.random.default_rng(1)
    dots, sq_rows, sq_c = _inputs(rng, 200_000)
    dots[:6] = [np.nan, np.inf, -np.inf, 1e30, -1e30, 0.0]
    expected = _reference(dots.copy(), sq_rows, sq_c, gamma)
    got = rbf_single(dots.copy(), sq_rows, sq_c, gamma)
    assert np.array_equal(got.view(np.int32), expected.view(np.int32))
    # and through rbf_from_dots, serial and threaded (float32: this path)
    for f in (_core.rbf_from_dots, _core.rbf_from_dots_threads):
        got = f(dots.copy(), sq_rows, sq_c, gamma)
        assert np.array_equal(got.view(np.int32), expected.view(np.int32))


def test_values_at_a_rounding_boundary_are_made_again():
    """Exponents whose exp lies within a few float64 units of a float32 midpoint: the
    fast value cannot decide them, so they are made again with the library's exp (and
    the fast value alone would round some of them the other way)."""
    rng = np.random.default_rng(2)
    v = np.float32(rng.random(20_000) * 0.9 + 0.05)
    mid = (v.astype(np.float64) + np.nextafter(v, np.float32(1)).astype(np.float64)) / 2
    x = np.log(mid)                                      # exp(x) within an ulp of mid
    sq_rows = np.zeros(len(x), dtype=np.float32)
    # x = -gamma * dist with dist = sq_c: one column per value
    expected, got, unsettled, fast_wrong = [], [], 0, 0
    for xk in x[:2000]:
        sq_c, gamma = 1.0, -float(xk)
        one = np.zeros(1, dtype=np.float32)
        expected.append(_reference(one.copy(), sq_rows[:1], sq_c, gamma)[0])
        out = np.empty(1, dtype=np.float32)
        unsettled += _fast_pass(one.copy(), sq_rows[:1], sq_c, gamma, out)
        fast_wrong += out[0] != expected[-1]
        got.append(rbf_single(one.copy(), sq_rows[:1], sq_c, gamma)[0])
    assert np.array_equal(np.array(got).view(np.int32), np.array(expected).view(np.int32))
    assert unsettled > 1000 and fast_wrong > 0


def test_positive_exponents_go_to_the_library():
    """gamma < 0 (not an RBF kernel, but rbf_from_dots does not check): exp of x > 0."""
    rng = np.random.default_rng(3)
    dots, sq_rows, sq_c = _inputs(rng, 1000)
    expected = _reference(dots.copy(), sq_rows, sq_c, -0.01)
    got = rbf_single(dots.copy(), sq_rows, sq_c, -0.01)
    assert np.array_equal(got.view(np.int32), expected.view(np.int32))
