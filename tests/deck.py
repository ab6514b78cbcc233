"""The content deck kept under tests/deck/ (a copy of the business's seed pages), parsed."""
import re
from dataclasses import dataclass
from pathlib import Path

DECK_DIR = Path(__file__).resolve().parent / "deck"

# Which page each seed file captures (from the deck's README).
DECK_PAGES = {
    "000_795ffb6c219f9f25.txt": ("es", "llm-training"),
    "001_7d2d0ce89a47add6.txt": ("pt", "llm-training"),
    "002_ec28ca16789293fc.txt": ("es", "fine-tuning"),
    "004_30ed466a4fa2b6e3.txt": ("de", "llm-training"),
}


@dataclass
class DeckPage:
    name: str
    language: str
    workload_key: str
    title: str
    table: list  # rows of cell texts, the header row first
    prose: list  # every other line after the title, list markers removed


def parse(name):
    language, workload_key = DECK_PAGES[name]
    lines = (DECK_DIR / name).read_text(encoding="utf-8").splitlines()
    rows = [line for line in lines if line.startswith("|")]
    table = [[cell.strip() for cell in row.strip().strip("|").split("|")] for row in rows if not set(row) <= set("|-")]
    prose = [line.removeprefix("- ") for line in lines[1:] if line.strip() and not line.startswith("|")]
    return DeckPage(name, language, workload_key, lines[0].strip(), table, prose)


def deck_pages():
    return [parse(name) for name in DECK_PAGES]


def squash(text):
    """Text without any white space, as the deck's capture compares it."""
    return re.sub(r"[\s\u00a0\u202f\u2009]+", "", text)
