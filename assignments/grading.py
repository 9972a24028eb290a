#!/usr/bin/env python3
"""Grade a class: every submission in its own process, with a time limit.

    python assignments/grading.py smo SUBMISSIONS/ [--timeout 300] [--jobs 2]
        [--roster roster.csv] [--sandbox] [--csv grades.csv]
    make grade A=smo SUBMISSIONS=dir [TIMEOUT=300] [ROSTER=roster.csv] [SANDBOX=1]

Each ``*.ipynb`` of the folder is graded by ``otter run`` (otter-grader's grading of one
notebook without containers) in a child process of its own, killed with its kernel
after ``--timeout`` seconds (default 300). A submission that hangs is recorded as 0
with ``timed out`` in its feedback, one whose grading dies (its kernel killed, out of
memory, an error in otter) as 0 with ``crashed``; the next submission is graded either
way. The CSV gets one row per submission as soon as it is graded (a crash of the
grader itself loses nothing already written) and ``feedback/<submission>.txt`` holds
the score and message of every test and the student's own first error: the code cell
(its number among the notebook's code cells and first line) and the exception.

``--roster`` maps submission names to student IDs for the LMS: a CSV with the columns
``submission`` (the file name, with or without ``.ipynb``) and ``student_id`` (and
optionally ``name``). Then the grade CSV gets a ``student_id`` column and two import
files are written beside it: ``<name>-canvas.csv`` (Canvas gradebook import columns
``Student, ID, SIS User ID, SIS Login ID, Section, <assignment>``) and
``<name>-moodle.csv`` (Moodle's grade import, matched on ``ID number``).

Without a sandbox student code runs as the instructor (a warning says so).
``--sandbox`` runs each grading process in a new user and network namespace
(``unshare -rn``: no network) with a memory limit and a scratch ``HOME``; the files
the instructor can read stay readable, so it is a partial sandbox. The complete one is
``otter grade`` with its Docker image (see the instructor's page), which needs a
running Docker daemon.
"""
from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import zipfile
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_TIMEOUT = 300.0
UNSANDBOXED_WARNING = (
    "WARNING: grading runs the students' code as you, with your files and network "
    "(no sandbox). Use --sandbox (no network, memory limit) or `otter grade` with "
    "Docker for untrusted submissions.")


def questions_of(zip_path: Path) -> list[str]:
    """The questions of an autograder zip (``tests/<q>.py``), in order."""
    with zipfile.ZipFile(zip_path) as z:
        names = [Path(n).stem for n in z.namelist()
                 if n.startswith("tests/") and n.endswith(".py")]
    return sorted(names, key=lambda q: (len(q), q))


def first_error(executed_nb, submission_nb) -> str:
    """The first exception raised by one of the student's own code cells: which cell
    (its number among the submission's code cells, and its first line) and the error."""
    own = [c.source for c in submission_nb.cells if c.cell_type == "code"]
    for cell in executed_nb.cells:
        if cell.cell_type != "code":
            continue
        for out in cell.get("outputs", []):
            if out.get("output_type") != "error":
                continue
            number = next((k for k, src in enumerate(own, 1)
                           if src.strip() and cell.source.rstrip().endswith(src.rstrip())), None)
            if number is None or "otter.Notebook(" in own[number - 1]:
                continue          # a cell otter added or its init cell, not the student's
            line = next((l for l in own[number - 1].splitlines() if l.strip()), "")
            return (f"first error: code cell {number} (`{line.strip()[:70]}`): "
                    f"{out.get('ename')}: {out.get('evalue')}")
    return ""


def _child(zip_path: str, submission: str, out_dir: str) -> int:
    """Run in the child process: ``otter run`` on one notebook; writes ``results.json``
    and ``first_error.txt`` into ``out_dir``."""
    import nbformat
    from otter.run import main as otter_run

    results = otter_run(submission, autograder=zip_path, output_dir=out_dir, no_logo=True)
    message = ""
    if getattr(results, "notebook", None) is not None:
        message = first_error(results.notebook, nbformat.read(submission, as_version=4))
    Path(out_dir, "first_error.txt").write_text(message, encoding="utf-8")
    return 0


def _sandbox_prefix(memory_gb: float = 4.0) -> list[str]:
    """A new user and network namespace (loopback only, for the kernel's sockets) and
    an address-space limit."""
    limit = int(memory_gb * 2**30)
    return ["unshare", "-rn", "sh", "-c",
            f'ip link set lo up && exec prlimit --as={limit} "$@"', "sandbox"]


def grade_one(submission: Path, zip_path: Path, timeout: float = DEFAULT_TIMEOUT,
              sandbox: bool = False) -> dict:
    """Grade one notebook in a child process: ``{"status", "scores", "message",
    "seconds"}`` with ``status`` one of ``graded``, ``timed out``, ``crashed`` and
    ``scores`` per question ``{"score", "max_score", "output"}``."""
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="svmtext-grade-") as tmp:
        home = Path(tmp, "home")
        home.mkdir()
        # under the assignment's own name, as otter's init cell in the notebook expects
        copy = Path(tmp, "submission", Path(zip_path).name.split("-autograder")[0] + ".ipynb")
        copy.parent.mkdir()
        shutil.copyfile(submission, copy)
        cmd = [sys.executable, str(Path(__file__).resolve()), "_child",
               str(Path(zip_path).resolve()), str(copy), tmp]
        if sandbox:
            cmd = _sandbox_prefix() + cmd
        env = dict(os.environ, MPLBACKEND="Agg", HOME=str(home) if sandbox
                   else os.environ.get("HOME", str(home)))
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True, cwd=tmp, env=env, start_new_session=True)
        try:
            log, _ = proc.communicate(timeout=timeout)
            status = "graded"
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)          # the kernel goes with it
            log, _ = proc.communicate()
            status = "timed out"
        seconds = time.perf_counter() - start
        results = Path(tmp, "results.json")
        if status == "graded" and (proc.returncode != 0 or not results.is_file()):
            status = "crashed"
        if status != "graded":
            why = (f"timed out: grading stopped after {timeout:g} s (an endless loop or a "
                   "very slow cell?)" if status == "timed out" else
                   "crashed: the notebook could not be graded (its kernel died or a cell "
                   "ended the process)")
            tail = "\n".join(l for l in (log or "").splitlines()
                             if "running over TCP" not in l)[-1500:]
            return {"status": status, "scores": {}, "seconds": seconds,
                    "message": why + ("\n" + tail if status == "crashed" and tail else "")}
        data = json.loads(results.read_text())
        message = Path(tmp, "first_error.txt").read_text(encoding="utf-8")
    scores = {t["name"]: {"score": t.get("score") or 0.0, "max_score": t.get("max_score") or 0.0,
                          "output": t.get("output", "")}
              for t in data["tests"] if t["name"] != "Public Tests"}
    return {"status": status, "scores": scores, "message": message, "seconds": seconds}


def read_roster(path: Path) -> dict[str, dict]:
    """``submission`` (file name, ``.ipynb`` optional) -> ``{"student_id", "name"}``."""
    with open(path, newline="", encoding="utf-8-sig") as f:
        rows = list(csv.DictReader(f))
    if not rows or not {"submission", "student_id"} <= set(rows[0]):
        raise ValueError(f"roster {path}: needs the columns 'submission' and 'student_id' "
                         f"(has {sorted(rows[0]) if rows else 'no rows'})")
    return {Path(r["submission"].strip()).stem: {"student_id": r["student_id"].strip(),
                                                  "name": (r.get("name") or "").strip()}
            for r in rows}


def write_lms(csv_path: Path, name: str, rows: list[dict], possible: float) -> list[Path]:
    """Canvas and Moodle import files from the graded rows (with a roster)."""
    title = f"{name} ({possible:g} points)"
    canvas = csv_path.with_name(f"{name}-canvas.csv")
    moodle = csv_path.with_name(f"{name}-moodle.csv")
    with open(canvas, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["Student", "ID", "SIS User ID", "SIS Login ID", "Section", title])
        w.writerow(["Points Possible", "", "", "", "", f"{possible:g}"])
        for r in rows:
            w.writerow([r["name"], "", r["student_id"], "", "", f"{r['total']:g}"])
    with open(moodle, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["ID number", "Full name", title])
        for r in rows:
            w.writerow([r["student_id"], r["name"], f"{r['total']:g}"])
    return [canvas, moodle]


def grade_class(name: str, zip_path: Path, submissions: Path, csv_path: Path | None = None,
                jobs: int = 1, timeout: float = DEFAULT_TIMEOUT, roster: Path | None = None,
                sandbox: bool = False, quiet: bool = False) -> Path:
    """Grade every ``*.ipynb`` of ``submissions``; one CSV row per submission, written as
    soon as it is graded, and ``feedback/<submission>.txt``. Returns the CSV's path."""
    subs = sorted(Path(submissions).glob("*.ipynb"))
    if not subs:
        raise SystemExit(f"no .ipynb submissions in {submissions}")
    ids = read_roster(roster) if roster else None
    if ids is not None:
        unknown = [s.name for s in subs if s.stem not in ids]
        if unknown:
            print(f"not in the roster {roster} (student_id left empty): {unknown}",
                  file=sys.stderr)
    if not sandbox and not quiet:
        print(UNSANDBOXED_WARNING, file=sys.stderr, flush=True)
    questions = questions_of(zip_path)
    csv_path = Path(csv_path or Path(submissions) / f"{name}-grades.csv")
    feedback = csv_path.parent / "feedback"
    feedback.mkdir(parents=True, exist_ok=True)
    lms_rows, possible = [], None
    with open(csv_path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["submission"] + (["student_id"] if ids is not None else [])
                   + questions + ["total", "possible", "status", "seconds"])
        f.flush()
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            futures = {pool.submit(grade_one, s, zip_path, timeout, sandbox): s for s in subs}
            for fut in as_completed(futures):
                sub = futures[fut]
                try:
                    res = fut.result()
                except Exception as exc:  # noqa: BLE001 - the class goes on
                    res = {"status": "crashed", "scores": {}, "seconds": 0.0,
                           "message": f"crashed: {type(exc).__name__}: {exc}"}
                scores = res["scores"]
                total = sum(s["score"] for s in scores.values())
                if scores:
                    possible = sum(s["max_score"] for s in scores.values())
                sid = ids.get(sub.stem, {}) if ids is not None else None
                w.writerow([sub.name] + ([sid.get("student_id", "")] if sid is not None else [])
                           + [f"{scores[q]['score']:g}" if q in scores else 0 for q in questions]
                           + [f"{total:g}", f"{possible:g}" if possible else "", res["status"],
                              f"{res['seconds']:.1f}"])
                f.flush()
                text = [f"{sub.name}: {total:g} points ({res['status']})"]
                if res["message"]:
                    text.append(res["message"])
                text += [f"{q}: {s['score']:g} / {s['max_score']:g}\n{s['output']}".rstrip()
                         for q, s in scores.items()]
                (feedback / f"{sub.stem}.txt").write_text("\n\n".join(text) + "\n",
                                                          encoding="utf-8")
                if sid is not None:
                    lms_rows.append({"student_id": sid.get("student_id", ""),
                                     "name": sid.get("name", ""), "total": total})
                if not quiet:
                    print(f"{sub.name}: {total:g} ({res['status']}, {res['seconds']:.1f} s)",
                          flush=True)
    if ids is not None and possible:
        for p in write_lms(csv_path, name, lms_rows, possible):
            print(f"wrote {p}")
    print(f"wrote {csv_path} and {feedback}/")
    return csv_path


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["_child"]:
        return _child(*argv[1:4])
    sys.path.insert(0, str(HERE))
    import make_assignments as build

    ap = argparse.ArgumentParser(description="grade a folder of submissions")
    ap.add_argument("name", choices=list(build.masters()))
    ap.add_argument("submissions", type=Path)
    ap.add_argument("--out", type=Path, default=build.OUT, help="where `make assignments` wrote")
    ap.add_argument("--csv", type=Path)
    ap.add_argument("--jobs", type=int, default=1, help="submissions graded at once")
    ap.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT,
                    help="seconds per submission (default 300)")
    ap.add_argument("--roster", type=Path, help="CSV: submission,student_id[,name]")
    ap.add_argument("--sandbox", action="store_true",
                    help="no network, memory limit (unshare -rn; Linux)")
    args = ap.parse_args(argv)
    folder = args.out / args.name
    if not folder.is_dir():
        raise SystemExit(f"{folder} missing: run `make assignments` first")
    grade_class(args.name, build.autograder_zip(folder), args.submissions, args.csv,
                args.jobs, args.timeout, args.roster, args.sandbox)
    return 0


if __name__ == "__main__":
    sys.exit(main())
