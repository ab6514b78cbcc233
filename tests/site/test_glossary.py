"""One glossary per language, applied: no translation (locale/<lang>/LC_MESSAGES/django.po) and no launch content
text (*/content/<lang>/*.toml) uses a variant the language's glossary (docs/glossary/<lang>.toml) names as wrong
in a term's role. A sentence of the content deck (tests/deck/) is exempt whatever variant it uses: the site
reproduces the deck word for word."""
import re
import tomllib
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from ..deck import DECK_DIR, DECK_PAGES, parse
from ..languages import LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
GLOSSARY_DIR = ROOT / "docs" / "glossary"
LOCALE_DIR = ROOT / "locale"
# Where a placeholder, a tag or a line break cuts a text into pieces that each may be a piece of a deck line.
CUTS = re.compile(r"%\(\w+\)[sd]|%[sd]|\{\{.*?\}\}|\{%.*?%\}|<[^>]+>|\n")
# Placeholders: a wrong variant inside one ("%(ratio)s") is a name in the code, not a word of the text.
PLACEHOLDERS = re.compile(r"%\(\w+\)[sd]|\{\{.*?\}\}")
# The shortest piece of text that counts as deck text when it occurs inside a deck line (a whole table
# cell counts whatever its length).
SHORTEST_DECK_PIECE = 20


def glossary(language):
    with open(GLOSSARY_DIR / f"{language}.toml", "rb") as handle:
        return tomllib.load(handle)["terms"]


def wrong_variants(language):
    """(concept, right wording, compiled wrong variant) for each wrong variant of the glossary."""
    return [(term["concept"], term["right"], re.compile(pattern))
            for term in glossary(language) for pattern in term.get("wrong", [])]


def po_texts(language):
    """(where, text) for every translation in the language's .po file, each plural form apart."""
    path = LOCALE_DIR / language / "LC_MESSAGES" / "django.po"
    with open(path, "rb") as handle:
        catalog = read_po(handle, locale=language)
    for message in catalog:
        if not message.id:
            continue
        msgid = message.id[0] if isinstance(message.id, tuple) else message.id
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        context = f" (context {message.context!r})" if message.context else ""
        for string in strings:
            if string:
                yield f"{path.relative_to(ROOT)}: msgid {msgid!r}{context}", string


def string_values(value, key=""):
    if isinstance(value, str):
        yield key, value
    elif isinstance(value, dict):
        for name, item in value.items():
            yield from string_values(item, f"{key}.{name}" if key else name)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from string_values(item, f"{key}[{index}]")


def toml_texts(language):
    """(where, text) for every string value of the language's launch content files."""
    for path in sorted(ROOT.glob(f"*/content/{language}/*.toml")):
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
        for key, text in string_values(data):
            yield f"{path.relative_to(ROOT)}: {key}", text


def normal(text):
    return re.sub(r"\s+", " ", text).strip()


def deck_lines(language):
    """The deck's lines (list markers removed) and table cells in ``language``, white space normalized."""
    lines, cells = set(), set()
    for name, (page_language, _workload) in DECK_PAGES.items():
        if page_language != language:
            continue
        page = parse(name)
        lines |= {normal(line) for line in [page.title, *page.prose]}
        cells |= {normal(cell) for row in page.table for cell in row}
    return lines, cells


def deck_sentences(lines):
    """Each deck line and each of its sentences and clauses long enough to stand for deck text."""
    pieces = set(lines)
    for line in lines:
        pieces |= {piece for piece in re.split(r"(?<=[.:;?!])\s+", line) if len(piece) >= SHORTEST_DECK_PIECE}
    return pieces


def exempt_spans(text, lines, cells):
    """The spans of ``text`` that are deck text: a deck line or sentence found in it, or a piece of it (between
    placeholders or tags) that is a deck cell or occurs inside a deck line."""
    spans = []
    for sentence in deck_sentences(lines):
        spans += [(found.start(), found.end()) for found in re.finditer(re.escape(sentence), text)]
    start = 0
    for cut in [*CUTS.finditer(text), None]:
        end = cut.start() if cut else len(text)
        piece = text[start:end].strip()
        if piece and (piece in cells or (len(piece) >= SHORTEST_DECK_PIECE and any(piece in line for line in lines))):
            spans.append((start, end))
        if cut:
            start = cut.end()
    return spans


def offences(language, texts):
    variants = wrong_variants(language)
    lines, cells = deck_lines(language)
    found = []
    for where, raw in texts:
        text = normal(raw)
        spans = None
        for concept, right, pattern in variants:
            for match in pattern.finditer(text):
                if spans is None:
                    spans = exempt_spans(text, lines, cells) + [
                        (placeholder.start(), placeholder.end()) for placeholder in PLACEHOLDERS.finditer(text)]
                if any(start <= match.start() and match.end() <= end for start, end in spans):
                    continue
                found.append(f"{where}: {match.group(0)!r} ({concept}: {right!r}) in {text!r}")
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_translations_use_the_glossary_wording(language):
    assert offences(language, po_texts(language)) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_launch_content_uses_the_glossary_wording(language):
    assert offences(language, toml_texts(language)) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_wrong_variant_catches_its_examples_and_spares_the_right_wording(language):
    for term in glossary(language):
        assert term["wrong"] and term["examples"], term["concept"]
        for example in term["examples"]:
            assert any(re.search(pattern, example) for pattern in term["wrong"]), (term["concept"], example)
        for pattern in term["wrong"]:
            assert not re.search(pattern, term["right"]), (term["concept"], pattern)


def test_deck_text_is_exempt_and_the_same_words_outside_it_are_not():
    """The deck's own variants pass where the deck has them, and are caught in a sentence of the site's own."""
    deck_line = "La tabla estima el mayor modelo base para cada método, con margen."
    assert deck_line in deck_sentences(deck_lines("es")[0])
    assert offences("es", [("deck", "LoRA mantiene el modelo base en 16 bits. " + deck_line)]) == []
    assert offences("es", [("ours", "La tabla estima el mayor modelo para cada precisión.")]) != []
    assert offences("de", [("deck", "die A100 bleibt eine solide Wahl für Jobs, die nicht durch die Rechenleistung "
                                    "begrenzt sind.")]) == []
    assert offences("pt", [("deck", "Os preços são a melhor oferta em tempo real para uma GPU por hora.")]) == []
    assert offences("pt", [("ours", "Tempo real = horas de GPU ÷ número de GPU.")]) != []


def test_every_language_has_a_glossary():
    assert sorted(path.stem for path in GLOSSARY_DIR.glob("*.toml")) == sorted(LANGUAGES)
    assert DECK_DIR.is_dir()


# Interface strings used in two roles, each role with its own context (pgettext, {% translate … context … %}):
# msgid → {context: role}; None is the context-less entry of a role that keeps it.
TWO_ROLE_MSGIDS = {
    "Estimate": {"button": "the calculator's submit button", "column heading": "the published runs' column"},
    "source": {None: "the price history's admin field", "citation link": "the link to a cited source"},
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_msgid_used_in_two_roles_has_one_entry_per_role(language):
    with open(LOCALE_DIR / language / "LC_MESSAGES" / "django.po", "rb") as handle:
        catalog = read_po(handle, locale=language)
    for msgid, roles in TWO_ROLE_MSGIDS.items():
        contexts = {message.context: message.string for message in catalog if message.id == msgid}
        assert set(contexts) == set(roles), msgid
