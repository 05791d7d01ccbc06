#!/usr/bin/env bash
# Sourced by .ci/run and scripts/test.sh: `phase NAME CMD…` runs CMD, prints how long it took,
# and appends "NAME<TAB>seconds<TAB>exit code" to $SCRIPTORIUM_PHASE_LOG, so a slow run says where
# its time went; `phase_summary` prints every phase of the log and the total. The log is shared
# with child scripts through the environment (npm test's phases land in .ci/run's summary).
: "${SCRIPTORIUM_PHASE_LOG:=$(mktemp -t scriptorium-phases.XXXXXX)}"
export SCRIPTORIUM_PHASE_LOG

phase() {
  local name="$1"; shift
  local started=$SECONDS rc=0
  echo "[phase] ${name}: start"
  "$@" || rc=$?
  local took=$((SECONDS - started))
  printf '%s\t%s\t%s\n' "$name" "$took" "$rc" >>"$SCRIPTORIUM_PHASE_LOG"
  printf '[phase] %s: %d s%s\n' "$name" "$took" "$([ "$rc" -eq 0 ] || echo " (exit $rc)")"
  return "$rc"
}

# phase_summary TOTAL_SECONDS: one line per phase, in the order they ran, then the total.
phase_summary() {
  echo
  echo "[phase] where the time went:"
  awk -F'\t' '{ printf "[phase]   %-12s %5d s  %3d:%02d%s\n", $1, $2, $2/60, $2%60, ($3 == 0 ? "" : "  (exit " $3 ")") }' "$SCRIPTORIUM_PHASE_LOG"
  printf '[phase]   %-12s %5d s  %3d:%02d\n' total "$1" $(($1 / 60)) $(($1 % 60))
}
