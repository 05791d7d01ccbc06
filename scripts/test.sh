#!/usr/bin/env bash
# `npm test`: starts the local services (idempotent), type-checks, lints and runs the whole
# suite, then says what it left running and how to stop it. Arguments go to jest
# (`npm test -- tests/unit`). The suite runs apart from the app's own data: Temporal
# namespace scriptorium-test, Redis database 15, MongoDB databases it drops when done
# (tests/global-setup.ts). Then the Studio browser tests (scripts/browser-test.sh).
set -uo pipefail
cd "$(dirname "$0")/.."
node -p "'Node ' + process.version"
bash scripts/services.sh start || exit 1
npm run typecheck && npm run lint && npx jest "$@"
rc=$?
# Studio in a real browser (Playwright + Debian's Chromium, provisioned here) against the real
# stack; skipped when arguments pick Jest tests.
if [ $# -eq 0 ]; then
  SCRIPTORIUM_SKIP_SERVICES=1 bash scripts/browser-test.sh || rc=1
fi
echo
echo "[test] The suite ran in Temporal namespace scriptorium-test, Redis database 15 and MongoDB databases it dropped: the app's workflows (namespace default) and data are untouched."
bash scripts/services.sh status
echo "[test] These services keep running for the next test run or \`npm start\`; stop them with: bash scripts/services.sh stop"
exit $rc
