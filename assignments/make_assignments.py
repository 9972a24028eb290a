#!/usr/bin/env python3
"""Generate the course's assignments with otter-grader, and grade submissions.

Each assignment is authored once, with solutions and tests, as a MyST-markdown
notebook ``assignments/<name>/<name>.md`` in otter-grader's assign format (raw cells
``# ASSIGNMENT CONFIG``, ``# BEGIN QUESTION``, ``# BEGIN SOLUTION``, ``# BEGIN TESTS``;
see the instructor's page ``book/instructor.md``). This script only drives otter:

    python assignments/make_assignments.py                      # every assignment -> _build/assignments
    python assignments/make_assignments.py smo ecology          # some of them
    python assignments/make_assignments.py --no-run-tests       # skip grading the solutions
    python assignments/make_assignments.py grade smo SUBMISSIONS/ [--timeout 300] [--roster r.csv]

For each assignment ``otter assign`` writes ``<out>/<name>/student/<name>.ipynb`` (solutions
and hidden tests removed, visible tests kept in the notebook's metadata) and
``<out>/<name>/autograder/`` (the solution notebook and ``<name>-autograder_*.zip`` with
every test), and grades the solution notebook against all tests: a solution that fails
one of its own tests stops the build. ``grade`` (``grading.py``) runs ``otter run`` on
every ``*.ipynb`` of a folder, each in its own process with a time limit, and writes
one CSV row per submission as it goes and a feedback file each.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT = ROOT / "_build" / "assignments"

# The chapter each assignment goes with, in the book's order (the instructor's page
# and the tests read this table).
CHAPTERS = {
    "margin": "margin",
    "duality": "duality",
    "smo": "smo",
    "practice": "practice",
    "ecology": "ecology",
    "coulomb": "coulomb",
    "psvm": "psvm",
    "enumsv": "enumsv",
}


def masters() -> dict[str, Path]:
    """Every authored assignment ``<name>/<name>.md``, in the book's order."""
    found = {p.parent.name: p for p in HERE.glob("*/*.md") if p.stem == p.parent.name}
    order = list(CHAPTERS)
    return dict(sorted(found.items(), key=lambda kv: (
        order.index(kv[0]) if kv[0] in order else len(order), kv[0])))


def otter_exe() -> str:
    """The ``otter`` command of this interpreter's environment."""
    exe = Path(sys.executable).parent / "otter"
    return str(exe) if exe.is_file() else (shutil.which("otter") or "otter")


def to_ipynb(md: Path, dest: Path) -> Path:
    """The MyST master as an ``.ipynb`` (what ``otter assign`` reads)."""
    import jupytext

    dest.parent.mkdir(parents=True, exist_ok=True)
    nb = jupytext.read(md)
    nb.metadata.pop("jupytext", None)
    jupytext.write(nb, dest, fmt="ipynb")
    return dest


def assign(name: str, out: Path = OUT, run_tests: bool = True, quiet: bool = True,
           in_process: bool = False, wheel: Path | None = None) -> Path:
    """``otter assign`` one assignment into ``out/<name>``; returns that folder.

    With ``run_tests`` otter grades the solution notebook against every test and the
    call fails (``RuntimeError`` with otter's report) when a test does not pass.
    """
    md = masters()[name]
    dest = Path(out) / name
    shutil.rmtree(dest, ignore_errors=True)
    with tempfile.TemporaryDirectory(prefix=f"svmtext-assign-{name}-") as tmp:
        master = to_ipynb(md, Path(tmp) / f"{name}.ipynb")
        if in_process:      # the tests: no second interpreter, otter imported once
            import contextlib
            import io

            from otter.assign import main as otter_assign

            with contextlib.redirect_stdout(io.StringIO()):
                otter_assign(str(master), str(dest), no_run_tests=not run_tests)
            return dest
        cmd = [otter_exe(), "assign", str(master), str(dest)]
        if not run_tests:
            cmd.insert(2, "--no-run-tests")
        res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        log = "\n".join(l for l in (res.stdout + res.stderr).splitlines()
                        if "running over TCP" not in l)
        raise RuntimeError(f"otter assign failed for {name}:\n{log[-6000:]}")
    if wheel is not None:
        bundle_wheel(autograder_zip(dest), wheel)
    if not quiet:
        print(f"{name}: {student_notebook(dest)}  {autograder_zip(dest)}")
    return dest


AUTOGRADER_DIR = "/autograder/source"     # where Gradescope and `otter grade` unzip it


def build_wheel(dest: Path) -> Path:
    """A wheel of svmtext (the package only: no assignment, no test) in ``dest``."""
    dest = Path(dest)
    shutil.rmtree(dest, ignore_errors=True)
    had_build = (ROOT / "build").exists()          # setuptools' scratch folder
    res = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet",
                          "--wheel-dir", str(dest), str(ROOT)], capture_output=True, text=True)
    if not had_build:
        shutil.rmtree(ROOT / "build", ignore_errors=True)
    wheels = sorted(dest.glob("svmtext-*.whl"))
    if res.returncode != 0 or not wheels:
        raise RuntimeError(f"pip wheel failed:\n{(res.stdout + res.stderr)[-3000:]}")
    return wheels[-1]


def bundle_wheel(zip_path: Path, wheel: Path) -> Path:
    """Make the autograder zip self-contained: ``files/<svmtext wheel>`` inside, and the
    wheel added to the pip dependencies of its ``environment.yml`` (which its
    ``setup.sh`` installs, on Gradescope and in ``otter grade``'s Docker image)."""
    import yaml

    zip_path, wheel = Path(zip_path), Path(wheel)
    with zipfile.ZipFile(zip_path) as z:
        members = {n: z.read(n) for n in z.namelist()}
    env = yaml.safe_load(members["environment.yml"])
    pip = next(d for d in env["dependencies"] if isinstance(d, dict) and "pip" in d)["pip"]
    pip[:] = [p for p in pip if "svmtext" not in p] + [f"{AUTOGRADER_DIR}/files/{wheel.name}"]
    members["environment.yml"] = yaml.safe_dump(env, sort_keys=False).encode()
    members = {n: b for n, b in members.items() if not n.startswith("files/svmtext-")}
    members[f"files/{wheel.name}"] = wheel.read_bytes()
    tmp = zip_path.with_suffix(".tmp")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for n, b in members.items():
            z.writestr(n, b)
    os.replace(tmp, zip_path)
    return zip_path


def student_notebook(folder: Path) -> Path:
    return Path(folder) / "student" / f"{Path(folder).name}.ipynb"


def solution_notebook(folder: Path) -> Path:
    return Path(folder) / "autograder" / f"{Path(folder).name}.ipynb"


def autograder_zip(folder: Path) -> Path:
    zips = sorted((Path(folder) / "autograder").glob("*-autograder_*.zip"))
    if not zips:
        raise FileNotFoundError(f"no autograder zip in {folder}/autograder")
    return zips[-1]


def otter_run(submission: Path, zip_path: Path) -> dict:
    """Grade one notebook with ``otter run`` (no containers): per question
    ``{"score", "max_score", "output"}`` and a ``"total"`` entry."""
    with tempfile.TemporaryDirectory(prefix="svmtext-otter-run-") as tmp:
        res = subprocess.run([otter_exe(), "run", "--no-logo", "-a", str(zip_path),
                              "-o", tmp, str(submission)], capture_output=True, text=True)
        path = Path(tmp) / "results.json"
        if not path.is_file():
            raise RuntimeError(f"otter run wrote no results for {submission}:\n"
                               + (res.stdout + res.stderr)[-4000:])
        results = json.loads(path.read_text())
    scores = {t["name"]: {"score": t.get("score"), "max_score": t.get("max_score"),
                          "output": t.get("output", "")}
              for t in results["tests"] if t["name"] != "Public Tests"}
    scores["total"] = {"score": sum(s["score"] or 0 for s in scores.values()),
                       "max_score": sum(s["max_score"] or 0 for s in scores.values()),
                       "output": ""}
    return scores


def grade_folder(name: str, submissions: Path, out: Path = OUT,
                 csv_path: Path | None = None, jobs: int = 1, **kwargs) -> Path:
    """Grade every ``*.ipynb`` of ``submissions`` (``grading.grade_class``: a child
    process and a time limit per submission, the CSV written row by row)."""
    from grading import grade_class

    folder = Path(out) / name
    if not folder.is_dir():
        raise SystemExit(f"{folder} missing: run `make assignments` first")
    return grade_class(name, autograder_zip(folder), submissions, csv_path, jobs, **kwargs)


# ---------------------------------------------------------------- in-process grading

def _code_cells(nb_path: Path) -> list[str]:
    import nbformat

    nb = nbformat.read(nb_path, as_version=4)
    return [c.source for c in nb.cells if c.cell_type == "code"]


def run_notebook_in_process(nb_path: Path | None = None, cells: list[str] | None = None,
                            ) -> tuple[dict, list[str]]:
    """Execute a notebook's code cells in a fresh namespace, as a student's kernel
    would, skipping otter's own cells (``grader = otter.Notebook``, ``grader.check``).
    A failing cell is recorded and the next one runs (as ``otter run`` does).
    Returns the namespace and the errors."""
    env: dict = {"__name__": "__main__"}
    errors = []
    for src in (cells if cells is not None else _code_cells(nb_path)):
        if "otter" in src and ("import otter" in src or "grader." in src):
            continue
        try:
            exec(compile(src, "<cell>", "exec"), env)
        except Exception as exc:  # noqa: BLE001 - a student's cell may raise anything
            errors.append(f"{type(exc).__name__}: {exc}")
    return env, errors


def grade_in_process(nb_path: Path | None, zip_path: Path, cells: list[str] | None = None,
                     ) -> dict:
    """Grade with otter's own test files and test runner, in this process.

    The same tests ``otter run`` uses (``tests/*.py`` of the autograder zip, read by
    ``otter.test_files.ExceptionTestFile``) run against the namespace of the executed
    notebook; no kernel is started, so the tests of the tests stay fast.
    Returns per question ``{"score", "max_score", "output"}`` and ``"total"``.
    """
    import zipfile

    from otter.test_files import ExceptionTestFile

    env, errors = run_notebook_in_process(nb_path, cells)
    scores = {}
    with tempfile.TemporaryDirectory(prefix="svmtext-grade-") as tmp:
        with zipfile.ZipFile(zip_path) as z:
            z.extractall(tmp)
        for test in sorted((Path(tmp) / "tests").glob("*.py")):
            tf = ExceptionTestFile.from_file(str(test))
            tf.run(env)
            scores[tf.name] = {"score": tf.score, "max_score": tf.possible,
                               "output": tf.summary()}
    scores["total"] = {"score": sum(s["score"] for s in scores.values()),
                       "max_score": sum(s["max_score"] for s in scores.values()),
                       "output": "\n".join(errors)}
    return scores


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    os.environ.setdefault("MPLBACKEND", "Agg")
    if argv[:1] == ["grade"]:       # grading.py's command line
        sys.path.insert(0, str(HERE))
        from grading import main as grade_main

        return grade_main(argv[1:])
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("names", nargs="*", help="assignments (default: all)")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--no-run-tests", action="store_true")
    ap.add_argument("--jobs", type=int, default=1, help="assignments generated at once")
    args = ap.parse_args(argv)
    names = args.names or list(masters())
    unknown = set(names) - set(masters())
    if unknown:
        ap.error(f"unknown assignment(s) {sorted(unknown)}; have {list(masters())}")
    from concurrent.futures import ThreadPoolExecutor

    wheel = build_wheel(args.out / "wheel")

    def one(name):
        try:
            assign(name, args.out, run_tests=not args.no_run_tests, quiet=False, wheel=wheel)
            return None
        except RuntimeError as exc:
            print(exc, file=sys.stderr, flush=True)
            return name

    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        failed = [n for n in pool.map(one, names) if n]
    missing = [c for c in CHAPTERS if c not in masters()]
    print(f"{len(names) - len(failed)} assignment(s) generated in {args.out}"
          + (f"; FAILED: {', '.join(failed)}" if failed else "")
          + (f"; chapters without an assignment: {', '.join(missing)}" if missing else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
