#!/usr/bin/env bash
# apt-install.sh WHAT PACKAGE...: install Debian packages for a test or a build when
# running as root on Debian; otherwise say what is missing and exit 3 (the tests skip
# on 3, except under CI=true, where they fail).
set -euo pipefail
what=$1; shift
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "$what is missing and this is not root on Debian: apt-get install $*" >&2
  exit 3
fi
echo "installing $what: $* (a few minutes the first time)" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "$@" >/dev/null
