"""svmtext: support vector machines read three ways (optimisation, ecology, electrostatics).

The library behind the book: each chapter has one module.
"""
from . import kernels, kkt, qp
from .qp import QPSVC
from .eco import SVDD, EcoSVC, EcoSVDD  # noqa: F401
from .smo import SMOSVC, smo_solve  # noqa: F401

__version__ = "0.1.0"
__all__ = ["kernels", "kkt", "qp", "QPSVC", "__version__"]
