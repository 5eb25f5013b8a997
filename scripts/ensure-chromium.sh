#!/bin/sh
# The browser test (test/docs-page.test.ts) drives Debian's Chromium through playwright-core; playwright's own
# browser downloads are unreachable here. Run before the tests (`pretest`): installs the package when missing.
set -e
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
[ -x "$CHROMIUM" ] && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: $CHROMIUM is missing; install Debian's chromium package (or set CHROMIUM_PATH)." >&2
  exit 1
fi
echo "ensure-chromium: installing Debian's chromium for the browser test…" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q --no-install-recommends chromium >/dev/null 2>&1 ||
  { apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends chromium >/dev/null; }
[ -x "$CHROMIUM" ]
