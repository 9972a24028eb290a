"""Every estimator of the package passes scikit-learn's estimator checks."""
import inspect
import warnings
from pathlib import Path

from sklearn.base import BaseEstimator
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.estimator_checks import parametrize_with_checks

import svmtext
from svmtext import SVDD, QPSVC, SMOSVC, EcoSVC, EcoSVDD

ESTIMATORS = [
    QPSVC(), QPSVC(kernel="linear", C=10.0), QPSVC(kernel="poly", degree=2, coef0=1.0, C=0.5),
    SMOSVC(), SMOSVC(selection="platt", kernel="linear"), SMOSVC(selection="mvp", shrinking=False),
    SMOSVC(probability=True, random_state=0), SMOSVC(kernel="precomputed"),
    SMOSVC(class_weight="balanced", kernel="linear"), SMOSVC(n_jobs=2),
    EcoSVC(), EcoSVC(kernel="linear", C=10.0, buffer_size=5),
    SVDD(), SVDD(kernel="linear", C=0.5),
    EcoSVDD(), EcoSVDD(kernel="poly", degree=2, coef0=1.0),
]


# Estimators whose estimator checks run in their chapter module's own test file
# (``parametrize_with_checks`` there, with configurations specific to the machine).
CHECKED_IN = {
    "SMOSVR": "tests/test_svr.py",
    "NuSMOSVR": "tests/test_svr.py",
    "PrototypeSVC": "tests/test_psvm.py",
    "EnumSVC": "tests/test_enumsv.py",
    **{name: "tests/test_coulomb_estimators.py" for name in (
        "PointChargeClassifier", "NuCoulombSVC", "CoulombSVC", "KappaSVC", "PSVC", "LPSVC",
        "OneEquationSVC", "QuickSVC", "EnergyQuantizer")},
}


def _public_estimators():
    """Every estimator class named in ``svmtext.__all__`` or a submodule's ``__all__``."""
    found = set()
    for name in svmtext.__all__:
        obj = getattr(svmtext, name)
        members = [getattr(obj, n) for n in getattr(obj, "__all__", [])] if inspect.ismodule(
            obj) else [obj]
        found |= {m for m in members if inspect.isclass(m) and issubclass(m, BaseEstimator)}
    return found


def test_every_estimator_is_checked():
    checked_here = {type(e) for e in ESTIMATORS}
    public = _public_estimators()
    elsewhere = {cls for cls in public - checked_here if cls.__name__ in CHECKED_IN}
    assert public - checked_here - elsewhere == set(), "estimators without estimator checks"
    for cls in elsewhere:
        text = (Path(__file__).resolve().parents[1] / CHECKED_IN[cls.__name__]).read_text()
        assert "parametrize_with_checks" in text and cls.__name__ in text, cls


def test_keyword_only_parameters():
    for cls in {type(e) for e in ESTIMATORS}:
        params = list(inspect.signature(cls.__init__).parameters.values())[1:]
        assert all(p.kind is p.KEYWORD_ONLY for p in params), cls
        assert set(cls._parameter_constraints) == {p.name for p in params}, cls


@parametrize_with_checks(ESTIMATORS)
def test_sklearn_compatible(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        check(estimator)
