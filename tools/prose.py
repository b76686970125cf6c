"""The prose of a MyST page, for the spelling check: no code, math, roles, or markup.

Usage: python tools/prose.py book/01-gradient-rnn.md  → the page's words on stdout.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

SKIPPED_DIRECTIVES = ("code-cell", "toctree", "bibliography", "list-table")


def prose(text: str) -> str:
    text = re.sub(r"\A---\n.*?\n---\n", "", text, flags=re.S)          # front matter
    out, skipping, fence = [], False, None
    for line in text.splitlines():
        stripped = line.strip()
        opening = re.match(r"^(`{3,}|:{3,})\{([\w:-]+)\}", stripped)
        if fence is None and opening:
            fence = opening.group(1)
            skipping = opening.group(2) in SKIPPED_DIRECTIVES
            continue
        if fence is not None and stripped == fence:
            fence, skipping = None, False
            continue
        if skipping or stripped.startswith(":"):                         # directive options
            continue
        out.append(line)
    text = "\n".join(out)
    text = re.sub(r"\$\$.*?\$\$", " ", text, flags=re.S)                 # display math
    text = re.sub(r"\$[^$]*\$", " ", text)                               # inline math, even over lines
    text = re.sub(r"\{[\w:-]+\}`[^`]*`", " ", text)                      # roles: glue, cite, doc
    text = re.sub(r"`[^`]*`", " ", text)                                 # inline code
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)                 # links: keep the words
    text = re.sub(r"[*_#>|]", " ", text)                                 # emphasis, headings, tables
    return text


if __name__ == "__main__":
    for name in sys.argv[1:]:
        print(prose(Path(name).read_text(encoding="utf-8")))
