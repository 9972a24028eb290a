"""Keep the mutations of a cosmic-ray session that fall inside the named functions.

    python tools/mutation_filter.py [--sample N] [--shard I/N] SESSION.sqlite MODULE.py FUNC [FUNC ...]

Every pending mutation of ``MODULE.py`` outside the bodies of the named functions (found
with ``ast``, so the filter follows the code when it moves) is marked skipped; a name
matches a function or method of that name at any depth. Decorators, docstrings and
mutations of operators outside ``KEPT_OPERATORS`` are skipped too (see tests/MUTATION.md).
With ``--sample N`` only a random ``N`` of the kept mutants (seed 0, so the same ones every
run of the same code) are run: the score is then an estimate over a uniform sample.
With ``--shard I/N`` only every ``N``-th kept mutant from the ``I``-th on (``0 <= I < N``, in
source order) is run, so ``N`` sessions of the same module, each on its own clone, share
the campaign between ``N`` processes.
"""
from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

from cosmic_ray.work_db import WorkDB, use_db
from cosmic_ray.work_item import WorkerOutcome, WorkResult

#: The operators kept: a selective set (one mutant per operator and kind of fault). Numbers
#: changed, conditions negated, ``and``/``or`` swapped, loops run zero times, booleans and
#: ``break``/``continue`` swapped; arithmetic ``+ <-> -``, ``* <-> /``; each comparison moved
#: across its boundary (``< <-> <=``, ``> <-> >=``) and negated (``< <-> >=``, ``> <-> <=``,
#: ``== <-> !=``); a unary minus dropped. Left out: the bitwise, shift, power, modulo and
#: floor-division replacements of float arithmetic and ``is``/``is not`` (ill-typed or
#: killed by any test that runs the line), removing ``@njit`` (the campaign runs with
#: NUMBA_DISABLE_JIT=1, so that mutant is equivalent), inserting or replacing variables.
KEPT_OPERATORS = re.compile(
    r"core/(NumberReplacer|AddNot|ReplaceAndWithOr|ReplaceOrWithAnd|ZeroIterationForLoop"
    r"|ReplaceBreakWithContinue|ReplaceContinueWithBreak|ReplaceTrueWithFalse"
    r"|ReplaceFalseWithTrue"
    r"|ReplaceBinaryOperator_(Add_Sub|Sub_Add|Mult_Div|Mul_Div|Div_Mul|Div_Mult)"
    r"|ReplaceComparisonOperator_(Lt_LtE|LtE_Lt|Gt_GtE|GtE_Gt|Lt_GtE|GtE_Lt|Gt_LtE|LtE_Gt"
    r"|Eq_NotEq|NotEq_Eq)"
    r"|ReplaceUnaryOperator_Delete_USub)$")


def _ranges(path: Path, names: set[str]) -> list[tuple[int, int]]:
    """Line ranges of the named functions' bodies, docstrings excluded."""
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in names:
            body = node.body
            if (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                    and isinstance(body[0].value.value, str)):
                body = body[1:]
            if body:
                out.append((body[0].lineno, node.end_lineno))
    return out


def _pending(db: WorkDB, module: str) -> list:
    """The pending mutations of ``module``, in source order (position, operator, occurrence)."""
    return sorted((it for it in db.pending_work_items
                   if any(Path(m.module_path).resolve() == Path(module).resolve()
                          for m in it.mutations)),
                  key=lambda it: (it.mutations[0].start_pos, it.mutations[0].operator_name,
                                  it.mutations[0].occurrence))


def main(argv: list[str]) -> int:
    sample = None
    shard, n_shards = 0, 1
    while argv and argv[0] in ("--sample", "--shard"):
        if argv[0] == "--sample":
            sample = int(argv[1])
        else:
            shard, n_shards = (int(v) for v in argv[1].split("/"))
            if not 0 <= shard < n_shards:
                raise SystemExit(f"--shard {argv[1]}: need I/N with 0 <= I < N")
        argv = argv[2:]
    session, module, *names = argv
    ranges = _ranges(Path(module), set(names))
    missing = set(names) - {n.name for n in ast.walk(ast.parse(Path(module).read_text()))
                            if isinstance(n, ast.FunctionDef)}
    if missing:
        print(f"note: {module} has no function(s) {', '.join(sorted(missing))}")
    kept = skipped = 0
    with use_db(session, WorkDB.Mode.open) as db:
        items = sorted(db.pending_work_items, key=lambda it: it.job_id)
        for item in items:
            mine = [m for m in item.mutations if Path(m.module_path).resolve() == Path(module).resolve()]
            if not mine:
                continue
            keep = all(any(lo <= m.start_pos[0] <= hi for lo, hi in ranges)
                       and KEPT_OPERATORS.match(m.operator_name) for m in mine)
            if keep:
                kept += 1
            else:
                skipped += 1
                db.set_result(item.job_id, WorkResult(output="outside the mutated functions",
                                                      worker_outcome=WorkerOutcome.SKIPPED))
        if sample is not None:
            import random

            pending = _pending(db, module)
            chosen = set(random.Random(0).sample(range(len(pending)),
                                                 max(0, min(sample, len(pending)))))
            drop = [it for i, it in enumerate(pending) if i not in chosen]
            for item in drop:
                db.set_result(item.job_id, WorkResult(output="not in the sample",
                                                      worker_outcome=WorkerOutcome.SKIPPED))
            print(f"{module}: a sample of {len(pending) - len(drop)} of the {kept} kept")
        if n_shards > 1:
            pending = _pending(db, module)
            for i, item in enumerate(pending):
                if i % n_shards != shard:
                    db.set_result(item.job_id, WorkResult(output=f"in another shard than {shard}/{n_shards}",
                                                          worker_outcome=WorkerOutcome.SKIPPED))
            print(f"{module}: shard {shard}/{n_shards} runs {len(pending[shard::n_shards])} of them")
    print(f"{module}: {kept} mutants kept, {skipped} skipped")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
