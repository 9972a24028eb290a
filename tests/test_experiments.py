"""Cached experiments: every committed cache matches its script's configuration and
the code the script imports, every script's smoke configuration runs, and the cache
machinery itself works."""
import importlib
import json
import textwrap

import pytest

from svmtext.experiments import EXPERIMENTS, _code
from svmtext.experiments._cache import (
    CorruptCacheError, StaleCacheError, config_hash, load_cache, results_hash, write_cache,
    write_json_atomic,
)
from svmtext.experiments._code import changed_modules, code_fingerprint, module_closure

# a small package tree standing in for svmtext: an experiment script `demo` that
# reaches a solver through its package, and a kernel module from inside a function
TREE = {
    "__init__.py": "from . import solver, unused\n",
    "unused.py": "def never():\n    return 0\n",
    "kernels.py": "def k(x):\n    return x * x\n",
    "solver/__init__.py": '"""Solvers."""\nfrom ._core import fit\n',
    "solver/_core.py": textwrap.dedent('''\
        """The core step."""


        def fit(x):
            """Fit once."""
            # one step
            return x + 1
        '''),
    "experiments/__init__.py": "EXPERIMENTS = ['demo']\n",
    "experiments/demo.py": textwrap.dedent('''\
        """A demo experiment."""
        import numpy as np

        from ..solver import fit


        def run():
            from svmtext.kernels import k
            return k(fit(np.ones(2)))
        '''),
}
CORE = "solver/_core.py"


@pytest.fixture
def package(tmp_path, monkeypatch):
    """The tree above as ``<tmp>/svmtext``; the code fingerprints read it."""
    root = tmp_path / "svmtext"
    for rel, text in TREE.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    monkeypatch.setattr(_code, "PACKAGE_DIR", root)
    return root


def test_closure_follows_imports_not_parent_packages(package):
    """``from ..solver import fit`` reaches the module defining ``fit`` (re-exported by
    the package's ``__init__``), not the package nor its sibling ``unused``."""
    assert module_closure("svmtext.experiments.demo") == [
        "svmtext.experiments.demo", "svmtext.kernels", "svmtext.solver._core"]


def test_code_hash_follows_code_not_docstrings_or_comments(package):
    before = code_fingerprint("svmtext.experiments.demo")
    core = package / CORE
    core.write_text(core.read_text().replace('"""Fit once."""', '"""Fit once, reworded."""')
                    .replace("# one step", "# one step, commented differently")
                    .replace('"""The core step."""', '"""The core step of the solver."""'))
    assert code_fingerprint("svmtext.experiments.demo") == before
    # type annotations (and the imports that serve them) cannot change a number either
    core.write_text(core.read_text().replace("def fit(x):", "from typing import Any\n\n\n"
                                             "def fit(x: Any) -> Any:"))
    assert code_fingerprint("svmtext.experiments.demo") == before
    core.write_text(core.read_text().replace("x + 1", "x + 2"))
    after = code_fingerprint("svmtext.experiments.demo")
    assert after["hash"] != before["hash"]
    assert changed_modules(before, after) == ["svmtext.solver._core"]


def test_cache_is_refused_when_the_code_changed(package, tmp_path):
    results = tmp_path / "results"
    write_cache("demo", {"n": 10}, {"accuracy": 0.9}, root=results)
    payload = load_cache("demo", {"n": 10}, root=results)
    assert sorted(payload["code"]["modules"]) == module_closure("svmtext.experiments.demo")
    core = package / CORE
    core.write_text(core.read_text().replace('"""Fit once."""', '"""Fit, once."""'))
    load_cache("demo", {"n": 10}, root=results)              # a docstring edit: current
    core.write_text(core.read_text().replace("x + 1", "x - 1"))
    with pytest.raises(StaleCacheError, match=r"svmtext\.solver\._core changed.*"
                       r"python -m svmtext\.experiments\.demo"):
        load_cache("demo", {"n": 10}, root=results)
    # a cache written before code fingerprints existed is stale too
    payload = json.loads((results / "demo.json").read_text())
    payload.pop("code")
    (results / "demo.json").write_text(json.dumps(payload))
    with pytest.raises(StaleCacheError, match="no fingerprint"):
        load_cache("demo", {"n": 10}, root=results)


def test_config_hash_is_order_independent_and_sensitive():
    assert config_hash({"a": 1, "b": [1, 2]}) == config_hash({"b": [1, 2], "a": 1})
    assert config_hash({"a": 1}) != config_hash({"a": 2})


def test_stale_cache_is_refused(tmp_path):
    write_cache("demo", {"n": 10}, {"accuracy": 0.9}, root=tmp_path)
    assert load_cache("demo", {"n": 10}, root=tmp_path)["results"]["accuracy"] == 0.9
    with pytest.raises(StaleCacheError, match="config hash"):
        load_cache("demo", {"n": 11}, root=tmp_path)
    with pytest.raises(FileNotFoundError, match="python -m svmtext.experiments.other"):
        load_cache("other", root=tmp_path)


def test_atomic_write_leaves_no_partial_file(tmp_path):
    target = tmp_path / "x.json"
    write_json_atomic(target, {"ok": 1})

    class Unserialisable:
        def __float__(self):
            raise TypeError("boom")

    with pytest.raises(TypeError):
        write_json_atomic(target, {"bad": Unserialisable()})
    assert json.loads(target.read_text()) == {"ok": 1}
    assert [p.name for p in tmp_path.iterdir()] == ["x.json"]


@pytest.mark.parametrize("name", EXPERIMENTS)
def test_committed_cache_is_current(name):
    """Same configuration and same svmtext code as the script has now; the message
    of a failure names the changed modules and the command that refreshes the cache."""
    mod = importlib.import_module(f"svmtext.experiments.{name}")
    load_cache(name, mod.CONFIG)


# experiments whose smoke run has a test of its own, with more checks
DEDICATED_SMOKE_TESTS = {
    "mnist_eco": "tests/test_eco_experiments.py",
    "svmguide": "tests/test_svmguide.py",
    "coulomb_table1": "tests/test_coulomb_table1.py",
    "psvm_tables": "tests/test_psvm_tables.py",
    "psvm_readings": "tests/test_psvm_readings.py",
    "enumsv_uci": "tests/test_enumsv_experiments.py",
    "enumsv_compas": "tests/test_enumsv_experiments.py",
}


@pytest.mark.parametrize("name", [n for n in EXPERIMENTS if n not in DEDICATED_SMOKE_TESTS])
def test_smoke_run(name, tmp_path):
    mod = importlib.import_module(f"svmtext.experiments.{name}")
    mod.run(mod.SMOKE_CONFIG, root=tmp_path)
    payload = load_cache(name, mod.SMOKE_CONFIG, root=tmp_path)
    assert payload["results"]


def test_stale_option_reruns_exactly_the_stale_caches(package, tmp_path, monkeypatch, capsys):
    """``python -m svmtext.experiments --stale`` reruns a cache when it is missing or
    its code changed, and leaves a current one alone."""
    import sys
    import types

    from svmtext.experiments import _cache

    cli = importlib.import_module("svmtext.experiments.__main__")
    runs = []

    def run(config, root=None):
        runs.append(config)
        return write_cache("demo", config, {"accuracy": 0.9}, root=root)

    demo = types.SimpleNamespace(CONFIG={"n": 10}, SMOKE_CONFIG={"n": 2}, run=run)
    monkeypatch.setitem(sys.modules, "svmtext.experiments.demo", demo)
    monkeypatch.setattr(cli, "EXPERIMENTS", ["demo"])
    monkeypatch.setattr(cli, "RESULTS", tmp_path / "results")
    monkeypatch.setattr(_cache, "RESULTS", tmp_path / "results")
    assert cli.main([]) == 1 and "no cached results" in capsys.readouterr().out
    full = [{"n": 10}]
    assert cli.main(["--stale"]) == 0 and runs == full + [{"n": 2}]   # + its smoke record
    assert cli.main(["--stale"]) == 0 and runs == full + [{"n": 2}]   # current: not rerun
    core = package / CORE
    core.write_text(core.read_text().replace("x + 1", "x + 3"))
    assert cli.main([]) == 1 and "svmtext.solver._core" in capsys.readouterr().out
    assert cli.main(["--stale"]) == 0 and runs.count({"n": 10}) == 2


def test_runtime_settings_leave_the_config_hash():
    """``n_jobs`` and ``backend`` decide how fast, not what: at any depth."""
    assert config_hash({"n": 1, "n_jobs": 2}) == config_hash({"n": 1, "n_jobs": 8}) == \
        config_hash({"n": 1})
    assert config_hash({"a": {"backend": "dask", "C": 1.0}}) == config_hash({"a": {"C": 1.0}})
    assert config_hash({"a": {"C": 1.0}}) != config_hash({"a": {"C": 2.0}})


def test_edited_or_truncated_cache_is_refused(tmp_path):
    path = write_cache("demo", {"n": 10}, {"accuracy": 0.9, "n_sv": [3, 4]}, root=tmp_path)
    assert load_cache("demo", {"n": 10}, root=tmp_path)["results_hash"] == \
        results_hash({"accuracy": 0.9, "n_sv": [3, 4]})
    text = path.read_text()
    path.write_text(text.replace("0.9", "0.95"))
    for cfg in ({"n": 10}, None):
        with pytest.raises(CorruptCacheError, match=rf"{path}.*edited.*python -m svmtext\.experiments\.demo"):
            load_cache("demo", cfg, root=tmp_path)
    path.write_text(text[: len(text) // 2])
    with pytest.raises(CorruptCacheError, match=rf"{path} is not a whole JSON file.*"
                       r"python -m svmtext\.experiments\.demo"):
        load_cache("demo", root=tmp_path)


def test_recertify_restamps_a_refactor_and_refuses_a_numerical_change(package, tmp_path,
                                                                      monkeypatch):
    """The code moved: the smoke configuration reruns; equal numbers (floats within the
    stated tolerance, integers exactly) re-stamp the cache, moved numbers do not."""
    import sys
    import types

    from svmtext.experiments import _recertify

    step = {"value": 1.0}

    def run(config, root=None):
        x = step["value"] * config["n"]
        results = {"objective": x / 3, "n_iter": int(x), "support": [0, 2], "seconds": 0.1 * x}
        return write_cache("demo", config, results, root=root)

    demo = types.SimpleNamespace(CONFIG={"n": 10}, SMOKE_CONFIG={"n": 2}, run=run,
                                 SMOKE_TOLERANCE={"rtol": 1e-9, "why": "test"})
    monkeypatch.setitem(sys.modules, "svmtext.experiments.demo", demo)
    results = tmp_path / "results"
    run(demo.CONFIG, root=results)
    payload = load_cache("demo", demo.CONFIG, root=results)
    assert payload["smoke"]["results"] == {"objective": 2 / 3, "n_iter": 2, "support": [0, 2]}
    assert _recertify.recertify("demo", results) == (True, "demo: current")
    core = package / CORE
    core.write_text(core.read_text().replace("return x + 1", "y = x\n    return y + 1"))
    with pytest.raises(StaleCacheError):
        load_cache("demo", demo.CONFIG, root=results)
    step["value"] = 1.0 + 1e-12                                   # summation order: within rtol
    ok, message = _recertify.recertify("demo", results)
    assert ok and "recertified" in message and "svmtext.solver._core" in message
    load_cache("demo", demo.CONFIG, root=results)                 # current again
    assert load_cache("demo", root=results)["recertified"][0]["changed"] == ["svmtext.solver._core"]
    core.write_text(core.read_text().replace("y + 1", "y + 2"))
    step["value"] = 1.5                                           # a numerical change
    ok, message = _recertify.recertify("demo", results)
    assert not ok and "STALE" in message and "n_iter: 3, recorded 2" in message
    with pytest.raises(StaleCacheError):
        load_cache("demo", demo.CONFIG, root=results)


def test_measurements_are_not_compared():
    from svmtext.experiments._recertify import compare, is_measurement, strip_measurements
    assert all(is_measurement(k) for k in ["median_time", "peak_mb", "cpu_ratio", "seconds",
                                           "slopes_all_n", "timing_seconds", "load"])
    assert not any(is_measurement(k) for k in ["n_iter", "dual_objective", "accuracy_gap_pp"])
    assert strip_measurements({"rows": [{"n_sv": 3, "times": [1.0]}]}) == {"rows": [{"n_sv": 3}]}
    assert compare({"a": [1, 2.0]}, {"a": [1, 2.0 + 1e-12]}, 1e-9, 0) == []
    assert compare({"a": 1}, {"a": 1.0}, 1e-9, 0) == ["a: 1.0, recorded 1"]


def test_recertify_option_reports_a_failing_smoke_run(package, tmp_path, monkeypatch, capsys):
    """``--recertify`` goes on past a smoke run that raises and reports that cache stale."""
    import sys
    import types

    from svmtext.experiments import _cache

    cli = importlib.import_module("svmtext.experiments.__main__")
    broken = {"now": False}

    def run(config, root=None):
        if broken["now"]:
            raise RuntimeError("the solver broke")
        return write_cache("demo", config, {"accuracy": 0.9}, root=root)

    demo = types.SimpleNamespace(CONFIG={"n": 10}, SMOKE_CONFIG={"n": 2}, run=run)
    monkeypatch.setitem(sys.modules, "svmtext.experiments.demo", demo)
    monkeypatch.setattr(cli, "EXPERIMENTS", ["demo"])
    monkeypatch.setattr(_cache, "RESULTS", tmp_path / "results")
    run(demo.CONFIG, root=tmp_path / "results")
    assert cli.main(["--recertify"]) == 0 and "demo: current" in capsys.readouterr().out
    core = package / CORE
    core.write_text(core.read_text().replace("x + 1", "x + 5"))
    broken["now"] = True
    assert cli.main(["--recertify"]) == 1
    assert "demo: STALE, the smoke run failed: RuntimeError: the solver broke" in capsys.readouterr().out
