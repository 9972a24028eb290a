"""The three data sets of the LIBSVM practical guide: svmguide1, svmguide2, svmguide3.

C.-W. Hsu, C.-C. Chang and C.-J. Lin, *A Practical Guide to Support Vector
Classification* (National Taiwan University, 2003, revised since), use three problems
that users had sent them after failing to get good accuracy (book:
:ref:`sec-practice-guide`):

=============  ===============  =======  ======  ========  =======
name           application      train    test    features  classes
=============  ===============  =======  ======  ========  =======
svmguide1      Astroparticle    3,089    4,000   4         2
svmguide2      Bioinformatics   391      --      20        3
svmguide3      Vehicle          1,243    41      21 (22)   2
=============  ===============  =======  ======  ========  =======

The files are in LIBSVM's sparse text format ``label index:value ...``; a missing
index is a zero. In svmguide3 index 22 is ``22:0`` on every line, so the array has 22
columns of which 21 are informative (the guide's table says 21); svmguide3.t holds
only class +1.
"""
from __future__ import annotations

import numpy as np

from ._fetch import fetch

__all__ = ["load_svmguide", "parse_libsvm", "SVMGUIDE_NAMES"]

#: Number of columns (largest feature index) of each set.
_N_FEATURES = {"svmguide1": 4, "svmguide2": 20, "svmguide3": 22}
SVMGUIDE_NAMES = tuple(_N_FEATURES)


def parse_libsvm(path, n_features: int) -> tuple[np.ndarray, np.ndarray]:
    """Read a file in LIBSVM's sparse format into a dense ``(X, y)``.

    Each line is ``label index:value index:value ...`` with 1-based, ascending
    indices; absent indices are zeros. Line ends may be LF or CRLF.

    Parameters
    ----------
    path : path-like
    n_features : int
        Number of columns of ``X`` (at least the largest index in the file).

    Returns
    -------
    X : ndarray of float64, shape (n, n_features)
    y : ndarray of float64, shape (n,)
    """
    X, y = [], []
    with open(path) as fh:                      # text mode reads CRLF lines as LF
        for number, line in enumerate(fh, 1):
            tokens = line.split()
            if not tokens:
                continue
            row = np.zeros(n_features)
            for token in tokens[1:]:
                index, value = token.split(":")
                k = int(index)
                if not 1 <= k <= n_features:
                    raise ValueError(f"{path}, line {number}: feature index {k} outside "
                                     f"1..{n_features}")
                row[k - 1] = float(value)
            X.append(row)
            y.append(float(tokens[0]))
    return np.array(X).reshape(-1, n_features), np.array(y)


def load_svmguide(name: str, split: str = "train") -> tuple[np.ndarray, np.ndarray]:
    """Load one of the guide's data sets.

    Parameters
    ----------
    name : {'svmguide1', 'svmguide2', 'svmguide3'}
        Astroparticle, Bioinformatics, Vehicle.
    split : {'train', 'test'}
        svmguide2 has no test file (the guide reports its cross-validation rate).

    Returns
    -------
    X : ndarray of float64, shape (n, 4 | 20 | 22)
        As in the file: unscaled, column 22 of svmguide3 all zero.
    y : ndarray of int64, shape (n,)
        svmguide1: 0/1; svmguide2: 1, 2, 3; svmguide3: -1/+1.

    Notes
    -----
    Files ``svmguide/<name>`` and ``svmguide/<name>.t`` (the LIBSVM data sets page;
    sources and checksums in :mod:`svmtext.datasets._registry`).

    References
    ----------
    C.-W. Hsu, C.-C. Chang, C.-J. Lin, "A Practical Guide to Support Vector
    Classification", Department of Computer Science, National Taiwan University
    (2003, revised). C.-C. Chang, C.-J. Lin, LIBSVM data sets.
    """
    if name not in _N_FEATURES:
        raise ValueError(f"unknown guide data set {name!r}; use one of {SVMGUIDE_NAMES}")
    if split not in ("train", "test"):
        raise ValueError(f"split must be 'train' or 'test'; got {split!r}")
    if split == "test" and name == "svmguide2":
        raise ValueError("svmguide2 has no test file: the guide reports 5-fold "
                         "cross-validation on its 391 training points")
    relpath = f"svmguide/{name}" + (".t" if split == "test" else "")
    X, y = parse_libsvm(fetch(relpath), _N_FEATURES[name])
    return X, y.astype(np.int64)
