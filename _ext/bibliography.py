"""The bibliography in Catalan, and author–year in its list as in the text's citations.

sphinxcontrib-bibtex formats entries with a pybtex style and citations with a referencing
style; both are plugins, registered here through the two libraries' public
``register_plugin`` and chosen in ``conf.py``:

* ``catalan`` (pybtex formatting style): BibTeX's *plain* with the Catalan words: «i» between
  two authors and before the last one, «A:» for *In*, «pàgines», «Informe tècnic»; the list
  sorted by author, year and title, each entry labelled as the text cites it («Bahdanau et
  al., 2015»); a name is printed first names, last name, lineage («Guy L. Steele, Jr.», from
  BibTeX's «Steele, Jr., Guy L.»);
* ``author_year_ca`` (referencing style): the text's citations, with «i» between authors and
  the year as the list labels it, so that two entries the list tells apart as «Cho et al.,
  2014a» and «2014b» are told apart in the text too.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

import pybtex.plugin
from pybtex.backends.plaintext import Backend as PlainText
from pybtex.richtext import Text
from pybtex.style.formatting import toplevel
from pybtex.style.formatting.unsrt import Style as Plain
from pybtex.style.formatting.unsrt import date, pages
from pybtex.style.labels import BaseLabelStyle
from pybtex.style.sorting import BaseSortingStyle
from pybtex.style.template import field as bib_field
from pybtex.style.template import first_of, join, names, node, optional, optional_field, sentence, tag, words
from sphinxcontrib.bibtex.plugin import register_plugin
from sphinxcontrib.bibtex.style.referencing import PersonStyle
from sphinxcontrib.bibtex.style.referencing.author_year import AuthorYearReferenceStyle
from sphinxcontrib.bibtex.style.referencing.basic_author_year import (
    BasicAuthorYearParentheticalReferenceStyle,
    BasicAuthorYearTextualReferenceStyle,
)
from sphinxcontrib.bibtex.style.template import join as ref_join
from sphinxcontrib.bibtex.style.template import join2, post_text, pre_text, reference

PLAIN_TEXT = PlainText()  # one backend: ``render_as("text")`` would look it up among the plugins each time


def surnames(entry) -> str:
    """The authors as a citation names them: «Cho», «Cho i Bengio», «Cho et al.»."""
    people = entry.persons.get("author") or entry.persons.get("editor") or []
    last = [" ".join(name.render(PLAIN_TEXT) for name in p.rich_last_names) for p in people]
    if len(last) > 2:
        return f"{last[0]} et al."
    return " i ".join(last)


class AuthorYearLabels(BaseLabelStyle):
    """Each entry of the list labelled «Autor, any» (2015a, 2015b where two would coincide)."""

    def format_labels(self, sorted_entries):
        labels = [f"{surnames(e)}, {e.fields.get('year', 's. d.')}" for e in sorted_entries]
        repeated, seen = Counter(labels), defaultdict(int)
        for label in labels:
            if repeated[label] > 1:
                seen[label] += 1
                label += "abcdefghijklmnopqrstuvwxyz"[seen[label] - 1]
            yield label


class AuthorYearOrder(BaseSortingStyle):
    """The list in the order of its labels: authors as cited, year, title."""

    def sorting_key(self, entry):
        return surnames(entry).casefold(), entry.fields.get("year", ""), entry.fields.get("title", "").casefold()


class CatalanStyle(Plain):
    default_label_style = AuthorYearLabels
    default_sorting_style = AuthorYearOrder

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        name = self.format_name  # BibTeX's "and others" is a person named "others"
        self.format_name = lambda person, abbr=False: join["altres"] if str(person) == "others" else name(person, abbr)

    def format_names(self, role, as_sentence=True):
        formatted = names(role, sep=", ", sep2=" i ", last_sep=" i ")
        return sentence[formatted] if as_sentence else formatted

    def get_article_template(self, e):
        volume_and_pages = first_of[
            optional[join[bib_field("volume"), optional["(", bib_field("number"), ")"], ":", pages]],
            words["pàgines", pages],
        ]
        return toplevel[
            self.format_names("author"),
            self.format_title(e, "title"),
            sentence[tag("em")[bib_field("journal")], optional[volume_and_pages], date],
            sentence[optional_field("note")],
            self.format_web_refs(e),
        ]

    def get_inproceedings_template(self, e):
        return toplevel[
            sentence[self.format_names("author")],
            self.format_title(e, "title"),
            words[
                "A:",
                sentence[
                    optional[self.format_editor(e, as_sentence=False)],
                    self.format_btitle(e, "booktitle", as_sentence=False),
                    self.format_volume_and_series(e, as_sentence=False),
                    optional[pages],
                ],
                self.format_address_organization_publisher_date(e),
            ],
            sentence[optional_field("note")],
            self.format_web_refs(e),
        ]

    def get_techreport_template(self, e):
        return toplevel[
            sentence[self.format_names("author")],
            self.format_title(e, "title"),
            sentence[
                words[first_of[optional_field("type"), "Informe tècnic"], optional_field("number")],
                bib_field("institution"),
                optional_field("address"),
                date,
            ],
            sentence[optional_field("note")],
            self.format_web_refs(e),
        ]


@node
def labelled_year(children, data):
    """The year as the list labels the entry: «2014a» where two entries would both be «Cho et al., 2014»."""
    assert not children
    return Text(data["formatted_entry"].label.rsplit(", ", 1)[1])


@dataclass
class ParentheticalAsListed(BasicAuthorYearParentheticalReferenceStyle):
    """«[Cho et al., 2014a]»: sphinxcontrib-bibtex's parenthetical citation with the listed year."""

    def inner(self, role_name):
        author = self.person.author_or_editor_or_title(full="s" in role_name)
        return join2(sep1=self.pre_text_sep, sep2=self.post_text_sep)[
            pre_text, reference[ref_join(sep=self.author_year_sep)[author, labelled_year]], post_text
        ]


@dataclass
class TextualAsListed(BasicAuthorYearTextualReferenceStyle):
    """«Cho et al. [2014a]»: sphinxcontrib-bibtex's textual citation with the listed year."""

    def inner(self, role_name):
        cited = join2(sep1=self.pre_text_sep, sep2=self.post_text_sep)[pre_text, reference[labelled_year], post_text]
        return ref_join(sep=self.text_reference_sep)[
            self.person.author_or_editor_or_title(full="s" in role_name),
            ref_join[self.bracket.left, cited, self.bracket.right],
        ]


@dataclass
class CatalanAuthorYear(AuthorYearReferenceStyle):
    person: PersonStyle = field(default_factory=lambda: PersonStyle(sep2=" i ", last_sep=" i "))

    def __post_init__(self):
        super().__post_init__()  # the roles of author_year, then :cite:p: and :cite:t: with the listed year
        listed = [
            ParentheticalAsListed(
                bracket=self.bracket_parenthetical,
                person=self.person,
                author_year_sep=self.author_year_sep,
                pre_text_sep=self.pre_text_sep,
                post_text_sep=self.post_text_sep,
            ),
            TextualAsListed(
                bracket=self.bracket_textual,
                person=self.person,
                text_reference_sep=self.text_reference_sep,
                pre_text_sep=self.pre_text_sep,
                post_text_sep=self.post_text_sep,
            ),
        ]
        self.role_style.update((role, style) for style in listed for role in style.role_names())


def entries_as_list_items(app, pagename, templatename, context, doctree) -> None:
    """html-page-context: the bibliography's entries are the items of its list (``role="listitem"``).
    docutils gives them DPUB-ARIA 1.0's ``doc-biblioentry``, deprecated in DPUB-ARIA 1.1, under a
    ``role="list"`` that may then hold no listitem (axe: aria-required-children)."""
    if "body" in context:
        context["body"] = context["body"].replace('role="doc-biblioentry"', 'role="listitem"')


def setup(app):
    app.connect("html-page-context", entries_as_list_items)
    pybtex.plugin.register_plugin("pybtex.style.formatting", "catalan", CatalanStyle)
    register_plugin("sphinxcontrib.bibtex.style.referencing", "author_year_ca", CatalanAuthorYear)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
