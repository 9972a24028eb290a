"""The electrostatic picture of a 2-D Coulomb classifier (svmtext.coulomb.field)."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from svmtext.coulomb.field import conductor_sizes, plot_field  # noqa: E402


def test_disc_areas_follow_the_charges():
    s = conductor_sizes([0.0, 1e-9, 0.5, 2.0], smax=100.0, smin=10.0)
    # uncharged: no disc; the largest charge: smax; areas proportional above the floor
    np.testing.assert_allclose(s, [0.0, 10.0, 25.0, 100.0])
    np.testing.assert_array_equal(conductor_sizes(np.zeros(3)), np.zeros(3))


def test_field_saturates_and_draws_every_conductor():
    X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    y = np.array([-1.0, -1.0, 1.0, 1.0])
    alpha = np.array([1.0, 0.0, 0.5, 0.0])

    def potential(P):                   # phi(x) + b, steep enough to saturate
        return 10.0 * (P[:, 1] - 0.5)

    fig, ax = plt.subplots()
    try:
        im = plot_field(potential, X, y, alpha, ax=ax, resolution=20, vmax=2.0, title="t")
        Z = im.get_array()
        assert Z.shape == (20, 20) and Z.min() == -2.0 and Z.max() == 2.0
        assert im.get_clim() == (-2.0, 2.0)
        # per class one collection of charged discs and one of hollow circles
        from matplotlib.collections import PathCollection
        drawn = [c.get_offsets() for c in ax.collections if type(c) is PathCollection]
        assert sorted(len(o) for o in drawn) == [1, 1, 1, 1]     # each point once
        assert sorted(map(tuple, np.concatenate(drawn))) == sorted(map(tuple, X))
        assert ax.get_title() == "t"
    finally:
        plt.close(fig)
