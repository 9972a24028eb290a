"""MNIST handwritten digits (LeCun, Cortes & Burges) and the 4-versus-9 task.

Download source: the public mirror ``https://ossci-datasets.s3.amazonaws.com/mnist/``
of the four IDX files first published at ``http://yann.lecun.com/exdb/mnist/``; the
bytes are checked against the sha256 of the canonical files.
"""
from __future__ import annotations

import gzip

import numpy as np

from ._fetch import fetch

__all__ = ["load_mnist", "load_mnist_4v9"]

_FILES = {
    "train": ("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz"),
    "test": ("t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz"),
}


def _read_idx(path) -> np.ndarray:
    """Decode a gzipped IDX file (big-endian: magic, dimensions, then uint8 data)."""
    with gzip.open(path, "rb") as fh:
        b = fh.read()
    if b[0] != 0 or b[1] != 0 or b[2] != 0x08:
        raise ValueError(f"{path}: not an unsigned-byte IDX file")
    nd = b[3]
    shape = tuple(int(v) for v in np.frombuffer(b, ">u4", nd, 4))
    return np.frombuffer(b, np.uint8, offset=4 + 4 * nd).reshape(shape).copy()


def _check_split(split: str) -> None:
    if split not in _FILES:
        raise ValueError(f"split must be 'train' or 'test', got {split!r}")


def load_mnist(split: str = "train") -> tuple[np.ndarray, np.ndarray]:
    """Load the MNIST handwritten digits.

    MNIST holds 28 x 28 grey-level images of the digits 0-9: 60,000 training and
    10,000 test images, in the canonical order of the LeCun IDX files.

    Parameters
    ----------
    split : {'train', 'test'}, default 'train'

    Returns
    -------
    X : ndarray of uint8, shape (60000, 784) or (10000, 784)
        Pixels 0-255, each image flattened row by row.
    y : ndarray of uint8, shape (n,)
        Digit labels 0-9.

    Notes
    -----
    Source: ``train-images-idx3-ubyte.gz``, ``train-labels-idx1-ubyte.gz``,
    ``t10k-images-idx3-ubyte.gz``, ``t10k-labels-idx1-ubyte.gz`` under
    ``<data home>/mnist/``; downloaded if missing from the public mirror
    ``https://ossci-datasets.s3.amazonaws.com/mnist/`` and checked by sha256.

    References
    ----------
    Y. LeCun, L. Bottou, Y. Bengio, P. Haffner, "Gradient-based learning applied to
    document recognition", Proc. IEEE 86(11):2278-2324, 1998.
    Y. LeCun, C. Cortes, C. J. C. Burges, "The MNIST database of handwritten digits".
    """
    _check_split(split)
    img, lab = _FILES[split]
    X = _read_idx(fetch(f"mnist/{img}"))
    y = _read_idx(fetch(f"mnist/{lab}"))
    if X.shape[0] != y.shape[0]:
        raise ValueError("MNIST images and labels differ in length")
    return X.reshape(X.shape[0], -1), y


def load_mnist_4v9(split: str = "train", scale: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Load the binary MNIST task fours versus nines.

    Parameters
    ----------
    split : {'train', 'test'}, default 'train'
        Training set: 11,791 images (5,842 fours, 5,949 nines); test set: 1,991
        (982 fours, 1,009 nines).  Images keep their order in the MNIST files.
    scale : bool, default True
        If True, return pixels as float64 in [0, 1] (divided by 255); otherwise the
        raw uint8 values 0-255.

    Returns
    -------
    X : ndarray, shape (n, 784)
        float64 in [0, 1] when ``scale``, else uint8.
    y : ndarray of int64, shape (n,)
        +1 for the digit 9, -1 for the digit 4.

    Notes
    -----
    Same files and source as :func:`load_mnist`.
    """
    X, digits = load_mnist(split)
    keep = (digits == 4) | (digits == 9)
    X, digits = X[keep], digits[keep]
    y = np.where(digits == 9, 1, -1).astype(np.int64)
    if scale:
        X = X.astype(np.float64) / 255.0
    return X, y
