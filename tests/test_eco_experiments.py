"""The ecology chapter's cached experiments: the MNIST smoke run in detail, and a
cache from another configuration refused (tests/test_experiments.py runs every
other experiment's smoke configuration and checks every committed cache)."""
import json

import pytest

from svmtext.experiments import eco_toys, mnist_eco
from svmtext.experiments._cache import StaleCacheError, load_cache


def test_mnist_smoke_run_exercises_everything(tmp_path):
    res = mnist_eco.run(mnist_eco.SMOKE_CONFIG, root=tmp_path)
    for key in ("batch", "eco", "eco_buffer"):
        r = res[key]
        assert 0.5 < r["accuracy"] <= 1
        assert r["n_sv"] == r["n_free"] + r["n_bounded"]
        assert r["seconds"] > 0
    for key in ("eco", "eco_buffer"):
        c = res[key]["curves"]
        assert c["t"][-1] == res["n_train"] and len(c["accuracy"]) == len(c["t"])
        assert 0 <= res[key]["contingency"]["frac_would_invade_final"] <= 1
    assert res["eco"]["train_points_held"] == res["eco"]["n_sv"]
    assert set(res["performance"]) >= {"time_ratio_eco_over_batch",
                                       "accuracy_gap_pp"}
    assert (tmp_path / "mnist_eco.json").exists()
    assert (tmp_path / "mnist_eco.png").exists()


@pytest.mark.parametrize("mod", [mnist_eco, eco_toys])
def test_cache_from_another_configuration_fails(mod, tmp_path):
    payload = load_cache(mod.NAME)
    (tmp_path / f"{mod.NAME}.json").write_text(json.dumps(payload))
    other = dict(mod.CONFIG, runs=-1)   # any change of the configuration
    with pytest.raises(StaleCacheError):
        load_cache(mod.NAME, other, root=tmp_path)
