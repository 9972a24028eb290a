"""svmtext: support vector machines read three ways (optimisation, ecology, electrostatics).

The library behind the book: each chapter has one module (or small subpackage).

* :mod:`svmtext.kernels`, :mod:`svmtext.qp`, :mod:`svmtext.kkt` -- the maximum-margin
  classifier, its dual and the KKT conditions (reference solvers);
* :mod:`svmtext.smo` -- sequential minimal optimisation;
* :mod:`svmtext.svr`, :mod:`svmtext.nusvr`, :mod:`svmtext.probability`,
  :mod:`svmtext.multiclass`, :mod:`svmtext.decomposition`,
  :mod:`svmtext.hulls`, :mod:`svmtext.feature_map`, :mod:`svmtext.cover` -- SVMs in
  practice (regression on the SMO solver, LIBSVM's vote, working sets, convex hulls,
  feature maps, Cover's count);
* :mod:`svmtext.eco` -- the ecological reading (Lotka--Volterra, EcoSVM, EcoSVDD);
* :mod:`svmtext.coulomb` -- the electrostatic reading (Coulomb classifiers);
* :mod:`svmtext.psvm` -- prototype SVMs;
* :mod:`svmtext.enumsv` -- enumeration of the distinct SVM models (EnumSV);
* :mod:`svmtext.datasets`, :mod:`svmtext.plotting`, :mod:`svmtext.experiments`.

The subpackages, and with them numpy's heavier neighbours (scikit-learn, cvxopt, numba,
matplotlib), load on first use, so ``import svmtext`` is fast.
"""
import importlib
from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version(__name__)          # one source: pyproject.toml's [project] version
except PackageNotFoundError:                 # pragma: no cover - a source tree not installed
    __version__ = "0+unknown"

_SUBMODULES = ("datasets", "eco", "experiments", "kernels", "kkt", "plotting", "qp", "smo",
               "svr", "multiclass", "decomposition", "hulls", "feature_map", "cover",
               "coulomb", "psvm", "enumsv", "nusvr", "probability")
_NAMES = {"NuSMOSVR": "nusvr",
          "QPSVC": "qp", "SMOSVC": "smo", "smo_solve": "smo", "EcoSVC": "eco", "SVDD": "eco",
          "EcoSVDD": "eco", "SMOSVR": "svr", "PrototypeSVC": "psvm", "EnumSVC": "enumsv",
          "enumerate_models": "enumsv"}
__all__ = ["datasets", "eco", "kernels", "kkt", "plotting", "qp", "smo", "svr", "multiclass",
           "decomposition", "hulls", "feature_map", "cover", "coulomb", "psvm", "enumsv",
           "QPSVC", "SMOSVC", "EcoSVC", "SVDD", "EcoSVDD", "SMOSVR", "PrototypeSVC", "EnumSVC",
           "smo_solve", "enumerate_models", "__version__", "nusvr", "probability",
           "NuSMOSVR"]


def __getattr__(name):
    if name in _SUBMODULES:
        return importlib.import_module(f".{name}", __name__)
    if name in _NAMES:
        return getattr(importlib.import_module(f".{_NAMES[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
