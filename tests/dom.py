"""A small HTML tree for tests that need attributes and structure: find elements by tag, id, class or
attribute, read their text. Built on the standard library's parser; void elements have no children."""
import html.parser
import re

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Element:
    def __init__(self, tag, attrs, parent=None):
        self.tag, self.attrs, self.parent, self.children = tag, dict(attrs), parent, []

    def __repr__(self):
        return f"<{self.tag} {self.attrs}>"

    @property
    def text(self):
        return "".join(child if isinstance(child, str) else child.text for child in self.children)

    @property
    def squashed_text(self):
        return re.sub(r"\s+", " ", self.text).strip()

    @property
    def classes(self):
        return (self.attrs.get("class") or "").split()

    def iter(self):
        for child in self.children:
            if isinstance(child, Element):
                yield child
                yield from child.iter()

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

    def table_rows(self):
        """Rows of cell texts of a table element, header rows included."""
        return [[cell.squashed_text for cell in row.children if isinstance(cell, Element) and cell.tag in ("th", "td")]
                for row in self.find_all("tr")]


class Builder(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = self.current = Element("#document", {})

    def handle_starttag(self, tag, attrs):
        element = Element(tag, attrs, self.current)
        self.current.children.append(element)
        if tag not in VOID:
            self.current = element

    def handle_startendtag(self, tag, attrs):
        self.current.children.append(Element(tag, attrs, self.current))

    def handle_endtag(self, tag):
        node = self.current
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:
            self.current = node.parent

    def handle_data(self, data):
        self.current.children.append(data)


def parse(body):
    builder = Builder()
    builder.feed(body if isinstance(body, str) else body.decode())
    return builder.root


def fetch(client, address):
    """The page at ``address``, which must answer 200, as a tree."""
    response = client.get(address)
    assert response.status_code == 200, address
    return parse(response.content)
