#!/usr/bin/env bash
# The browser tests drive Debian's Chromium (Playwright's own browser downloads are not used).
set -euo pipefail
[ -x /usr/bin/chromium ] && exit 0
bash "$(dirname "$0")/apt-install.sh" Chromium chromium fonts-dejavu-core
[ -x /usr/bin/chromium ]
