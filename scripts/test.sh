#!/usr/bin/env bash
# `npm test`: starts the local services (idempotent), type-checks, lints and runs the whole
# suite, then says what it left running and how to stop it. Arguments go to jest
# (`npm test -- tests/unit`). The suite runs apart from the app's own data: Temporal
# namespace scriptorium-test, Redis database 15, MongoDB databases it drops when done
# (tests/global-setup.ts).
set -uo pipefail
cd "$(dirname "$0")/.."
node -p "'Node ' + process.version"
bash scripts/services.sh start || exit 1
npm run typecheck && npm run lint && npx jest "$@"
rc=$?
echo
echo "[test] The suite ran in Temporal namespace scriptorium-test, Redis database 15 and MongoDB databases it dropped: the app's workflows (namespace default) and data are untouched."
bash scripts/services.sh status
echo "[test] These services keep running for the next test run or \`npm start\`; stop them with: bash scripts/services.sh stop"
exit $rc
