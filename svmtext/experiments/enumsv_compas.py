r"""Top-50 SVM models on COMPAS with injected label flips: demographic parity and error
(book: :ref:`sec-enumsv-compas`).

``python -m svmtext.experiments.enumsv_compas`` (``--smoke`` for the reduced run)

Kanamori et al. (2019), section 5.2, with the numbers the extracted text lost chosen
here (``CONFIG``): from ProPublica's filtered COMPAS data (6,172 defendants; features
:data:`svmtext.datasets.COMPAS_FEATURES` plus the sensitive attribute
:math:`s` = African-American, a column of the FairML copy the source used), with a
fixed seed

1. a training set :math:`D` of ``n_train`` defendants;
2. the injected set :math:`D'`: ``n_flip`` defendants of :math:`D` with :math:`s = 1`
   and :math:`y = -1` (no two-year recidivism) get the label :math:`+1`;
3. a disjoint test set :math:`T` of ``n_test`` defendants.

Features standardised with the statistics of :math:`D`; linear kernel; :math:`C` by
5-fold cross-validation on the injected :math:`D'`. The reference is the SVM trained on
the clean :math:`D` with the same :math:`C`. For the reference and each of the top-``k``
models of :math:`D'`: demographic parity on :math:`T`,

.. math::

    \mathrm{DP}(f) = \bigl|P(\hat y = +1 \mid s = 1) - P(\hat y = +1 \mid s = 0)\bigr|,
    \qquad \hat y = \operatorname{sign} f(x),

and the misclassification rate on :math:`T` (true labels).
"""
from __future__ import annotations

import hashlib
import sys

import numpy as np
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from threadpoolctl import threadpool_limits

from ..datasets import load_compas
from ..enumsv import Subproblems, enumerate_subproblems, prepare_problem
from ._cache import write_cache
from ._cli import run_from_command_line

NAME = "enumsv_compas"

CONFIG = {
    "n_train": 500,
    "n_flip": 50,
    "n_test": 1000,
    "seed": 0,
    "sensitive_as_feature": True,
    "C_grid": [0.001, 0.01, 0.1, 1.0, 10.0],
    "cv_folds": 5,
    "k": 50,
    "tol": 1e-9,
    "coarse_tol": 1e-2,
}

SMOKE_CONFIG = dict(CONFIG, n_train=120, n_flip=12, n_test=200, k=4, C_grid=[0.1, 1.0])


def make_sets(config):
    """``(X_train, y_clean, y_injected, flipped, X_test, y_test, s_test)``, standardised."""
    d = load_compas()
    X = np.column_stack([d.X, d.sensitive]) if config["sensitive_as_feature"] else d.X
    y = np.where(d.y == 1, 1, -1)
    s = d.sensitive
    rng = np.random.default_rng(config["seed"])
    perm = rng.permutation(len(y))
    tr = perm[:config["n_train"]]
    te = perm[config["n_train"]:config["n_train"] + config["n_test"]]
    y_inj = y[tr].copy()
    candidates = np.flatnonzero((s[tr] == 1) & (y[tr] == -1))
    flipped = np.sort(rng.choice(candidates, config["n_flip"], replace=False))
    y_inj[flipped] = 1
    sc = StandardScaler().fit(X[tr])
    return sc.transform(X[tr]), y[tr], y_inj, flipped, sc.transform(X[te]), y[te], s[te]


def demographic_parity(pred, s):
    r""":math:`|P(\hat y = +1 \mid s = 1) - P(\hat y = +1 \mid s = 0)|` on a sample."""
    pred, s = np.asarray(pred), np.asarray(s)
    return float(abs(np.mean(pred[s == 1] > 0) - np.mean(pred[s == 0] > 0)))


def run(config=CONFIG, root=None, backend=None, n_jobs=None):
    """The reference SVM, the top-k models of the injected set; write the cache."""
    Xtr, y_clean, y_inj, flipped, Xte, yte, ste = make_sets(config)
    with threadpool_limits(1):
        cv = StratifiedKFold(config["cv_folds"], shuffle=True, random_state=config["seed"])
        gs = GridSearchCV(SVC(kernel="linear"), {"C": config["C_grid"]}, cv=cv).fit(Xtr, y_inj)
        scores = gs.cv_results_["mean_test_score"]
        C = float(config["C_grid"][int(np.flatnonzero(scores == scores.max())[0])])
        K, _, _ = prepare_problem(Xtr, y_inj)
        K_test = Xte @ Xtr.T

        def summary(m):
            f = m.decision_function(K_test)
            pred = np.where(f > 0, 1, -1)
            return {"objective": m.objective, "objective_error": m.objective_error,
                    "n_sv": int(len(m.support)), "dp": demographic_parity(pred, ste),
                    "test_error": float(np.mean(pred != yte)),
                    "positive_rate": float(np.mean(pred > 0)),
                    "n_flipped_in_support": int(np.isin(flipped, m.support).sum()),
                    "predictions": hashlib.sha256(np.packbits(pred > 0).tobytes()).hexdigest()[:16],
                    "time": m.time, "elapsed": m.elapsed, "cpu_elapsed": m.cpu_elapsed,
                    "n_candidates": m.n_candidates}

        clean = Subproblems(K, y_clean.astype(float), C, config["tol"],
                            coarse_tol=config["coarse_tol"])
        reference = summary(next(enumerate_subproblems(clean, 1)))
        sub = Subproblems(K, y_inj.astype(float), C, config["tol"],
                          coarse_tol=config["coarse_tol"])
        models = [dict(summary(m), rank=m.rank)
                  for m in enumerate_subproblems(sub, config["k"])]
    results = {"C": C, "cv_scores": [float(v) for v in scores],
               "n_train": int(len(y_inj)), "n_test": int(len(yte)),
               "n_flipped": int(len(flipped)),
               "reference": reference, "models": models,
               "n_solves": sub.n_solves, "n_polished": sub.n_polished}
    write_cache(NAME, config, results, root=root)
    return results


def main(argv=None):
    res = run_from_command_line(sys.modules[__name__], argv)
    ref, ms = res["reference"], res["models"]
    fair = [m["rank"] for m in ms if m["dp"] < ref["dp"] and m["test_error"] < ref["test_error"]]
    print(f"C={res['C']}; reference DP {ref['dp']:.4f}, error {ref['test_error']:.4f}; "
          f"injected best DP {ms[0]['dp']:.4f}, error {ms[0]['test_error']:.4f}; "
          f"{len(ms)} models in {ms[-1]['elapsed']:.1f} s; below the reference in both: {fair}")


if __name__ == "__main__":
    main()
