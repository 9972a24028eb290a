"""The readings of the source's isolated and spirals sets: Weka's folds, the spirals'
labels, the isolated family's seeds."""
import numpy as np
import pytest

from svmtext.experiments import psvm_generators as pg


def test_weka_stratify_sorts_by_class_then_deals_round_robin():
    y = np.array([1, 0, 1, 1, 0, 0, 1, 0])
    # the swapping pass groups the classes in the order they first appear (1 first)
    order = pg._weka_stratify(np.arange(8), y, 2)
    assert y[order].tolist() == [1, 1, 0, 0, 1, 1, 0, 0]
    assert sorted(order.tolist()) == list(range(8))


@pytest.mark.parametrize("scheme", pg.FOLDS)
def test_folds_partition_the_rows(scheme):
    _, y = pg.spirals_reading(pg.CONFIG["spirals"]["readings"]["weka"])
    folds = pg.reading_folds(y, scheme, 10, 1)
    tests = np.concatenate([te for _, te in folds])
    assert sorted(tests.tolist()) == list(range(194))
    for tr, te in folds:
        assert len(tr) + len(te) == 194 and not set(tr) & set(te)
    # Weka's testCV: the first 194 % 10 = 4 folds one row longer
    assert [len(te) for _, te in folds] == [20] * 4 + [19] * 6
    if scheme != "unshuffled":      # stratified: each test fold nearly balanced
        assert all(abs(2 * np.sum(y[te]) - len(te)) <= 1 for _, te in folds)


def test_unshuffled_folds_of_the_arms_are_pieces_of_one_arm():
    _, y = pg.spirals_reading(pg.CONFIG["spirals"]["readings"]["arms/unshuffled"])
    folds = pg.reading_folds(y, "unshuffled", 10, 1)
    assert folds[0][1].tolist() == list(range(20))
    # every test fold holds one class, but the fifth (the end of one arm, the start
    # of the other)
    assert [len(set(y[te])) for _, te in folds] == [1] * 4 + [2] + [1] * 5


def test_spirals_labels():
    base = dict(pg.CONFIG["spirals"]["readings"]["weka"])
    X, y = pg.spirals_reading(base)
    i = np.arange(194) // 2                     # interleaved rows: point i, its mirror
    for labels, n_classes in (("alternating", 2), ("pairs", 97), ("halves", 4)):
        Xl, yl = pg.spirals_reading(dict(base, labels=labels))
        np.testing.assert_array_equal(Xl, X)
        assert yl.max() + 1 == n_classes
    _, ya = pg.spirals_reading(dict(base, labels="alternating"))
    np.testing.assert_array_equal(ya == y, i % 2 == 0)
    _, yp = pg.spirals_reading(dict(base, labels="pairs"))
    np.testing.assert_array_equal(yp, i)
    with pytest.raises(ValueError, match="unknown labels"):
        pg.spirals_reading(dict(base, labels="rings"))
    with pytest.raises(ValueError, match="needs the Lang-Witbrock points"):
        pg.spirals_reading(dict(base, points="random", n=200, labels="pairs"))
    with pytest.raises(ValueError, match="unknown folds"):
        pg.reading_folds(y, "leave_one_out", 10, 1)


def test_isolated_seeds_skip_draws_that_cannot_be_placed():
    iso = dict(pg.CONFIG["isolated"], n_seeds=3, max_seed=3)
    assert pg.isolated_seeds(3, 0.1, iso) == [0, 1, 2]
    # eight pockets 0.6 apart do not fit in [0.1, 0.9]^2: no draw, no member
    iso = dict(iso, max_seed=1)
    assert pg.isolated_seeds(8, 0.2, iso) == [] and pg._placed(8, 0.2, iso) == []
