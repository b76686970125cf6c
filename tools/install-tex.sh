#!/usr/bin/env bash
# Make sure the PDF book can be built: xelatex, latexmk, polyglossia with Catalan
# hyphenation (Debian ships it in texlive-lang-spanish), the FreeSerif fonts Sphinx
# uses with xelatex, and pdftotext for the tests. Installs what is missing with
# apt-get when run as root on Debian; otherwise says what is missing and exits 3.
set -euo pipefail

missing() {
  command -v xelatex >/dev/null && command -v latexmk >/dev/null && command -v pdftotext >/dev/null \
    && kpsewhich polyglossia.sty >/dev/null && kpsewhich hyph-ca.tex >/dev/null \
    && kpsewhich tabulary.sty >/dev/null && kpsewhich fncychap.sty >/dev/null \
    && [ -n "$(fc-list FreeSerif)" ] && return 1
  return 0
}

missing || exit 0

PACKAGES="texlive-xetex texlive-latex-recommended texlive-latex-extra texlive-fonts-recommended
texlive-lang-spanish latexmk fonts-freefont-otf fonts-dejavu-core poppler-utils make"

if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "install-tex: TeX is missing and this is not root on Debian; install: $PACKAGES" >&2
  exit 3
fi
echo "install-tex: installing $PACKAGES (a few minutes the first time)" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $PACKAGES >/dev/null
missing && { echo "install-tex: still missing after apt-get" >&2; exit 1; }
exit 0
