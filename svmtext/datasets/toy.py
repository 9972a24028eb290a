"""Seeded synthetic data sets for the book's figures and experiments.

Every generator takes ``random_state`` (None, an int seed, or a
:class:`numpy.random.Generator`); the same seed gives the same data.  Labels are
int64 in {-1, +1}.

- EcoSVM hypercube data (Howell, Cui, Marsland & Mehta, "Machine learning as
  ecology", J. Phys. A 53, 2020): :func:`make_hypercube_linear`,
  :func:`make_hypercube_sinusoidal`, and the SVDD cloud :func:`make_svdd_cloud`.
- Prototype-SVM test sets (A. Shen, "Prototype support vector machines: supervised
  classification in complex datasets", Williams College, 2013):
  :func:`make_isolated`, :func:`make_striated`, :func:`make_spirals`.  The source
  shows these sets as pictures only; the constructions here are *our reading of
  those pictures*, not the source's generators.
"""
from __future__ import annotations

import numpy as np

__all__ = ["make_two_clouds", "make_hypercube_linear", "make_hypercube_sinusoidal", "make_svdd_cloud",
           "make_isolated", "make_striated", "make_spirals", "make_smo_problem"]


def _rng(random_state) -> np.random.Generator:
    return np.random.default_rng(random_state)


def _check(n: int, d: int | None = None, d_min: int = 1) -> None:
    if int(n) != n or n < 1:
        raise ValueError(f"n must be a positive integer, got {n!r}")
    if d is not None and (int(d) != d or d < d_min):
        raise ValueError(f"d must be an integer >= {d_min}, got {d!r}")


def make_two_clouds(n: int, shift: float, random_state=None) -> tuple[np.ndarray, np.ndarray]:
    r"""Two Gaussian clouds in the plane, ``n`` points per class (book: :ref:`sec-margin-hard`).

    Class :math:`y = \pm 1` is :math:`\mathcal N(\pm\,\mathrm{shift}\,(1, \tfrac12), I)`:
    separable for a large ``shift``, overlapping for a small one. Labels are
    float64 -1/+1, the first ``n`` points of class -1.
    """
    _check(n)
    y = np.repeat([-1.0, 1.0], n)
    X = _rng(random_state).normal(size=(2 * n, 2)) + shift * y[:, None] * [1.0, 0.5]
    return X, y


def _flip(y: np.ndarray, noise: float, rng: np.random.Generator) -> np.ndarray:
    """Flip the labels of round(noise * n) points chosen at random."""
    if not 0.0 <= noise <= 1.0:
        raise ValueError(f"noise must be in [0, 1], got {noise!r}")
    k = int(round(noise * y.size))
    if k:
        idx = rng.choice(y.size, size=k, replace=False)
        y = y.copy()
        y[idx] = -y[idx]
    return y


def make_hypercube_linear(n: int = 200, d: int = 2, random_state=None
                          ) -> tuple[np.ndarray, np.ndarray]:
    """Uniform points in the unit hypercube split by the hyperplane x_0 = 1/2.

    The linear toy problem of the EcoSVM paper: ``x ~ U[0, 1]^d``, label +1 if
    ``x_0 <= 0.5``, else -1.  The paper uses d = 2, n = 200 (figures) and d = 80,
    n = 1000 (numerics).

    Parameters
    ----------
    n : int, default 200
        Number of points.
    d : int, default 2
        Dimension.
    random_state : None, int or numpy.random.Generator

    Returns
    -------
    X : ndarray of float64, shape (n, d)
    y : ndarray of int64, shape (n,), in {-1, +1}

    References
    ----------
    O. Howell, W. Cui, R. Marsland, P. Mehta, "Machine learning as ecology",
    J. Phys. A 53:334001, 2020, arXiv:1908.00868.
    """
    _check(n, d)
    X = _rng(random_state).uniform(0.0, 1.0, size=(n, d))
    return X, np.where(X[:, 0] <= 0.5, 1, -1).astype(np.int64)


def make_hypercube_sinusoidal(n: int = 200, d: int = 2, random_state=None
                              ) -> tuple[np.ndarray, np.ndarray]:
    """Uniform points in the unit hypercube split by a sinusoidal surface.

    The non-linear toy problem of the EcoSVM paper: ``x ~ U[0, 1]^d``, label +1 if
    ``x_0 < 0.5 + 0.1 * prod_{j=1}^{d-1} sin(2 pi x_j)``, else -1.  The paper uses
    d = 2, n = 200 (figures) and n = 800 (numerics).

    Parameters
    ----------
    n : int, default 200
    d : int, default 2
        Dimension, at least 2.
    random_state : None, int or numpy.random.Generator

    Returns
    -------
    X : ndarray of float64, shape (n, d)
    y : ndarray of int64, shape (n,), in {-1, +1}

    References
    ----------
    O. Howell, W. Cui, R. Marsland, P. Mehta, "Machine learning as ecology",
    J. Phys. A 53:334001, 2020, arXiv:1908.00868.
    """
    _check(n, d, d_min=2)
    X = _rng(random_state).uniform(0.0, 1.0, size=(n, d))
    boundary = 0.5 + 0.1 * np.prod(np.sin(2.0 * np.pi * X[:, 1:]), axis=1)
    return X, np.where(X[:, 0] < boundary, 1, -1).astype(np.int64)


def make_svdd_cloud(n: int = 500, d: int = 2, random_state=None) -> np.ndarray:
    """Gaussian cloud for support vector data description (SVDD).

    ``n`` points from ``N(0.5 * 1, 0.01 I)`` in ``d`` dimensions (standard deviation
    0.1 per coordinate), as in the EcoSVDD figures (n = 500, d = 2; numerics
    d = 100, n = 600).  One-class data: no labels.

    Parameters
    ----------
    n : int, default 500
    d : int, default 2
    random_state : None, int or numpy.random.Generator

    Returns
    -------
    X : ndarray of float64, shape (n, d)

    References
    ----------
    O. Howell, W. Cui, R. Marsland, P. Mehta, "Machine learning as ecology",
    J. Phys. A 53:334001, 2020, arXiv:1908.00868.
    """
    _check(n, d)
    return _rng(random_state).normal(0.5, 0.1, size=(n, d))


def make_isolated(n: int = 800, noise: float = 0.0, random_state=None, *,
                  n_blobs: int = 5, radius: float = 0.08, pos_fraction: float = 0.375
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Small isolated clusters of one class inside a background of the other.

    Our reading of the source's picture "isolated": the positive class (+1) sits in
    ``n_blobs`` small round clusters scattered over the unit square; the negative
    class (-1) fills the rest of the square uniformly, kept at least ``2 * radius``
    away from every cluster centre.  No line separates the classes.  The defaults
    (n = 800, 37.5 % positives) match what the source's tables imply (720 training
    points in 10-fold cross-validation; a linear SVM scores 62.5 %, the majority
    rate). The default ``n_blobs`` and ``radius`` are our first reading of the
    picture (the chapter's figures and tables); the member of this family fitted to
    the source's comparator columns has ``n_blobs=4, radius=0.15`` (book:
    :ref:`sec-psvm-isolated`).

    Parameters
    ----------
    n : int, default 800
        Number of points; ``round(pos_fraction * n)`` of them are positive.
    noise : float, default 0
        Fraction of labels flipped at random afterwards (the source's noisy runs
        flip 10 %).
    random_state : None, int or numpy.random.Generator
    n_blobs : int, default 5
        Number of positive clusters; centres are drawn uniformly in
        [0.1, 0.9]^2, at least ``3 * radius`` apart.
    radius : float, default 0.08
        Cluster radius: positives are uniform in discs of this radius.
    pos_fraction : float, default 0.375

    Returns
    -------
    X : ndarray of float64, shape (n, 2)
    y : ndarray of int64, shape (n,), in {-1, +1}

    References
    ----------
    A. Shen, "Prototype support vector machines: supervised classification in
    complex datasets", Williams College, 2013.
    """
    _check(n)
    rng = _rng(random_state)
    centres: list[np.ndarray] = []
    for _ in range(10000):
        if len(centres) == n_blobs:
            break
        c = rng.uniform(0.1, 0.9, size=2)
        if all(np.linalg.norm(c - o) >= 3 * radius for o in centres):
            centres.append(c)
    else:
        raise ValueError("could not place the clusters; lower n_blobs or radius")
    C = np.array(centres)
    n_pos = int(round(pos_fraction * n))
    which = rng.integers(n_blobs, size=n_pos)
    r = radius * np.sqrt(rng.uniform(size=n_pos))
    t = rng.uniform(0.0, 2 * np.pi, size=n_pos)
    pos = C[which] + np.c_[r * np.cos(t), r * np.sin(t)]
    neg = np.empty((0, 2))
    while len(neg) < n - n_pos:
        cand = rng.uniform(0.0, 1.0, size=(2 * (n - n_pos), 2))
        far = np.min(np.linalg.norm(cand[:, None, :] - C[None], axis=2), axis=1) >= 2 * radius
        neg = np.vstack([neg, cand[far]])
    neg = neg[: n - n_pos]
    X = np.vstack([pos, neg])
    y = np.r_[np.ones(n_pos, np.int64), -np.ones(n - n_pos, np.int64)]
    perm = rng.permutation(n)
    return X[perm], _flip(y[perm], noise, rng)


def make_striated(n: int = 800, noise: float = 0.0, random_state=None, *,
                  n_stripes: int = 8, angle: float = 45.0) -> tuple[np.ndarray, np.ndarray]:
    """Parallel diagonal stripes of alternating class.

    Our reading of the source's picture "striated": points uniform in the unit
    square, labelled by which of ``n_stripes`` equal-width bands along the diagonal
    direction (1, 1) they fall in, the classes alternating band by band (+1 for the
    first band, at the origin).  The bands are diagonal, so neither a line nor an
    axis-parallel tree fits them easily; the classes are roughly balanced (a linear
    SVM scores about 50 % in the source).

    Parameters
    ----------
    n : int, default 800
    noise : float, default 0
        Fraction of labels flipped at random.
    random_state : None, int or numpy.random.Generator
    n_stripes : int, default 8
    angle : float, default 45
        Direction (degrees from the first axis) across which the bands follow each
        other: 45 gives diagonal bands, 0 vertical ones.

    Returns
    -------
    X : ndarray of float64, shape (n, 2)
    y : ndarray of int64, shape (n,), in {-1, +1}

    References
    ----------
    A. Shen, "Prototype support vector machines: supervised classification in
    complex datasets", Williams College, 2013.
    """
    _check(n)
    if int(n_stripes) != n_stripes or n_stripes < 2:
        raise ValueError(f"n_stripes must be an integer >= 2, got {n_stripes!r}")
    rng = _rng(random_state)
    X = rng.uniform(0.0, 1.0, size=(n, 2))
    a = np.deg2rad(angle)
    direction = np.array([np.cos(a), np.sin(a)])
    corners = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]) @ direction
    t = (X @ direction - corners.min()) / (corners.max() - corners.min())
    band = np.minimum(np.floor(n_stripes * t), n_stripes - 1).astype(int)
    y = np.where(band % 2 == 0, 1, -1).astype(np.int64)
    return X, _flip(y, noise, rng)


def make_spirals(n: int = 200, noise: float = 0.0, random_state=None, *,
                 turns: float = 2.0, jitter: float = 0.0, points: str = "random",
                 order: str = "shuffled") -> tuple[np.ndarray, np.ndarray]:
    r"""Two interleaved spirals, one per class.

    Our reading of the source's picture "spirals": the classic two-spirals problem.
    With ``points="random"`` (the default), class +1 lies on ``r = t, angle = 2 pi *
    turns * t`` for ``t`` uniform in [0.05, 1]; class -1 is the same spiral turned by
    pi; ``n // 2`` points per class (the extra point, for odd n, goes to +1).

    With ``points="lang_witbrock"`` the points are those of Lang and Witbrock's
    benchmark (the CMU two-spirals set, 194 points for ``n = 194``): point
    :math:`i = 0, \dots, n/2 - 1` of class +1 at the angle :math:`i\pi/16` and the
    radius :math:`6.5\,(104 - i)/104`,

    .. math::

        \mathbf{x}_i = 6.5\,\tfrac{104 - i}{104}\,(\sin(i\pi/16), \cos(i\pi/16)),

    and point :math:`i` of class -1 its reflection through the origin
    :math:`-\mathbf{x}_i` (point :math:`i` turned by half a turn); no
    randomness, coordinates as in the benchmark (within [-6.5, 6.5]). ``n`` must be
    even; ``turns`` does not apply.

    ``order`` is the order of the rows: ``"shuffled"`` (a random permutation, the
    default), ``"interleaved"`` (point :math:`i` of class +1, then point :math:`i`
    of class -1: the benchmark file's order), or ``"arms"`` (all of class +1, then
    all of class -1, each arm in the order of its parameter: from the outer end
    inwards for ``"lang_witbrock"``, from the centre outwards for ``"random"``).
    The order matters only to a cross-validation that does not shuffle
    (book: :ref:`sec-psvm-spirals`, where ``points="lang_witbrock", order="arms"``
    and unshuffled folds reproduce the source's below-chance accuracies).

    Parameters
    ----------
    n : int, default 200
    noise : float, default 0
        Fraction of labels flipped at random.
    random_state : None, int or numpy.random.Generator
    turns : float, default 2
        Number of turns of each spiral (``points="random"``).
    jitter : float, default 0
        Standard deviation of Gaussian noise added to the coordinates.
    points : {"random", "lang_witbrock"}, default "random"
    order : {"shuffled", "interleaved", "arms"}, default "shuffled"

    Returns
    -------
    X : ndarray of float64, shape (n, 2); within about [-1, 1]^2 for
        ``points="random"``
    y : ndarray of int64, shape (n,), in {-1, +1}

    References
    ----------
    A. Shen, "Prototype support vector machines: supervised classification in
    complex datasets", Williams College, 2013.
    K. J. Lang, M. J. Witbrock, "Learning to tell two spirals apart", Proc. 1988
    Connectionist Models Summer School.
    """
    _check(n)
    if points not in ("random", "lang_witbrock"):
        raise ValueError(f"points must be 'random' or 'lang_witbrock', got {points!r}")
    if order not in ("shuffled", "interleaved", "arms"):
        raise ValueError("order must be 'shuffled', 'interleaved' or 'arms', "
                         f"got {order!r}")
    rng = _rng(random_state)
    n_pos = n - n // 2
    if points == "random":
        y = np.r_[np.ones(n_pos, np.int64), -np.ones(n // 2, np.int64)]
        t = rng.uniform(0.05, 1.0, size=n)
        angle = 2 * np.pi * turns * t + np.where(y > 0, 0.0, np.pi)
        X = np.c_[t * np.cos(angle), t * np.sin(angle)]
    else:
        if n % 2:
            raise ValueError(f"points='lang_witbrock' needs an even n (two arms, "
                             f"each the other's reflection through the origin), "
                             f"got n={n}")
        i = np.arange(n // 2)
        radius = 6.5 * (104 - i) / 104
        arm = np.c_[radius * np.sin(i * np.pi / 16), radius * np.cos(i * np.pi / 16)]
        X = np.r_[arm, -arm]
        y = np.r_[np.ones(n // 2, np.int64), -np.ones(n // 2, np.int64)]
        t = np.r_[i, i].astype(float)        # the position along each arm
    if jitter:
        X = X + rng.normal(0.0, jitter, size=X.shape)
    if order == "shuffled":
        perm = rng.permutation(n)
    else:
        pos, neg = (np.flatnonzero(y == c) for c in (1, -1))
        pos, neg = pos[np.argsort(t[pos], kind="stable")], neg[np.argsort(t[neg], kind="stable")]
        if order == "arms":
            perm = np.r_[pos, neg]
        else:
            perm = np.empty(n, np.intp)
            perm[0:2 * len(neg):2], perm[1:2 * len(neg):2] = pos[:len(neg)], neg
            perm[2 * len(neg):] = pos[len(neg):]
    return X[perm], _flip(y[perm], noise, rng)


def make_smo_problem(seed: int, n_max: int = 200, log_C_max: float = 4, scaled=None
                     ) -> tuple[np.ndarray, np.ndarray, str, dict, float]:
    r"""A random binary SVM problem of the SMO tests and benchmarks (book: :ref:`sec-smo-iterations`).

    :math:`n` uniform in 20 .. ``n_max``, 1 to 10 standard normal features, labels
    :math:`y = \operatorname{sign}(x_1 + 0.5\,\epsilon)`; in one problem of three some
    points are copied onto others (a quarter of :math:`n` at most), half of the copies
    with the opposite label; the kernel cycles linear, RBF, polynomial with ``seed``
    (:math:`\gamma = 1/(d\,\operatorname{Var} X)`, degree 2, :math:`c_0 = 1`); in one
    problem of five the last feature is scaled by :math:`10^3` (when ``scaled`` is true;
    ``None``: when ``log_C_max >= 4``); :math:`C` log-uniform in
    :math:`[10^{-2}, 10^{\text{log\_C\_max}}]`. The first two labels are +1 and -1.

    Returns
    -------
    X, y, kernel, params, C
        ``params`` holds ``gamma``, ``degree`` and ``coef0``.
    """
    rng = np.random.default_rng(seed)
    n, d = int(rng.integers(20, n_max + 1)), int(rng.integers(1, 11))
    X = rng.normal(size=(n, d))
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=n) > 0, 1.0, -1.0)
    if rng.random() < 1 / 3:                 # duplicated points, some relabelled
        k = int(rng.integers(1, n // 4 + 1))
        src = rng.choice(n, k, replace=False)
        dst = rng.choice(np.setdiff1d(np.arange(n), src), k, replace=False)
        X[dst] = X[src]
        y[dst] = np.where(rng.random(k) < 0.5, y[src], -y[src])
    kernel = ["linear", "rbf", "poly"][seed % 3]
    if rng.random() < 0.2 and (log_C_max >= 4 if scaled is None else scaled):
        X[:, -1] *= 1e3
    y[:2] = 1.0, -1.0
    params = {"gamma": 1.0 / (X.var() * d), "degree": 2, "coef0": 1.0}
    C = float(10 ** rng.uniform(-2, log_C_max))
    return X, y, kernel, params, C
