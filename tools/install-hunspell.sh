#!/usr/bin/env bash
# The spelling test needs hunspell and Debian's Catalan dictionary (hunspell-ca).
# Installs them with apt-get when missing and run as root; otherwise exits 3.
set -euo pipefail
command -v hunspell >/dev/null && [ -f /usr/share/hunspell/ca.dic ] && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "install-hunspell: hunspell or hunspell-ca is missing and this is not root on Debian" >&2
  exit 3
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends hunspell hunspell-ca >/dev/null
