"""A small HTML reader for tests: visible text, tables, headings, links and the page language."""
import html.parser

from django.utils import translation
from django.utils.translation import gettext


class Page(html.parser.HTMLParser):
    SKIP = {"script", "style", "template", "noscript", "head"}

    def __init__(self, body):
        super().__init__(convert_charrefs=True)
        self.text, self.tables, self.h1, self.links, self.lang = [], [], [], [], None
        self.title = ""
        self._skip, self._row, self._cell, self._in_h1, self._in_title = 0, None, None, False, False
        self.feed(body)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "html":
            self.lang = attrs.get("lang")
        if tag == "title":
            self._in_title = True
        if tag in self.SKIP:
            self._skip += 1
        if tag == "a" and "href" in attrs:
            self.links.append(attrs["href"])
        if tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self._row = []
            self.tables[-1].append(self._row)
        elif tag in ("td", "th") and self._row is not None:
            self._cell = []
            self._row.append(self._cell)
        elif tag == "h1":
            self._in_h1 = True
            self.h1.append("")

    def handle_endtag(self, tag):
        if tag in self.SKIP and self._skip:
            self._skip -= 1
        if tag == "title":
            self._in_title = False
        if tag in ("td", "th"):
            self._cell = None
        elif tag == "h1":
            self._in_h1 = False

    def handle_data(self, data):
        if self._in_title:
            self.title += data
        if self._skip:
            return
        self.text.append(data)
        if self._cell is not None:
            self._cell.append(data)
        if self._in_h1:
            self.h1[-1] += data

    def table_cells(self, index=0):
        return [["".join(cell).strip() for cell in row] for row in self.tables[index]]


def assert_page_heading(response, language, heading):
    """The response is a page in ``language`` whose one heading is ``heading`` (an interface string)
    translated into it; returns the page."""
    page = Page(response.content.decode())
    assert page.lang == language
    with translation.override(language):
        assert page.h1 == [gettext(heading)]
    return page
