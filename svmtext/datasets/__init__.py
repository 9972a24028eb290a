"""Data sets for the book: loaders for the benchmark data and seeded toy generators.

Real data live under :func:`data_home` (``$SVMTEXT_DATA`` if set, else
``$XDG_CACHE_HOME/svmtext`` or ``~/.cache/svmtext``) in the layout
``<dataset>/<file>``.  A missing file is fetched on first use from its public source,
pinned to a commit, and kept only if it matches its registered sha256; the Rätsch/IDA
files are assembled from the original split files and checked array by array (see
:func:`fetch`).  ``python -m svmtext.datasets fetch --all`` fetches everything ahead
of time; ``$SVMTEXT_DOWNLOAD_MIRROR`` redirects the downloads to a local copy.

Loaders
-------
load_mnist, load_mnist_4v9
    MNIST digits; the fours-versus-nines task.
load_raetsch, load_raetsch_pool
    Rätsch/IDA benchmarks (realisations 1-10; pools for thyroid, flare_solar, splice).
load_ionosphere, load_sonar, load_german_numeric, load_glass, load_vehicle, load_segment
    UCI benchmark sets.
load_compas, load_compas_fairml
    ProPublica's COMPAS recidivism data, with race as the sensitive attribute; FairML's
    eleven-column copy of it.
load_svmguide
    The three data sets of the LIBSVM guide (svmguide1/2/3), from LIBSVM's sparse
    text format.

Toy generators (:mod:`svmtext.datasets.toy`)
------------------------------------------
make_hypercube_linear, make_hypercube_sinusoidal, make_svdd_cloud,
make_isolated, make_striated, make_spirals, make_smo_problem
"""
from ._compas import COMPAS_FAIRML_FEATURES, COMPAS_FEATURES, load_compas, load_compas_fairml
from ._fetch import ChecksumError, DataNotFoundError, data_home, fetch, sha256sum
from ._mnist import load_mnist, load_mnist_4v9
from ._raetsch import RAETSCH_POOL_NAMES, RAETSCH_SPLIT_NAMES, load_raetsch, load_raetsch_pool
from ._svmguide import SVMGUIDE_NAMES, load_svmguide, parse_libsvm  # noqa: F401  (ch. 4)
from ._uci import (load_german_numeric, load_glass, load_ionosphere, load_segment, load_sonar,
                   load_vehicle)
from .toy import (make_hypercube_linear, make_hypercube_sinusoidal, make_isolated,
                  make_smo_problem, make_spirals, make_striated, make_svdd_cloud, make_two_clouds)

__all__ = [
    "data_home", "fetch", "sha256sum", "DataNotFoundError", "ChecksumError",
    "load_mnist", "load_mnist_4v9", "load_raetsch", "load_raetsch_pool",
    "RAETSCH_SPLIT_NAMES", "RAETSCH_POOL_NAMES",
    "load_ionosphere", "load_sonar", "load_german_numeric", "load_glass", "load_vehicle",
    "load_segment", "load_compas", "COMPAS_FEATURES", "load_compas_fairml",
    "COMPAS_FAIRML_FEATURES",
    "make_two_clouds", "make_hypercube_linear", "make_hypercube_sinusoidal", "make_svdd_cloud",
    "make_isolated", "make_striated", "make_spirals", "make_smo_problem",
]
