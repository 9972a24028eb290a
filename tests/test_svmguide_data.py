"""The LIBSVM guide's data sets (book: sec-practice-guide)."""
import os

import numpy as np
import pytest

from svmtext.datasets import SVMGUIDE_NAMES, load_svmguide, parse_libsvm

needs_data = pytest.mark.skipif(
    not os.path.isdir(os.path.join(os.environ.get("SVMTEXT_DATA", ""), "svmguide")),
    reason="SVMTEXT_DATA has no svmguide folder")


@needs_data
@pytest.mark.parametrize("name, split, shape, counts", [
    ("svmguide1", "train", (3089, 4), {0: 1089, 1: 2000}),
    ("svmguide1", "test", (4000, 4), {0: 2000, 1: 2000}),
    ("svmguide2", "train", (391, 20), {1: 221, 2: 117, 3: 53}),
    ("svmguide3", "train", (1243, 22), {-1: 947, 1: 296}),
    ("svmguide3", "test", (41, 22), {1: 41}),
])
def test_shapes_and_counts(name, split, shape, counts):
    X, y = load_svmguide(name, split)
    assert X.shape == shape
    labels, n = np.unique(y, return_counts=True)
    assert dict(zip(labels.tolist(), n.tolist())) == counts
    if name == "svmguide3":
        assert np.all(X[:, 21] == 0)          # index 22 is 22:0 on every line


def test_bad_arguments():
    assert SVMGUIDE_NAMES == ("svmguide1", "svmguide2", "svmguide3")
    with pytest.raises(ValueError, match="unknown guide data set"):
        load_svmguide("svmguide4")
    with pytest.raises(ValueError, match="no test file"):
        load_svmguide("svmguide2", "test")
    with pytest.raises(ValueError, match="split must be"):
        load_svmguide("svmguide1", "validation")


def test_parse_libsvm_crlf_and_missing_indices(tmp_path):
    p = tmp_path / "toy"
    p.write_bytes(b"+1 1:0.5 3:-2\r\n-1 2:1e-1\r\n")
    X, y = parse_libsvm(p, 3)
    assert np.array_equal(X, [[0.5, 0, -2], [0, 0.1, 0]]) and np.array_equal(y, [1, -1])
    with pytest.raises(ValueError, match="feature index 3 outside"):
        parse_libsvm(p, 2)
