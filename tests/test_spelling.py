"""The prose of every page passes hunspell with Debian's Catalan dictionary and the
project's word list (tools/wordlist-ca.txt) of technical terms and names.  The title of a work,
as published (English), is not Catalan prose: written as a link's text, between «» or in
italics («Per llegir més» on the bibliography page), hunspell does not read it."""

import re
import subprocess
import sys

import pytest

from conftest import BOOK, ROOT, ensure_system_tool

sys.path.insert(0, str(ROOT / "tools"))
from prose import prose

pytestmark = pytest.mark.system  # tools/install-hunspell.sh installs hunspell-ca when missing
WORDLIST = ROOT / "tools" / "wordlist-ca.txt"
ELISION = re.compile(r"^[lLdDsSnNmMtT]['’]")  # straight or typographic apostrophe
TITLE_OF_A_WORK = re.compile(r"\[(«[^»\]]*»|\*[^*\]]*\*)\]\([^)]*\)")  # [«Title»](url), [*Title*](url)


def accepted(token: str, words: set) -> bool:
    """Tokens hunspell cannot judge: variables (one letter), symbols, an elided article
    before a number or before a word of the list (l'LSTM)."""
    rest = ELISION.sub("", token)
    return len(rest) <= 1 or not re.search(r"[^\W\d_]{2}", rest) or rest in words


@pytest.mark.parametrize("page", sorted(p.name for p in BOOK.glob("*.md")))
def test_page_prose_is_spelled_in_catalan(page):
    ensure_system_tool("install-hunspell.sh", "hunspell-ca")
    text = prose(TITLE_OF_A_WORK.sub(" ", (BOOK / page).read_text(encoding="utf-8")))
    assert len(text.split()) >= 5
    flagged = subprocess.run(
        ["hunspell", "-d", "ca", "-l", "-p", str(WORDLIST)], input=text, capture_output=True, text=True, check=True
    ).stdout.split()
    words = set(WORDLIST.read_text(encoding="utf-8").split())
    unknown = sorted({t for t in flagged if not accepted(t, words)})
    assert unknown == [], f"{page}: not Catalan words (fix them, or add a technical term to the list)"


def test_the_check_catches_a_misspelling():
    ensure_system_tool("install-hunspell.sh", "hunspell-ca")
    flagged = subprocess.run(
        ["hunspell", "-d", "ca", "-l", "-p", str(WORDLIST)],
        input="el gradiant s'esvaeix",
        capture_output=True,
        text=True,
    ).stdout.split()
    assert flagged == ["gradiant"]


def test_only_the_title_of_a_linked_work_is_left_to_its_language():
    text = "[«Understanding LSTM Networks»](https://x) i [*Dive into Deep Learning*](https://y), Understanding"
    assert TITLE_OF_A_WORK.sub(" ", text).split() == ["i", ",", "Understanding"]
    assert TITLE_OF_A_WORK.sub(" ", "[xarxes recurrents](https://z)") == "[xarxes recurrents](https://z)"
