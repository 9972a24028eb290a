"""ProPublica's COMPAS recidivism data (Broward County, Florida).

Download sources (raw files at pinned commits, verified by sha256):
``compas-scores-two-years.csv`` from GitHub ``propublica/compas-analysis``
(commit ``bafff5da3f2e45eca6c2d5055faad269defd135a``), and FairML's copy
``propublica_data_for_fairml.csv`` from GitHub ``adebayoj/fairml``
(commit ``efda59866db312419dc3dea047c94862cc21d485``).
"""
from __future__ import annotations

import csv

import numpy as np
from sklearn.utils import Bunch

from ._fetch import fetch

__all__ = ["load_compas", "COMPAS_FEATURES", "load_compas_fairml", "COMPAS_FAIRML_FEATURES"]

#: Columns of ``X`` returned by :func:`load_compas`.
COMPAS_FEATURES = ("age", "sex_male", "priors_count", "juv_fel_count", "juv_misd_count",
                   "juv_other_count", "charge_felony")


def _keep(row: dict) -> bool:
    """ProPublica's analysis filter."""
    days = row["days_b_screening_arrest"]
    if days == "" or not -30 <= float(days) <= 30:
        return False
    return row["is_recid"] != "-1" and row["c_charge_degree"] != "O" and row["score_text"] != "N/A"


def load_compas(filtered: bool = True) -> Bunch:
    """Load the COMPAS two-year recidivism data.

    Criminal defendants screened with the COMPAS risk tool in Broward County,
    Florida, 2013-2014, followed for two years.  The task: predict two-year
    recidivism from a few defendant attributes; race is the sensitive attribute.

    Parameters
    ----------
    filtered : bool, default True
        Apply ProPublica's analysis filter (``days_b_screening_arrest`` within
        [-30, 30], ``is_recid != -1``, ``c_charge_degree != 'O'``,
        ``score_text != 'N/A'``): 6,172 rows (two_year_recid 0: 3,363, 1: 2,809).
        If False, all 7,214 rows (0: 3,963, 1: 3,251).

    Returns
    -------
    sklearn.utils.Bunch
        With fields

        - ``X`` : ndarray of float64, shape (n, 7), columns :data:`COMPAS_FEATURES`:
          age (years), sex_male (1 male, 0 female), priors_count, juv_fel_count,
          juv_misd_count, juv_other_count, charge_felony (1 if ``c_charge_degree``
          is 'F', 0 for 'M').  Race and the COMPAS scores are *not* in ``X``.
        - ``y`` : ndarray of int64, shape (n,), ``two_year_recid`` (1 reoffended
          within two years, 0 not).
        - ``race`` : ndarray of str, shape (n,), the sensitive attribute as recorded
          (African-American, Caucasian, Hispanic, Other, Asian, Native American).
        - ``sensitive`` : ndarray of int64, 1 for African-American, 0 otherwise.
        - ``decile_score`` : ndarray of int64, the COMPAS recidivism decile (1-10).
        - ``score_text`` : ndarray of str, 'Low', 'Medium' or 'High'.
        - ``feature_names`` : list of str.

    Notes
    -----
    File ``compas/compas-scores-two-years.csv``.  The repository states no licence.

    References
    ----------
    J. Angwin, J. Larson, S. Mattu, L. Kirchner, "Machine Bias", ProPublica, 2016;
    J. Larson, S. Mattu, L. Kirchner, J. Angwin, "How we analyzed the COMPAS
    recidivism algorithm", ProPublica, 2016.
    """
    with open(fetch("compas/compas-scores-two-years.csv"), newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    if filtered:
        rows = [r for r in rows if _keep(r)]
    X = np.array([[float(r["age"]), float(r["sex"] == "Male"), float(r["priors_count"]),
                   float(r["juv_fel_count"]), float(r["juv_misd_count"]),
                   float(r["juv_other_count"]), float(r["c_charge_degree"] == "F")]
                  for r in rows], dtype=np.float64).reshape(len(rows), len(COMPAS_FEATURES))
    race = np.array([r["race"] for r in rows], dtype=str)
    return Bunch(
        X=X,
        y=np.array([int(r["two_year_recid"]) for r in rows], dtype=np.int64),
        race=race,
        sensitive=(race == "African-American").astype(np.int64),
        decile_score=np.array([int(r["decile_score"]) for r in rows], dtype=np.int64),
        score_text=np.array([r["score_text"] for r in rows], dtype=str),
        feature_names=list(COMPAS_FEATURES),
    )


#: Columns of ``X`` returned by :func:`load_compas_fairml` (FairML's names and order).
COMPAS_FAIRML_FEATURES = ("Number_of_Priors", "score_factor", "Age_Above_FourtyFive",
                          "Age_Below_TwentyFive", "African_American", "Asian", "Hispanic",
                          "Native_American", "Other", "Female", "Misdemeanor")


def load_compas_fairml() -> Bunch:
    """Load FairML's copy of the COMPAS data (the copy Kanamori et al. 2019 used).

    The 6,172 defendants left by ProPublica's analysis filter, as eleven columns
    prepared by Adebayo's FairML: all 0/1 except ``Number_of_Priors``.

    Returns
    -------
    sklearn.utils.Bunch
        With fields

        - ``X`` : ndarray of float64, shape (6172, 11), columns
          :data:`COMPAS_FAIRML_FEATURES` (``score_factor`` 1 for a COMPAS score other
          than 'Low'; five race dummies, Caucasian being the all-zero row; ``Female``;
          ``Misdemeanor`` 1 for a misdemeanour charge).
        - ``y`` : ndarray of int64, ``Two_yr_Recidivism`` (0: 3,363, 1: 2,809).
        - ``sensitive`` : ndarray of int64, the ``African_American`` column (1: 3,175).
        - ``feature_names`` : list of str.

    Notes
    -----
    File ``compas/propublica_data_for_fairml.csv``; MIT licence (the FairML repository).

    References
    ----------
    J. Adebayo, "FairML: Auditing black-box predictive models",
    https://github.com/adebayoj/fairml, 2018.
    """
    with open(fetch("compas/propublica_data_for_fairml.csv"), newline="",
              encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    X = np.array([[float(r[c]) for c in COMPAS_FAIRML_FEATURES] for r in rows],
                 dtype=np.float64).reshape(len(rows), len(COMPAS_FAIRML_FEATURES))
    sensitive = X[:, COMPAS_FAIRML_FEATURES.index("African_American")].astype(np.int64)
    return Bunch(X=X, y=np.array([int(r["Two_yr_Recidivism"]) for r in rows], dtype=np.int64),
                 sensitive=sensitive, feature_names=list(COMPAS_FAIRML_FEATURES))
