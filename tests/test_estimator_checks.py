"""Every estimator of the package passes scikit-learn's estimator checks."""
import inspect
import warnings

from sklearn.base import BaseEstimator
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.estimator_checks import parametrize_with_checks

import svmtext
from svmtext import SVDD, QPSVC, SMOSVC, EcoSVC, EcoSVDD

ESTIMATORS = [
    QPSVC(), QPSVC(kernel="linear", C=10.0), QPSVC(kernel="poly", degree=2, coef0=1.0, C=0.5),
    SMOSVC(), SMOSVC(selection="platt", kernel="linear"), SMOSVC(selection="mvp", shrinking=False),
    EcoSVC(), EcoSVC(kernel="linear", C=10.0, buffer_size=5),
    SVDD(), SVDD(kernel="linear", C=0.5),
    EcoSVDD(), EcoSVDD(kernel="poly", degree=2, coef0=1.0),
]


def test_every_estimator_is_checked():
    public = {obj for _, obj in inspect.getmembers(svmtext, inspect.isclass)
              if issubclass(obj, BaseEstimator)}
    assert public == {type(e) for e in ESTIMATORS}


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
