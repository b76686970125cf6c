#!/usr/bin/env bash
# Make sure the PDF book can be built: xelatex, latexmk, polyglossia with Catalan
# hyphenation (Debian ships it in texlive-lang-spanish), the FreeSerif fonts Sphinx
# uses with xelatex, Cairo (CairoSVG draws the SVG figures as PDF) and pdftotext for the tests. Installs what is missing with
# apt-get when run as root on Debian (tools/apt-install.sh); otherwise exits 3.
set -euo pipefail

missing() {
  command -v xelatex >/dev/null && command -v latexmk >/dev/null && command -v pdftotext >/dev/null \
    && kpsewhich polyglossia.sty >/dev/null && kpsewhich hyph-ca.tex >/dev/null \
    && kpsewhich tabulary.sty >/dev/null && kpsewhich fncychap.sty >/dev/null \
    && [ -n "$(fc-list FreeSerif)" ] && ldconfig -p | grep -q 'libcairo\.so\.2' && return 1
  return 0
}

missing || exit 0

bash "$(dirname "$0")/apt-install.sh" TeX texlive-xetex texlive-latex-recommended texlive-latex-extra \
  texlive-fonts-recommended texlive-lang-spanish latexmk fonts-freefont-otf fonts-dejavu-core poppler-utils libcairo2 make
missing && { echo "install-tex: still missing after apt-get" >&2; exit 1; }
exit 0
