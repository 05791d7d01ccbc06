#!/usr/bin/env bash
# The Studio browser tests (`npm run test:browser`, and the last step of `npm test`):
# provisions Chromium, builds Studio, and runs Playwright against the real stack that
# tests/browser/global-setup.ts starts (API + worker + offline model, in the test namespace).
# The run prints Studio's figures as it goes: bytes per screen on a cold visit and the first
# load's JavaScript (perf.spec.ts), and Lighthouse's performance and accessibility scores of
# the projects, board, chat and editor screens (lighthouse.spec.ts, the same Chromium).
# Arguments go to `playwright test` (e.g. `--grep-invert Lighthouse` skips its three minutes).
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/provision-browser.sh || exit 1
# Idempotent; `npm test` has started them already (SCRIPTORIUM_SKIP_SERVICES=1 skips the check).
[ -n "${SCRIPTORIUM_SKIP_SERVICES:-}" ] || bash scripts/services.sh start >/dev/null || exit 1
npm run --silent build:studio -- --logLevel warn || exit 1
npx playwright test -c tests/browser/playwright.config.ts "$@"
