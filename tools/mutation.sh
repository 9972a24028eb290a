#!/usr/bin/env bash
# Mutation testing of the KKT conditions, the bias rule and the SMO core (make mutation).
#
# Works on clones of the committed HEAD under _build/mutation, never on the working tree: one
# clone per module and shard (MUTATION_SHARDS=N splits each module's mutants between N
# sessions), so MUTATION_JOBS processes can run side by side without meeting each other's
# mutants.
# cosmic-ray mutates one operator occurrence at a time in the functions listed below and runs
# the fast tests that check them; numba is switched off (NUMBA_DISABLE_JIT=1): the compiled
# functions run as Python, so a mutant never meets a stale compiled cache, and removing the
# @njit decorator is not a mutation. Survivors are listed in tests/MUTATION.md.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PY=${PY:-$ROOT/.venv/bin/python}
BIN=$(dirname "$PY")
WORK=${MUTATION_DIR:-$ROOT/_build/mutation}
JOBS=${MUTATION_JOBS:-1}
MODULES=${MUTATION_MODULES:-"svmtext/kkt.py svmtext/smo/_core.py"}
SAMPLE=${MUTATION_SAMPLE:-}      # e.g. 100: a seeded uniform sample of the mutants per module
SHARDS=${MUTATION_SHARDS:-1}     # sessions per module, each on its own clone
TIMEOUT=${MUTATION_TIMEOUT:-120} # seconds per mutant (the unmutated tests take 6-20 s)

KKT_FUNCS="max_violation _check kkt_residuals bound_tol bias_tol alpha_status in_up in_low free_and_bounded bias_interval bias_from_gradient intercept_from_alpha dual_objective_from_coef"
CORE_FUNCS="max_up curvature wss2_scan _status_of two_variable_step bias update_gradient _max _first _scores_min _update _set_offsets dense_loop"
# the fast tests that check each module (pytest -x: the first failure kills the mutant)
TESTS_kkt="tests/test_robust_mutants.py tests/test_kkt.py tests/test_qp.py"
SELECT_kkt="not nothing"
TESTS__core="tests/test_robust_mutants.py tests/test_smo_dense.py tests/test_smo.py"
SELECT__core="not mnist and not waveform and not svc_predictions and not bit_for_bit"

export NUMBA_DISABLE_JIT=1 SVMTEXT_DATA="${SVMTEXT_DATA:-$ROOT/../shared/data}"
export MPLBACKEND=Agg

run_unit() {   # one session on its own clone
  cd "$WORK/src-$1" && PYTHONPATH="$WORK/src-$1" "$BIN/cosmic-ray" exec "$WORK/$1.toml" "$WORK/$1.sqlite" \
    > "$WORK/$1.exec.log" 2>&1
  echo "finished $1"
}
export -f run_unit
export WORK BIN

# MUTATION_RECHECK=1: the survivors of the campaign in $WORK run again with HEAD's tests on
# the campaign's commit (the mutants name operators by source position), one session per
# module (recheck-<module>); the unmutated code must pass those tests first.
if [ -n "${MUTATION_RECHECK:-}" ]; then
  units=""
  for module in $MODULES; do
    name=$(basename "$module" .py)
    unit=recheck-$name
    rm -rf "$WORK/src-$unit"
    git clone --quiet "$ROOT" "$WORK/src-$unit"
    git -C "$WORK/src-$unit" checkout --quiet "$(cat "$WORK/commit")" -- svmtext
    tests_var="TESTS_$name"; select_var="SELECT_$name"
    (cd "$WORK/src-$unit" && PYTHONPATH="$WORK/src-$unit" "$PY" -m pytest -x -q -n 0 -p no:cacheprovider \
       ${!tests_var} -k "${!select_var}" > "$WORK/baseline-$unit.log" 2>&1) \
      || { echo "HEAD's tests fail on the campaign's code: see $WORK/baseline-$unit.log"; exit 1; }
    sessions=$(ls "$WORK/$name".sqlite "$WORK/$name"-[0-9]*.sqlite 2>/dev/null || true)
    "$PY" "$ROOT/tools/mutation_recheck.py" "$WORK/$unit.sqlite" $sessions
    first=$(ls "$WORK/$name".toml "$WORK/$name"-[0-9]*.toml 2>/dev/null | head -1 || true)
    cp "$first" "$WORK/$unit.toml"
    units="$units $unit"
  done
  echo "rechecking on $(git -C "$ROOT" log --oneline -1)"
  printf '%s\n' $units | xargs -P "$JOBS" -I{} bash -c 'run_unit {}'
  "$PY" "$ROOT/tools/mutation_score.py" $(for unit in $units; do echo "$WORK/$unit.sqlite"; done)
  exit 0
fi

rm -rf "$WORK"
mkdir -p "$WORK"
git -C "$ROOT" rev-parse --short HEAD > "$WORK/commit"
echo "mutating $(git -C "$ROOT" log --oneline -1)"

units=""
for module in $MODULES; do
  name=$(basename "$module" .py)
  tests_var="TESTS_$name"; select_var="SELECT_$name"
  tests=${!tests_var}; select=${!select_var}
  funcs=$KKT_FUNCS
  [ "$name" = "_core" ] && funcs=$CORE_FUNCS
  for ((shard = 0; shard < SHARDS; shard++)); do
    unit=$name; [ "$SHARDS" -gt 1 ] && unit=$name-$shard
    src="$WORK/src-$unit"
    git clone --quiet "$ROOT" "$src"
    cfg="$WORK/$unit.toml"
    cat > "$cfg" <<TOML
[cosmic-ray]
module-path = "$module"
timeout = $TIMEOUT
excluded-modules = []
test-command = "$PY -m pytest -x -q -n 0 -p no:cacheprovider $tests -k '$select'"

[cosmic-ray.distributor]
name = "local"
TOML
    (cd "$src" && "$BIN/cosmic-ray" init "$cfg" "$WORK/$unit.sqlite" \
      && "$PY" "$ROOT/tools/mutation_filter.py" ${SAMPLE:+--sample $SAMPLE} --shard "$shard/$SHARDS" \
           "$WORK/$unit.sqlite" "$module" $funcs)
    units="$units $unit"
  done
  # the unmutated code must pass the selected tests
  (cd "$src" && PYTHONPATH="$src" "$PY" -m pytest -x -q -n 0 -p no:cacheprovider $tests -k "$select" \
     > "$WORK/baseline-$name.log" 2>&1) || { echo "baseline tests fail: see $WORK/baseline-$name.log"; exit 1; }
done

printf '%s\n' $units | xargs -P "$JOBS" -I{} bash -c 'run_unit {}'
for unit in $units; do
  "$BIN/cr-report" "$WORK/$unit.sqlite" --show-output > "$WORK/$unit.report.txt" || true
  "$BIN/cr-report" "$WORK/$unit.sqlite" | tail -4
done
"$PY" "$ROOT/tools/mutation_score.py" $(for unit in $units; do echo "$WORK/$unit.sqlite"; done)
