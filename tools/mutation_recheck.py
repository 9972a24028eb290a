"""A session of the survivors of earlier cosmic-ray sessions, to run again on newer tests.

    python tools/mutation_recheck.py OUT.sqlite SESSION.sqlite [...]

Every mutant that survived in one of the sessions (tests passed) is added, unrun, to the
new session ``OUT.sqlite``; ``cosmic-ray exec CONFIG.toml OUT.sqlite`` on a clone of the
commit with the new tests then says which of them the new tests kill
(``tools/mutation.sh`` with ``MUTATION_RECHECK``; ``tools/mutation_score.py`` scores it).
The source lines must not have moved (the mutants name operators by position).
"""
from __future__ import annotations

import sys

from cosmic_ray.work_db import WorkDB, use_db
from cosmic_ray.work_item import TestOutcome, WorkerOutcome


def main(argv: list[str]) -> int:
    out, *sessions = argv
    survivors = []
    for session in sessions:
        with use_db(session, WorkDB.Mode.open) as db:
            survivors += [item for item, result in db.completed_work_items
                          if result.worker_outcome == WorkerOutcome.NORMAL
                          and result.test_outcome == TestOutcome.SURVIVED]
    with use_db(out, WorkDB.Mode.create) as db:
        db.clear()
        db.add_work_items(survivors)
    print(f"{out}: {len(survivors)} survivors of {len(sessions)} session(s) to run again")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
