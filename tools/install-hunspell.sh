#!/usr/bin/env bash
# The spelling test needs hunspell and Debian's Catalan dictionary (hunspell-ca).
set -euo pipefail
command -v hunspell >/dev/null && [ -f /usr/share/hunspell/ca.dic ] && exit 0
bash "$(dirname "$0")/apt-install.sh" hunspell-ca hunspell hunspell-ca
