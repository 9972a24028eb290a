"""The ecology chapter's cached experiments: smoke runs and current caches."""
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


def test_toys_smoke_run(tmp_path):
    res = eco_toys.run(eco_toys.SMOKE_CONFIG, root=tmp_path)
    for runs in res.values():
        for r in runs:
            assert len(r["eco"]["accuracy"]) == len(r["eco"]["t"])


@pytest.mark.parametrize("mod", [mnist_eco, eco_toys])
def test_committed_cache_is_current(mod):
    load_cache(mod.NAME, mod.CONFIG)


@pytest.mark.parametrize("mod", [mnist_eco, eco_toys])
def test_cache_from_another_configuration_fails(mod, tmp_path):
    payload = load_cache(mod.NAME)
    (tmp_path / f"{mod.NAME}.json").write_text(json.dumps(payload))
    other = dict(mod.CONFIG, n_start=mod.CONFIG["n_start"] + 1)
    with pytest.raises(StaleCacheError):
        load_cache(mod.NAME, other, root=tmp_path)
