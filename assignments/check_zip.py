#!/usr/bin/env python3
"""Check that an autograder zip is self-contained: unzip it into a fresh virtual
environment (no access to this repository or to .venv), install what its
``environment.yml`` lists (otter-grader and the svmtext wheel it carries) and grade a
submission there with ``otter run``.

    python assignments/check_zip.py _build/assignments/smo/autograder/smo-autograder_*.zip SUB.ipynb
    make check-zip A=smo                    # the solution of an assignment

Prints the interpreter that imported svmtext (inside the fresh environment) and the
score. Needs the package index (pip) for otter-grader and svmtext's dependencies.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from make_assignments import AUTOGRADER_DIR  # noqa: E402


def pip_dependencies(source: Path) -> list[str]:
    """The pip list of the zip's ``environment.yml``, with the autograder folder's path
    replaced by ``source``; conda's ``jupyter_server`` becomes its pip package."""
    import yaml

    env = yaml.safe_load((source / "environment.yml").read_text())
    pip = next(d for d in env["dependencies"] if isinstance(d, dict) and "pip" in d)["pip"]
    conda = [d for d in env["dependencies"] if isinstance(d, str)]
    extra = ["jupyter_server"] if "jupyter_server" in conda else []
    return [p.replace(AUTOGRADER_DIR, str(source)) for p in pip] + extra


def check(zip_path: Path, submission: Path, keep: Path | None = None) -> dict:
    tmp = Path(keep or tempfile.mkdtemp(prefix="svmtext-zipcheck-"))
    source, venv, out = tmp / "source", tmp / "venv", tmp / "out"
    for p in (source, out):
        p.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(zip_path) as z:
        z.extractall(source)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(PATH=f"{venv / 'bin'}:/usr/bin:/bin", JUPYTER_PATH="", MPLBACKEND="Agg",
               HOME=str(tmp))
    t0 = time.perf_counter()
    base = shutil.which("python3", path="/usr/local/bin:/usr/bin") or sys.executable
    subprocess.run([base, "-m", "venv", str(venv)], check=True, cwd=tmp, env=env)
    py = str(venv / "bin" / "python")
    deps = pip_dependencies(source)
    subprocess.run([py, "-m", "pip", "install", "--quiet", *deps], check=True, cwd=tmp, env=env)
    t_install = time.perf_counter() - t0
    where = subprocess.run([py, "-c", "import svmtext, otter; print(svmtext.__file__)"],
                           check=True, cwd=tmp, env=env, capture_output=True, text=True)
    sub = out / Path(zip_path).name.split("-autograder")[0]
    sub = sub.with_suffix(".ipynb")
    shutil.copyfile(submission, sub)
    t1 = time.perf_counter()
    subprocess.run([str(venv / "bin" / "otter"), "run", "--no-logo", "-a", str(Path(zip_path).resolve()),
                    "-o", str(out), str(sub)], check=True, cwd=out, env=env,
                   capture_output=True, text=True)
    results = json.loads((out / "results.json").read_text())
    tests = [t for t in results["tests"] if t["name"] != "Public Tests"]
    report = {"svmtext": where.stdout.strip(), "dependencies": deps,
              "score": sum(t.get("score") or 0 for t in tests),
              "possible": sum(t.get("max_score") or 0 for t in tests),
              "install_seconds": round(t_install, 1),
              "grade_seconds": round(time.perf_counter() - t1, 1)}
    if keep is None:
        shutil.rmtree(tmp, ignore_errors=True)
    return report


if __name__ == "__main__":
    rep = check(Path(sys.argv[1]), Path(sys.argv[2]))
    print(json.dumps(rep, indent=1))
    sys.exit(0 if rep["svmtext"].startswith("/") and ".venv/" not in rep["svmtext"] else 1)
