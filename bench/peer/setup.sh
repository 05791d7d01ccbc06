#!/usr/bin/env bash
# Creates (idempotently) the project-local venv of the LangGraph peer from the pinned
# requirements. Re-installs only when requirements.txt changed since the last install.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
VENV="$ROOT/.local/peer-venv"
REQ="$ROOT/bench/peer/requirements.txt"
STAMP="$VENV/.requirements.sha1"
want="$(sha1sum "$REQ" | cut -d' ' -f1)"
if [[ -x "$VENV/bin/python" && -f "$STAMP" && "$(cat "$STAMP")" == "$want" ]]; then
  echo "peer venv: up to date ($VENV)"
  exit 0
fi
echo "peer venv: installing $REQ into $VENV"
python3 -m venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -r "$REQ"
echo "$want" > "$STAMP"
