"""The experiments' shared command line and memory meter (svmtext.experiments._cli,
svmtext.experiments._memory)."""
import subprocess
import sys
import time
import types
from pathlib import Path

import pytest

from svmtext.experiments import _cli
from svmtext.experiments import _memory
from svmtext.experiments._memory import Meter, status_kb


def _demo(grid: bool):
    calls = []

    def run(config, root=None, backend=None, n_jobs=None):
        calls.append({"config": config, "root": root, "backend": backend, "n_jobs": n_jobs})
        return {"n": config["n"]}

    def run_plain(config, root=None):
        calls.append({"config": config, "root": root})
        return {"n": config["n"]}

    module = types.SimpleNamespace(NAME="demo", CONFIG={"n": 10}, SMOKE_CONFIG={"n": 2},
                                   run=run if grid else run_plain)
    return module, calls


def test_smoke_runs_the_reduced_configuration_in_a_temporary_folder():
    module, calls = _demo(grid=True)
    assert _cli.run_from_command_line(module, ["--smoke", "--n-jobs", "3"]) == {"n": 2}
    (call,) = calls
    assert call["config"] == {"n": 2} and call["n_jobs"] == 3 and call["backend"] is None
    assert not Path(call["root"]).exists()               # the temporary folder is gone
    assert _cli.run_from_command_line(module, ["--backend", "threading"]) == {"n": 10}
    assert calls[-1]["root"] == _cli.RESULTS and calls[-1]["backend"] == "threading"


def test_grid_options_are_refused_by_a_single_pipeline(capsys):
    module, calls = _demo(grid=False)
    with pytest.raises(SystemExit):
        _cli.run_from_command_line(module, ["--n-jobs", "2"])
    assert "demo runs no task grid: --n-jobs does not apply" in capsys.readouterr().err
    assert not calls
    assert _cli.run_from_command_line(module, ["--smoke"]) == {"n": 2}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc is Linux's")
def test_meter_measures_time_cpu_and_the_peak_of_its_block():
    assert status_kb("VmRSS") > 0 and status_kb("NoSuchKey") is None
    # CPU time is the whole process's: other threads (BLAS, numba, an executor
    # left by another test) may add to it, so bound it by the process's own clock
    # around the block rather than by the wall time.
    c0 = time.process_time()
    with Meter() as idle:
        time.sleep(0.05)
    c1 = time.process_time()
    assert idle.seconds >= 0.05 and 0 <= idle.cpu_seconds <= c1 - c0
    with Meter() as spin:                              # this thread alone busy for 0.05 s
        t0 = time.thread_time()
        while time.thread_time() - t0 < 0.05:
            pass
    assert spin.cpu_seconds >= 0.05
    # The peak, in a fresh interpreter: there 64 MB of new pages raise the resident
    # size by 64 MB. (In a long-lived test worker the allocation may reuse pages the
    # process already holds, and the peak is then rightly about 0: it happened once.)
    # The block's memory is still held at its end, so the high-water mark counts it on
    # any kernel (memory freed inside a block counts only where the kernel raised its
    # mark before the free; one CI machine's did not: -0.25 MB for a freed 64 MB).
    probe = (
        "import importlib.util, sys, numpy as np\n"
        "spec = importlib.util.spec_from_file_location('m', sys.argv[1])\n"
        "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)\n"
        "with m.Meter() as busy:\n"
        "    block = np.ones(64 * 2 ** 20 // 8)\n"   # 64 MB, every page touched
        "print(m.reset_peak(), busy.peak_mb)\n")
    out = subprocess.run([sys.executable, "-c", probe, _memory.__file__], check=True,
                         capture_output=True, text=True).stdout.split()
    if out[0] == "True":                               # the kernel lets the peak be reset
        assert float(out[1]) >= 60
    else:
        assert out[1] == "None"
