#!/usr/bin/env bash
# `npm test`: starts the local services (idempotent), type-checks, lints and runs the whole
# suite, then says what it left running and how to stop it. Arguments go to jest
# (`npm test -- tests/unit`). The suite runs apart from the app's own data: Temporal
# namespace scriptorium-test, Redis database 15, MongoDB databases it drops when done
# (tests/global-setup.ts). Then the Studio browser tests (scripts/browser-test.sh). Each
# phase prints its duration (scripts/phases.sh), and a run on its own ends with the summary.
set -uo pipefail
cd "$(dirname "$0")/.."
# Under .ci/run the phases join its log and its closing summary.
[ -n "${SCRIPTORIUM_PHASE_LOG:-}" ] && own_summary="" || own_summary=1
source scripts/phases.sh
node -p "'Node ' + process.version"
phase services bash scripts/services.sh start || exit 1
phase typecheck npm run --silent typecheck && phase lint npm run --silent lint && phase jest npx jest "$@"
rc=$?
# Studio in a real browser (Playwright + Debian's Chromium, provisioned here) against the real
# stack; skipped when arguments pick Jest tests.
if [ $# -eq 0 ]; then
  phase browser env SCRIPTORIUM_SKIP_SERVICES=1 bash scripts/browser-test.sh || rc=1
fi
echo
echo "[test] The suite ran in Temporal namespace scriptorium-test, Redis database 15 and MongoDB databases it dropped: the app's workflows (namespace default) and data are untouched."
bash scripts/services.sh status
echo "[test] These services keep running for the next test run or \`npm start\`; stop them with: bash scripts/services.sh stop"
[ -n "$own_summary" ] && phase_summary "$SECONDS"
exit $rc
