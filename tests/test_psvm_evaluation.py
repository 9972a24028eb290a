"""The prototype SVM's evaluation helpers (book: sec-psvm-evaluation): the data sets with
label noise, the stratified folds, and the batch of linear SVMs behind every step."""
import numpy as np
import pytest

from svmtext.psvm._evaluation import fold_indices, load_dataset
from svmtext.psvm._linear import fit_linear_svms


def test_unknown_data_set_is_named():
    with pytest.raises(ValueError, match="unknown data set 'wine'"):
        load_dataset("wine")


@pytest.mark.parametrize("name", ["striated", "glass"])
def test_label_noise_moves_that_share_of_labels_to_another_class(name):
    X, y = load_dataset(name)
    Xn, yn = load_dataset(name, noise=0.2, noise_seed=3)
    np.testing.assert_array_equal(X, Xn)                   # the points do not move
    assert set(np.unique(y)) == set(range(len(np.unique(y))))   # labels are 0..K-1
    changed = yn != y
    assert changed.sum() == round(0.2 * len(y))            # exactly that share, each to
    assert set(np.unique(yn)) <= set(np.unique(y))          # another existing class
    again = load_dataset.__wrapped__(name, noise=0.2, noise_seed=3)[1]
    np.testing.assert_array_equal(again, yn)               # seeded, not cached luck
    other = load_dataset.__wrapped__(name, noise=0.2, noise_seed=4)[1]
    assert not np.array_equal(other, yn)


def test_folds_partition_the_points_and_are_stratified():
    _, y = load_dataset("glass")
    tests = [fold_indices(y, 10, f, seed=1)[1] for f in range(10)]
    everything = np.sort(np.concatenate(tests))
    np.testing.assert_array_equal(everything, np.arange(len(y)))   # each point once
    for f in range(10):
        tr, te = fold_indices(y, 10, f, seed=1)
        assert len(np.intersect1d(tr, te)) == 0 and len(tr) + len(te) == len(y)
    # stratified: a class's share of any test fold is within one point of its share
    counts = np.bincount(y)
    for te in tests:
        in_fold = np.bincount(y[te], minlength=len(counts))
        assert np.all(np.abs(in_fold - counts * len(te) / len(y)) <= 1 + 1e-9)
    with pytest.raises(ValueError, match="fold 10 out of range for 10 folds"):
        fold_indices(y, 10, 10, seed=1)


def test_linear_svms_batch():
    rng = np.random.default_rng(0)
    X = np.r_[rng.normal(-2, 0.5, (20, 2)), rng.normal(2, 0.5, (20, 2))]
    sets = [(np.arange(20, 40), np.arange(20)), (np.arange(20), np.arange(20, 40))]
    tol = 1e-6
    models = fit_linear_svms(X, sets, C=10.0, tol=tol)
    F = models.decision_function(X)
    assert F.shape == (40, 2)
    np.testing.assert_allclose(F, X @ models.coef_.T + models.intercept_)
    # separable: each model puts its positives on the positive side, and the two
    # models are one hyperplane with opposite orientations (the same dual with the labels
    # swapped; both stop within tol of its optimum)
    assert np.all(F[20:, 0] > 0) and np.all(F[:20, 0] < 0)
    np.testing.assert_allclose(F[:, 1], -F[:, 0], atol=100 * tol)
    assert np.all(models.gap_ < tol)
    empty = fit_linear_svms(X, [])
    assert empty.decision_function(X).shape == (40, 0)
    with pytest.raises(ValueError, match="at least one positive and one negative"):
        fit_linear_svms(X, [(np.arange(3), np.array([], dtype=int))])
