"""The tests' one HTML reader: a tree built with the standard library's parser (find elements by tag, id,
class or attribute, read their text; void elements have no children), and what most tests read from it:
a page's visible text, tables, headings, links and language (Page), what its head tells search engines and
social sites (Head), the fields a browser would submit from a form (form_fields)."""
import functools
import html.parser
import re

from django.utils import translation
from django.utils.translation import gettext

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
# Elements whose text a visitor does not read on the page.
HIDDEN = {"script", "style", "template", "noscript", "head"}


class Element:
    """An element of a parsed document. Its descendants, in document order, are a slice of the document's list
    of every element: from the one after it (``start`` is its own place) to ``end``, set when it closes."""

    def __init__(self, tag, attrs, parent=None, elements=None):
        self.tag, self.attrs, self.parent, self.children = tag, dict(attrs), parent, []
        self.elements = [] if elements is None else elements
        self.start = len(self.elements) - 1 if elements is None else len(self.elements)
        self.end = None

    def __repr__(self):
        return f"<{self.tag} {self.attrs}>"

    @property
    def text(self):
        return "".join(child if isinstance(child, str) else child.text for child in self.children)

    @property
    def squashed_text(self):
        return re.sub(r"\s+", " ", self.text).strip()

    @property
    def visible_text(self):
        return "".join(self.visible_strings())

    def visible_strings(self):
        """The text of this element in document order, without that of hidden elements (HIDDEN)."""
        for child in self.children:
            if isinstance(child, str):
                yield child
            elif child.tag not in HIDDEN:
                yield from child.visible_strings()

    @property
    def classes(self):
        return (self.attrs.get("class") or "").split()

    def iter(self):
        return self.elements[self.start + 1:self.end]  # an element still open (end None) runs to the last

    def find_all(self, tag=None, class_=None, **attrs):
        return [
            element for element in self.iter()
            if (tag is None or element.tag == tag)
            and (class_ is None or class_ in element.classes)
            and all(element.attrs.get(name.rstrip("_").replace("_", "-")) == value for name, value in attrs.items())
        ]

    def find(self, tag=None, class_=None, **attrs):
        found = self.find_all(tag, class_, **attrs)
        return found[0] if found else None

    def by_id(self, element_id):
        return self.find(id=element_id)

    def rows(self):
        """The <tr> elements of this table, not those of a table inside it."""
        return [row for row in self.find_all("tr") if row.closest("table") is self]

    def table_rows(self):
        """Rows of cell texts of a table element, header rows included."""
        return [[cell.squashed_text for cell in row.cells()] for row in self.rows()]

    def cells(self):
        return [cell for cell in self.children if isinstance(cell, Element) and cell.tag in ("th", "td")]

    def closest(self, tag):
        node = self.parent
        while node is not None and node.tag != tag:
            node = node.parent
        return node


class Builder(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = self.current = Element("#document", {})

    def open(self, tag, attrs):
        element = Element(tag, attrs, self.current, self.root.elements)
        self.root.elements.append(element)
        self.current.children.append(element)
        return element

    def handle_starttag(self, tag, attrs):
        element = self.open(tag, attrs)
        if tag in VOID:
            element.end = len(self.root.elements)
        else:
            self.current = element

    def handle_startendtag(self, tag, attrs):
        self.open(tag, attrs).end = len(self.root.elements)

    def handle_endtag(self, tag):
        node = self.current
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:
            self.close_up_to(node.parent)

    def close_up_to(self, ancestor):
        """Closes the open elements below ``ancestor``, which becomes the one new elements go into."""
        while self.current is not ancestor:
            self.current.end = len(self.root.elements)
            self.current = self.current.parent

    def handle_data(self, data):
        self.current.children.append(data)


@functools.lru_cache(maxsize=256)
def parsed(text):
    builder = Builder()
    builder.feed(text)
    builder.close_up_to(None)  # every element still open ends with the document
    return builder.root


def parse(body):
    """The document tree of ``body`` (text or bytes). A page read again gives the same tree: trees are read,
    never changed."""
    return parsed(body if isinstance(body, str) else body.decode())


def fetch(client, address):
    """The page at ``address``, which must answer 200, as a tree."""
    response = client.get(address)
    assert response.status_code == 200, address
    return parse(response.content)


class Page:
    """What a visitor reads on a page: its visible text (a list of strings, in order), its tables (rows of
    cell texts), its <h1> headings, the targets of its links, its language and its title."""

    def __init__(self, body):
        self.document = parse(body)
        root = self.document.find("html")
        self.lang = root.attrs.get("lang") if root is not None else None
        head = self.document.find("head")
        title = (head or self.document).find("title")
        self.title = title.text if title is not None else ""
        self.text = list(self.document.visible_strings())
        self.h1 = [heading.visible_text for heading in self.document.find_all("h1")]
        self.links = [link.attrs["href"] for link in self.document.find_all("a") if "href" in link.attrs]
        self.tables = [[[cell.visible_text for cell in row.cells()] for row in table.rows()]
                       for table in self.document.find_all("table")]

    def table_cells(self, index=0):
        return [[cell.strip() for cell in row] for row in self.tables[index]]


class Head:
    """What a page's head tells search engines and social sites: its title, its <meta> names and
    properties with their content, its <link> elements' attributes and its JSON-LD texts."""

    def __init__(self, body):
        document = parse(body)
        title = document.find("title")
        self.title = title.text if title is not None else ""
        self.meta = {meta.attrs.get("name") or meta.attrs.get("property"): meta.attrs.get("content", "")
                     for meta in document.find_all("meta") if "name" in meta.attrs or "property" in meta.attrs}
        self.links = [link.attrs for link in document.find_all("link")]
        self.json_ld = [script.text for script in document.find_all("script", type="application/ld+json")]


def form_fields(body, form_id=None, action=None):
    """The fields a browser would submit from the form with the id ``form_id`` (or the ``action``): named
    inputs (checked ones of checkboxes and radio buttons; no buttons, no files), selected options and
    textareas."""
    document = parse(body)
    form = document.by_id(form_id) if form_id else document.find("form", action=action)
    fields = {}
    for element in form.iter():
        name = element.attrs.get("name")
        if element.tag == "input" and name:
            kind = element.attrs.get("type")
            if kind in ("submit", "file") or (kind in ("checkbox", "radio") and "checked" not in element.attrs):
                continue
            fields[name] = element.attrs.get("value") or ""
        elif element.tag == "select" and name:
            for option in element.find_all("option"):
                if "selected" in option.attrs:
                    fields[name] = option.attrs.get("value") or ""
        elif element.tag == "textarea" and name:
            fields[name] = element.text
    return fields


def assert_page_heading(response, language, heading):
    """The response is a page in ``language`` whose one heading is ``heading`` (an interface string)
    translated into it; returns the page."""
    page = Page(response.content.decode())
    assert page.lang == language
    with translation.override(language):
        assert page.h1 == [gettext(heading)]
    return page
