"""The bibliography's style (``_ext/bibliography.py``) without building the book: a name with a
lineage is printed as its bearer writes it, two entries the list labels «2014a» and «2014b»
are cited so in the text, and every entry of ``book/referencies.bib`` reads its names the way
BibTeX means them."""

from __future__ import annotations

import sys
from types import SimpleNamespace

import pybtex.plugin
import pybtex_docutils
import pytest
from pybtex.database import parse_file, parse_string
from sphinxcontrib.bibtex.style.referencing import format_references
from sphinxcontrib.bibtex.style.template import SphinxReferenceInfo

from conftest import BOOK, ROOT

sys.path.insert(0, str(ROOT / "_ext"))
import bibliography

pybtex.plugin.register_plugin("pybtex.style.formatting", "catalan", bibliography.CatalanStyle)
LINEAGES = {"Jr.", "Jr", "Sr.", "II", "III", "IV"}

TWO_OF_A_YEAR = r"""
@article{hillis1986, author = {Hillis, W. Daniel and Steele, Jr., Guy L.}, title = {Data Parallel Algorithms},
  journal = {Communications of the ACM}, volume = {29}, number = {12}, pages = {1170--1183}, year = {1986}}
@inproceedings{phrases, author = {Cho, Kyunghyun and van Merri{\"e}nboer, Bart and Bengio, Yoshua},
  title = {Learning Phrase Representations}, booktitle = {EMNLP}, year = {2014}}
@inproceedings{properties, author = {Cho, Kyunghyun and van Merri{\"e}nboer, Bart and Bengio, Yoshua},
  title = {On the Properties of Neural Machine Translation}, booktitle = {SSST-8}, year = {2014}}
@techreport{scan, author = {Blelloch, Guy E.}, title = {Prefix Sums and Their Applications},
  institution = {Carnegie Mellon University}, number = {CMU-CS-90-190}, year = {1990}}
"""


def listed(bibtex: str) -> dict[str, tuple[str, str]]:
    """Each entry's label and text in the list, by key."""
    bib = parse_string(bibtex, "bibtex")
    return {
        fe.key: (fe.label, fe.text.render_as("text"))
        for fe in bibliography.CatalanStyle().format_entries(bib.entries.values())
    }


def cited(role: str, bibtex: str, key: str) -> str:
    """The text of ``{cite:<role>}`key``` as the book's referencing style writes it."""
    bib = parse_string(bibtex, "bibtex")
    entries = {fe.key: fe for fe in bibliography.CatalanStyle().format_entries(bib.entries.values())}
    info = SphinxReferenceInfo(SimpleNamespace(name="latex"), "p", "bibliografia", key, None, "", "")
    text = format_references(bibliography.CatalanAuthorYear(), role, [(bib.entries[key], entries[key], info)])
    return "".join(n.astext() for n in text.render(pybtex_docutils.Backend()) if n.tagname != "raw")


def test_a_lineage_follows_the_last_name():
    label, text = listed(TWO_OF_A_YEAR)["hillis1986"]
    assert label == "Hillis i Steele, 1986"
    assert text.startswith("W. Daniel Hillis i Guy L. Steele, Jr. Data parallel algorithms.")


def test_two_entries_of_one_year_are_told_apart_in_the_list_and_in_the_text():
    labels = {key: label for key, (label, _) in listed(TWO_OF_A_YEAR).items()}
    assert labels["phrases"] == "Cho et al., 2014a" and labels["properties"] == "Cho et al., 2014b"
    assert cited("p", TWO_OF_A_YEAR, "phrases") == "[Cho et al., 2014a]"
    assert cited("t", TWO_OF_A_YEAR, "properties") == "Cho et al. [2014b]"
    assert cited("t", TWO_OF_A_YEAR, "hillis1986") == "Hillis i Steele [1986]"


def test_a_technical_report_is_an_informe_tecnic():
    _, text = listed(TWO_OF_A_YEAR)["scan"]
    assert "Informe tècnic CMU-CS-90-190, Carnegie Mellon University, 1990." in text


@pytest.mark.parametrize(
    "entry", sorted(parse_file(BOOK / "referencies.bib").entries.values(), key=lambda e: e.key), ids=lambda e: e.key
)
def test_every_name_in_the_bib_reads_as_bibtex_means_it(entry):
    """«Steele, Guy L., Jr.» is BibTeX for last name Steele, lineage «Guy L.», first name «Jr.»:
    a lineage belongs in the middle («Steele, Jr., Guy L.»)."""
    for person in entry.persons.get("author", []):
        assert not LINEAGES & set(person.first_names + person.middle_names), f"{entry.key}: {person}"
        assert not set(person.lineage_names) - LINEAGES, f"{entry.key}: {person}"


def test_a_downloaded_notebook_cites_the_year_the_list_labels(tmp_path):
    """The notebook's plain «(Cho et al., 2014a)» carries the list's letter, as the book's citations do."""
    import notebooks

    bibfile = tmp_path / "refs.bib"
    bibfile.write_text(TWO_OF_A_YEAR, encoding="utf-8")
    cited = notebooks.citations(bibfile)
    labels = {key: label for key, (label, _) in listed(TWO_OF_A_YEAR).items()}
    for key in ("phrases", "properties", "hillis1986"):
        assert f"{cited[key][0]}, {cited[key][1]}" == labels[key]
    assert notebooks.plain_roles("{cite:p}`properties`", {}, cited) == "(Cho et al., 2014b)"
