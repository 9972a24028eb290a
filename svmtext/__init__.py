"""svmtext: support vector machines read three ways (optimisation, ecology, electrostatics).

The library behind the book: each chapter has one module (or small subpackage).

* :mod:`svmtext.kernels`, :mod:`svmtext.qp`, :mod:`svmtext.kkt` -- the maximum-margin
  classifier, its dual and the KKT conditions (reference solvers);
* :mod:`svmtext.smo` -- sequential minimal optimisation;
* :mod:`svmtext.eco` -- the ecological reading (Lotka--Volterra, EcoSVM, EcoSVDD);
* :mod:`svmtext.datasets`, :mod:`svmtext.plotting`, :mod:`svmtext.experiments`.
"""
from . import datasets, eco, kernels, kkt, plotting, qp, smo
from .eco import SVDD, EcoSVC, EcoSVDD
from .qp import QPSVC
from .smo import SMOSVC, smo_solve

__version__ = "0.1.0"
__all__ = ["datasets", "eco", "kernels", "kkt", "plotting", "qp", "smo",
           "QPSVC", "SMOSVC", "EcoSVC", "SVDD", "EcoSVDD", "smo_solve", "__version__"]
