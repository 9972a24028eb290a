"""Small UCI benchmark sets: Ionosphere, Sonar, German credit (numeric), Glass,
Statlog Vehicle and Statlog Image Segmentation.

Download source: the UCI Machine Learning Repository archive,
``https://archive.ics.uci.edu/ml/machine-learning-databases/...``, verified against the
sha256 of the canonical copies in the book's data folder.  For ``vehicle/xa?.dat`` and
``segment/segment.dat`` the data folder notes that the exact UCI byte form (trailing
spaces; row order) could not be confirmed: should the archive's bytes differ, the
download stops with a :class:`ChecksumError` rather than loading different data.
"""
from __future__ import annotations

import numpy as np

from ._fetch import fetch

__all__ = ["load_ionosphere", "load_sonar", "load_german_numeric", "load_glass",
           "load_vehicle", "load_segment"]

_VEHICLE_PARTS = [f"xa{c}.dat" for c in "abcdefghi"]


def load_ionosphere() -> tuple[np.ndarray, np.ndarray]:
    """Load the Johns Hopkins University Ionosphere radar data.

    351 radar returns, 34 continuous attributes (17 pulse numbers, real and imaginary
    parts); attribute 2 (column 1) is constant 0.

    Returns
    -------
    X : ndarray of float64, shape (351, 34)
    y : ndarray of int64, shape (351,)
        +1 for a "good" return ('g', 225), -1 for "bad" ('b', 126).

    Notes
    -----
    File ``ionosphere/ionosphere.data`` (UCI archive ``ionosphere/ionosphere.data``).

    References
    ----------
    V. G. Sigillito, S. P. Wing, L. V. Hutton, K. B. Baker, "Classification of radar
    returns from the ionosphere using neural networks", Johns Hopkins APL Technical
    Digest 10:262-266, 1989.  UCI Machine Learning Repository.
    """
    raw = np.loadtxt(fetch("ionosphere/ionosphere.data"), delimiter=",", dtype=str)
    return raw[:, :34].astype(float), np.where(raw[:, 34] == "g", 1, -1).astype(np.int64)


def load_sonar() -> tuple[np.ndarray, np.ndarray]:
    """Load the Sonar data (mines versus rocks).

    208 sonar returns, 60 band energies in [0, 1].

    Returns
    -------
    X : ndarray of float64, shape (208, 60)
    y : ndarray of int64, shape (208,)
        +1 for a metal cylinder (mine, 'M', 111), -1 for a rock ('R', 97).

    Notes
    -----
    File ``sonar/sonar.all-data`` (UCI archive
    ``undocumented/connectionist-bench/sonar/sonar.all-data``).

    References
    ----------
    R. P. Gorman, T. J. Sejnowski, "Analysis of hidden units in a layered network
    trained to classify sonar targets", Neural Networks 1:75-89, 1988.
    """
    raw = np.loadtxt(fetch("sonar/sonar.all-data"), delimiter=",", dtype=str)
    return raw[:, :60].astype(float), np.where(raw[:, 60] == "M", 1, -1).astype(np.int64)


def load_german_numeric() -> tuple[np.ndarray, np.ndarray]:
    """Load the Statlog German credit data, numeric version.

    1,000 loan applicants with 24 integer attributes (the categorical attributes
    coded numerically by Strathclyde University for StatLog).  The documentation
    gives a cost matrix: predicting "good" for a bad customer costs 5, the reverse 1.

    Returns
    -------
    X : ndarray of float64, shape (1000, 24)
    y : ndarray of int64, shape (1000,)
        +1 good credit risk (class 1, 700), -1 bad (class 2, 300).

    Notes
    -----
    File ``german_numeric/german.data-numeric`` (UCI archive
    ``statlog/german/german.data-numeric``).

    References
    ----------
    H. Hofmann, Statlog (German Credit Data), Universität Hamburg; UCI Machine
    Learning Repository.
    """
    A = np.loadtxt(fetch("german_numeric/german.data-numeric"))
    return A[:, :24], np.where(A[:, 24] == 1, 1, -1).astype(np.int64)


def load_glass() -> tuple[np.ndarray, np.ndarray]:
    """Load the Glass Identification data (multi-class).

    214 glass fragments, 9 attributes (refractive index and the oxides Na, Mg, Al,
    Si, K, Ca, Ba, Fe); the Id column is dropped.

    Returns
    -------
    X : ndarray of float64, shape (214, 9)
    y : ndarray of int64, shape (214,)
        Glass type 1, 2, 3, 5, 6, 7 (counts 70, 76, 17, 13, 9, 29; no type 4).

    Notes
    -----
    File ``glass/glass.data`` (UCI archive ``glass/glass.data``).

    References
    ----------
    B. German, Home Office Forensic Science Service, 1987; UCI Machine Learning
    Repository.
    """
    A = np.loadtxt(fetch("glass/glass.data"), delimiter=",")
    return A[:, 1:10], A[:, 10].astype(np.int64)


def load_vehicle() -> tuple[np.ndarray, np.ndarray]:
    """Load the Statlog Vehicle Silhouettes data (multi-class).

    846 silhouettes, 18 integer shape features, four vehicle classes.

    Returns
    -------
    X : ndarray of float64, shape (846, 18)
    y : ndarray of str, shape (846,)
        'bus' (218), 'saab' (217), 'opel' (212), 'van' (199).

    Notes
    -----
    The nine files ``vehicle/xaa.dat`` ... ``vehicle/xai.dat`` read in that order
    (UCI archive ``statlog/vehicle/``).

    References
    ----------
    Statlog (Vehicle Silhouettes), Turing Institute, Glasgow; UCI Machine Learning
    Repository.
    """
    parts = [np.loadtxt(fetch(f"vehicle/{name}"), dtype=str) for name in _VEHICLE_PARTS]
    raw = np.concatenate(parts)
    return raw[:, :18].astype(float), raw[:, 18]


def load_segment() -> tuple[np.ndarray, np.ndarray]:
    """Load the Statlog Image Segmentation data (multi-class).

    2,310 3 x 3 regions of outdoor images, 19 continuous attributes (attribute 3,
    region-pixel-count, is constant 9), seven classes of 330 regions each.

    Returns
    -------
    X : ndarray of float64, shape (2310, 19)
    y : ndarray of int64, shape (2310,)
        1 brickface, 2 sky, 3 foliage, 4 cement, 5 window, 6 path, 7 grass.

    Notes
    -----
    File ``segment/segment.dat`` (UCI archive ``statlog/segment/segment.dat``).

    References
    ----------
    Vision Group, University of Massachusetts (donor C. Brodley), 1990; Statlog;
    UCI Machine Learning Repository.
    """
    A = np.loadtxt(fetch("segment/segment.dat"))
    return A[:, :19], A[:, 19].astype(np.int64)
