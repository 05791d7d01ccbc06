#!/usr/bin/env bash
# Provisions the browser the Studio tests drive: Debian's `chromium` package at
# /usr/bin/chromium (Playwright launches it through executablePath; nothing is downloaded
# by Playwright itself), and CJK fonts so Chinese pages render in screenshots. Idempotent.
set -euo pipefail
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ] && { [ -n "$(fc-list :lang=zh 2>/dev/null | head -n1)" ] || [ -n "${CI_SKIP_FONTS:-}" ]; }; then
  echo "[browser] $("$CHROMIUM" --version 2>/dev/null || echo chromium) at $CHROMIUM"
  exit 0
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then
  if command -v sudo >/dev/null; then SUDO="sudo"; else echo "[browser] $CHROMIUM is missing and this user cannot install packages (not root, no sudo): install Debian's chromium" >&2; exit 1; fi
fi
if ! command -v apt-get >/dev/null; then
  echo "[browser] $CHROMIUM is missing and there is no apt-get here: install Chromium and set CHROMIUM_PATH" >&2
  exit 1
fi
echo "[browser] installing Debian's chromium and CJK fonts (apt-get)"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends chromium fonts-noto-cjk >/dev/null
echo "[browser] $("$CHROMIUM" --version) at $CHROMIUM"
