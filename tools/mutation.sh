#!/usr/bin/env bash
# Mutation testing of the KKT conditions, the bias rule and the SMO core (make mutation).
#
# Works on a clone of the committed HEAD in _build/mutation/src, never on the working tree.
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

KKT_FUNCS="max_violation _check kkt_residuals bound_tol bias_tol alpha_status in_up in_low free_and_bounded bias_interval bias_from_gradient intercept_from_alpha dual_objective_from_coef"
CORE_FUNCS="max_up curvature wss2_scan _status_of two_variable_step bias update_gradient _min_pair _max _first _scores _update _set_offsets dense_loop"
# the fast tests that check each module (pytest -x: the first failure kills the mutant)
TESTS_kkt="tests/test_robust_mutants.py tests/test_kkt.py tests/test_qp.py"
SELECT_kkt="not nothing"
TESTS__core="tests/test_robust_mutants.py tests/test_smo_dense.py tests/test_smo.py"
SELECT__core="not mnist and not waveform and not svc_predictions and not bit_for_bit"

rm -rf "$WORK"
mkdir -p "$WORK"
git clone --quiet "$ROOT" "$WORK/src"
cd "$WORK/src"
echo "mutating $(git log --oneline -1)"
export PYTHONPATH="$WORK/src" NUMBA_DISABLE_JIT=1 SVMTEXT_DATA="${SVMTEXT_DATA:-$ROOT/../shared/data}"
export MPLBACKEND=Agg

names=""
for module in $MODULES; do
  name=$(basename "$module" .py)
  tests_var="TESTS_$name"; select_var="SELECT_$name"
  tests=${!tests_var}; select=${!select_var}
  cfg="$WORK/$name.toml"
  cat > "$cfg" <<TOML
[cosmic-ray]
module-path = "$module"
timeout = 300.0
excluded-modules = []
test-command = "$PY -m pytest -x -q -n 0 -p no:cacheprovider $tests -k '$select'"

[cosmic-ray.distributor]
name = "local"
TOML
  "$BIN/cosmic-ray" init "$cfg" "$WORK/$name.sqlite"
  funcs=$KKT_FUNCS
  [ "$name" = "_core" ] && funcs=$CORE_FUNCS
  "$PY" "$ROOT/tools/mutation_filter.py" ${SAMPLE:+--sample $SAMPLE} "$WORK/$name.sqlite" "$module" $funcs
  names="$names $name"
done

# the unmutated code must pass the selected tests
for name in $names; do
  tests_var="TESTS_$name"; select_var="SELECT_$name"
  "$PY" -m pytest -x -q -n 0 -p no:cacheprovider ${!tests_var} -k "${!select_var}" \
    > "$WORK/baseline-$name.log" 2>&1 || { echo "baseline tests fail: see $WORK/baseline-$name.log"; exit 1; }
done

for name in $names; do
  "$BIN/cosmic-ray" exec "$WORK/$name.toml" "$WORK/$name.sqlite" &
  [ "$JOBS" -gt 1 ] || wait
done
wait
for name in $names; do
  "$BIN/cr-report" "$WORK/$name.sqlite" --show-output > "$WORK/$name.report.txt" || true
  "$BIN/cr-report" "$WORK/$name.sqlite" | tail -4
done
"$PY" "$ROOT/tools/mutation_score.py" $(for name in $names; do echo "$WORK/$name.sqlite"; done)
