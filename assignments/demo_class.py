#!/usr/bin/env python3
"""A made-up class of SMO submissions, to try the grading of a whole class.

    python assignments/demo_class.py DIR          # after `make assignments`
    make grade A=smo SUBMISSIONS=DIR TIMEOUT=60 ROSTER=DIR/roster.csv

Writes nine notebooks built from the SMO assignment's solution and student versions,
the things a real class hands in: a correct one, the blank hand-out, two wrong steps,
an endless loop, a cell that kills its kernel, a syntax error, an exception in the
first question with the rest right, and the library's answer pasted in. Also
``roster.csv`` (submission -> student_id, name).
"""
from __future__ import annotations

import csv
import sys
from pathlib import Path

import nbformat

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import make_assignments as build  # noqa: E402

CLIP = "eta = min((g[i] - g[j]) / a, room_i, room_j)"
CURV = "a = K[i, i] + K[j, j] - 2 * K[i, j]"
SELECT = "i = int(np.flatnonzero(up)[np.argmax(g[up])])"

# submission -> (old, new) replacements in the solution, or "student" (the hand-out)
CLASS = {
    "alice": [],
    "bob": "student",
    "carol": [(CLIP, "eta = (g[i] - g[j]) / a")],
    "dave": [(CURV, "a = K[i, i] + K[j, j] + 2 * K[i, j]")],
    "erin": [(SELECT, "while True:\n        pass\n    " + SELECT)],
    "frank": [(SELECT, "import os; os._exit(1)\n    " + SELECT)],
    "grace": [("def select_pair(g, y, alpha, C):", "def select_pair(g, y, alpha, C)")],
    "hank": [("def select_pair(g, y, alpha, C):",
              "raise ValueError('not finished')\ndef select_pair(g, y, alpha, C):")],
    "ivy": [("up = ((y > 0) & (alpha < C)) | ((y < 0) & (alpha > 0))",
             "from svmtext import kkt\n    status = kkt.alpha_status(alpha, C)\n"
             "    up = kkt.in_up(y, status)")],
}
EXPECTED = {"alice": "full", "bob": "zero", "carol": "partial", "dave": "partial",
            "erin": "timed out", "frank": "crashed", "grace": "syntax", "hank": "partial",
            "ivy": "library"}


def write_class(dest: Path, folder: Path = build.OUT / "smo") -> Path:
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    for who, change in CLASS.items():
        if change == "student":
            nb = nbformat.read(build.student_notebook(folder), as_version=4)
        else:
            nb = nbformat.read(build.solution_notebook(folder), as_version=4)
            for old, new in change:
                hits = [c for c in nb.cells if c.cell_type == "code" and old in c.source]
                assert len(hits) == 1, f"{who}: {old!r} found {len(hits)} times"
                hits[0].source = hits[0].source.replace(old, new)
        nbformat.write(nb, dest / f"{who}.ipynb")
    with open(dest / "roster.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["submission", "student_id", "name"])
        for k, who in enumerate(CLASS, 1):
            w.writerow([f"{who}.ipynb", f"S{1000 + k}", who.capitalize()])
    return dest


if __name__ == "__main__":
    print(write_class(Path(sys.argv[1])))
