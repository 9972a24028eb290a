"""Rätsch/IDA benchmark data sets (Rätsch, Onoda & Müller 2001).

The data home holds ``raetsch/<name>.npz`` files: a pattern pool ``X`` (float64),
labels ``y`` in {-1, +1}, and for eight sets the index matrices ``train_idx``,
``test_idx`` of the predefined train/test realisations 1-10 (``realisation`` gives the
1-based IDA number of each row).  Only realisations 1-10 exist here (of 100, or 20
for image and splice); thyroid, flare_solar and splice are pools without splits.

Download path
-------------
A missing ``raetsch/<name>.npz`` is assembled on first use
(:mod:`svmtext.datasets._ida`) from the original IDA ``.asc`` split files of
realisations 1-10 (GitHub ``fernando2393/Relevance-Vector-Machine`` at commit
``4692830b9a8cf938e6b319be4a42e2a3ddde5457`` for banana, breast_cancer, german, image,
titanic, waveform; ``povelfk/AdvML19-Project-RVM`` at commit
``fe15c4dc66753005760c5286ec295f1c2afec61c`` for heart and ringnorm) and the pattern
pools ``twin_datasets/<name>.mat`` of ``Devn913/AGMR_entropy_sparse`` at commit
``7d5f7cfd8ca4c0f7130bfda3201084db5c093174`` (stored as
``raetsch/original_mat/<name>.mat``, sha256-verified).  Every assembled array is
checked against a registered digest of the book's canonical copy before the file is
written, so the assembled file equals that copy bit for bit.

References
----------
G. Rätsch, T. Onoda, K.-R. Müller, "Soft margins for AdaBoost", Machine Learning
43(3):287-320, 2001.  T. Diethe, "13 benchmark datasets derived from the UCI, DELVE
and STATLOG repositories", 2015, doi:10.5281/zenodo.18110.
"""
from __future__ import annotations

import numpy as np

from ._fetch import fetch

__all__ = ["load_raetsch", "load_raetsch_pool", "RAETSCH_SPLIT_NAMES", "RAETSCH_POOL_NAMES"]

#: Sets with predefined train/test realisations (1-10 available).
RAETSCH_SPLIT_NAMES = ("banana", "breast_cancer", "german", "heart", "image", "ringnorm",
                       "titanic", "waveform")
#: Sets available only as a pattern pool (no splits).
RAETSCH_POOL_ONLY = ("thyroid", "flare_solar", "splice")
#: Every available set.
RAETSCH_POOL_NAMES = RAETSCH_SPLIT_NAMES + RAETSCH_POOL_ONLY


def _check_name(name: str) -> None:
    if name not in RAETSCH_POOL_NAMES:
        raise ValueError(f"unknown Rätsch/IDA data set {name!r}; valid names: "
                         f"{', '.join(RAETSCH_POOL_NAMES)} (diabetis and twonorm are not available)")


def load_raetsch_pool(name: str) -> tuple[np.ndarray, np.ndarray]:
    """Load the whole pattern pool of a Rätsch/IDA benchmark set.

    Parameters
    ----------
    name : str
        One of ``banana, breast_cancer, german, heart, image, ringnorm, titanic,
        waveform, thyroid, flare_solar, splice``.

    Returns
    -------
    X : ndarray of float64, shape (n, d)
        banana 5300 x 2, breast_cancer 277 x 9, german 1000 x 20, heart 270 x 13,
        image 2310 x 18, ringnorm 7400 x 20, titanic 2201 x 3, waveform 5000 x 21,
        thyroid 215 x 5, flare_solar 1066 x 9, splice 3175 x 60.
    y : ndarray of int64, shape (n,)
        Labels in {-1, +1} as in the IDA files.

    Notes
    -----
    Read from ``raetsch/<name>.npz`` (assembled on first use; see the module
    docstring).  For heart and ringnorm the pool is realisation 1 (training rows,
    then test rows).
    """
    _check_name(name)
    with np.load(fetch(f"raetsch/{name}.npz")) as d:
        return d["X"].astype(np.float64), d["y"].astype(np.int64)


def load_raetsch(name: str, realisation: int = 0
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Load one predefined train/test realisation of a Rätsch/IDA benchmark set.

    Parameters
    ----------
    name : str
        One of ``banana, breast_cancer, german, heart, image, ringnorm, titanic,
        waveform`` (thyroid, flare_solar and splice have no splits here: use
        :func:`load_raetsch_pool`).
    realisation : int, default 0
        0-based row of the stored realisations, i.e. IDA realisation
        ``realisation + 1``; 0 <= realisation < 10.

    Returns
    -------
    Xtr, ytr, Xte, yte : ndarrays
        float64 patterns and int64 labels in {-1, +1}; rows in the order of the
        original ``.asc`` files.  Train/test sizes: banana 400/4900,
        breast_cancer 200/77, german 700/300, heart 170/100, image 1300/1010,
        ringnorm 400/7000, titanic 150/2051, waveform 400/4600.

    Raises
    ------
    ValueError
        Unknown name, a pool without splits, or realisation out of range.
    DataNotFoundError
        ``raetsch/<name>.npz`` is missing and its sources could not be downloaded.
    """
    _check_name(name)
    if name in RAETSCH_POOL_ONLY:
        raise ValueError(f"{name!r} is available only as a pattern pool without predefined "
                         f"splits; use load_raetsch_pool({name!r}). Sets with splits: "
                         f"{', '.join(RAETSCH_SPLIT_NAMES)}")
    with np.load(fetch(f"raetsch/{name}.npz")) as d:
        n_real = d["train_idx"].shape[0]
        if not (isinstance(realisation, (int, np.integer)) and 0 <= realisation < n_real):
            raise ValueError(f"realisation must be an integer in [0, {n_real}) "
                             f"(IDA realisations {d['realisation'].min()}..{d['realisation'].max()}), "
                             f"got {realisation!r}")
        X, y = d["X"].astype(np.float64), d["y"].astype(np.int64)
        tr, te = d["train_idx"][realisation], d["test_idx"][realisation]
    return X[tr], y[tr], X[te], y[te]
