#!/usr/bin/env bash
# The Studio browser tests (`npm run test:browser`, and the last step of `npm test`):
# provisions Chromium, builds Studio, and runs Playwright against the real stack that
# tests/browser/global-setup.ts starts (API + worker + offline model, in the test namespace).
# Arguments go to `playwright test`.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/provision-browser.sh || exit 1
# Idempotent; `npm test` has started them already (SCRIPTORIUM_SKIP_SERVICES=1 skips the check).
[ -n "${SCRIPTORIUM_SKIP_SERVICES:-}" ] || bash scripts/services.sh start >/dev/null || exit 1
npm run --silent build:studio -- --logLevel warn || exit 1
npx playwright test -c tests/browser/playwright.config.ts "$@"
