#!/usr/bin/env bash
# Install what the browser tests need on a fresh Debian machine: Debian's build of Chromium's headless shell (package
# chromium-headless-shell; Playwright drives it through executable_path, and Playwright's own browser download is not
# used), and axe-core from the npm registry into tests/browser/node_modules (the accessibility tests inject its
# axe.min.js). Non-interactive and idempotent.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
AXE_VERSION="4.14.1"
install_axe() {
  local dir="$ROOT/tests/browser"
  if [ -f "$dir/node_modules/axe-core/axe.min.js" ] && grep -q "\"version\": \"$AXE_VERSION\"" "$dir/node_modules/axe-core/package.json"; then
    return 0
  fi
  if ! command -v npm >/dev/null 2>&1; then
    echo "test-setup: npm is missing; install it (apt-get install -y npm) to get axe-core for the accessibility tests" >&2
    return 1
  fi
  npm install --prefix "$dir" --no-save --no-audit --no-fund --loglevel=error "axe-core@$AXE_VERSION" </dev/null
}
if [ -x /usr/bin/chromium-headless-shell ]; then
  install_axe
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO="sudo -n"
  else
    echo "test-setup: /usr/bin/chromium-headless-shell is missing and we are not root; install it with: apt-get install -y chromium-headless-shell" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update </dev/null
$SUDO apt-get install -y --no-install-recommends chromium-headless-shell fonts-dejavu-core </dev/null
install_axe
