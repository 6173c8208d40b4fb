#!/usr/bin/env bash
# Install what the browser tests need on a fresh Debian machine: Debian's chromium (Playwright drives it through
# executable_path; Playwright's own browser download is not used). Non-interactive and idempotent.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO="sudo -n"
  else
    echo "test-setup: /usr/bin/chromium is missing and we are not root; install it with: apt-get install -y chromium" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update </dev/null
$SUDO apt-get install -y --no-install-recommends chromium fonts-dejavu-core </dev/null
