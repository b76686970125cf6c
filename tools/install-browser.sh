#!/usr/bin/env bash
# The browser tests drive Debian's Chromium (Playwright's own browser downloads are not
# used). Installs it with apt-get when missing and run as root; otherwise exits 3.
set -euo pipefail
[ -x /usr/bin/chromium ] && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "install-browser: /usr/bin/chromium is missing and this is not root on Debian: apt-get install chromium" >&2
  exit 3
fi
echo "install-browser: installing chromium" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
[ -x /usr/bin/chromium ]
