"""Mutation score of cosmic-ray sessions: killed / (mutants run - equivalent ones).

    python tools/mutation_score.py SESSION.sqlite [...]

Prints, per session and in total, the mutants run, killed (a test failed or timed out),
survived and incompetent (the mutant could not be imported), and lists each survivor
(module, line, operator, the line's text). Survivors that tests/MUTATION.md lists as
equivalent, by ``module:line operator #occurrence``, are left out of the denominator.
"""
from __future__ import annotations

import functools
import re
import subprocess
import sys
from pathlib import Path

from cosmic_ray.work_db import WorkDB, use_db
from cosmic_ray.work_item import TestOutcome, WorkerOutcome

MUTATION_MD = Path(__file__).resolve().parents[1] / "tests" / "MUTATION.md"


#: The heading of MUTATION.md's table of the campaign being scored: the mutants name source
#: lines of that campaign's commit, so the tables of earlier campaigns are not read.
SECTION = "## Survivors of the full campaign"


def equivalent() -> set[str]:
    """``module:line operator #occurrence`` of the survivors that MUTATION.md's table of
    the full campaign declares equivalent."""
    if not MUTATION_MD.is_file():
        return set()
    text = MUTATION_MD.read_text()
    start = text.find(SECTION)
    if start < 0:
        return set()
    end = text.find("\n## ", start + len(SECTION))
    return set(re.findall(r"`(svmtext/\S+:\d+ core/\S+ #\d+)`\s*\|\s*equivalent",
                          text[start:end if end >= 0 else None]))


@functools.cache
def _source(session: str, module: str) -> list[str]:
    """The lines of ``module`` as the campaign mutated them: at the commit named in the
    ``commit`` file beside the session (tools/mutation.sh writes it), else the working tree."""
    commit = Path(session).with_name("commit")
    if commit.is_file():
        out = subprocess.run(["git", "show", f"{commit.read_text().strip()}:{module}"],
                             capture_output=True, text=True, cwd=MUTATION_MD.parents[1])
        if out.returncode == 0:
            return out.stdout.splitlines()
    return Path(module).read_text().splitlines() if Path(module).is_file() else []


def main(sessions: list[str]) -> int:
    equiv = equivalent()
    total = {"run": 0, "killed": 0, "survived": 0, "incompetent": 0, "equivalent": 0}
    for session in sessions:
        counts = dict.fromkeys(total, 0)
        survivors = []
        with use_db(session, WorkDB.Mode.open) as db:
            for item, result in db.completed_work_items:
                if result.worker_outcome == WorkerOutcome.SKIPPED:
                    continue
                counts["run"] += 1
                if result.worker_outcome == WorkerOutcome.ABNORMAL or (
                        result.test_outcome == TestOutcome.INCOMPETENT):
                    counts["incompetent"] += 1
                elif result.test_outcome == TestOutcome.KILLED:
                    counts["killed"] += 1
                else:
                    m = item.mutations[0]
                    key = f"{m.module_path}:{m.start_pos[0]} {m.operator_name} #{m.occurrence}"
                    if key in equiv:
                        counts["equivalent"] += 1
                    else:
                        counts["survived"] += 1
                    line = _source(session, str(m.module_path))[m.start_pos[0] - 1].strip()
                    survivors.append(f"  {key}  {line}"
                                     + ("  [equivalent]" if key in equiv else ""))
            pending = sum(1 for _ in db.pending_work_items)
        print(f"{session}: {counts['run']} run, {counts['killed']} killed, "
              f"{counts['survived']} survived, {counts['equivalent']} equivalent, "
              f"{counts['incompetent']} incompetent, {pending} pending")
        print("\n".join(survivors))
        for k in total:
            total[k] += counts[k]
    denom = total["killed"] + total["survived"]
    score = total["killed"] / denom if denom else float("nan")
    print(f"mutation score: {total['killed']} killed of {denom} non-equivalent mutants run "
          f"= {100 * score:.1f} % ({total['equivalent']} equivalent, {total['incompetent']} "
          "incompetent not counted)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
