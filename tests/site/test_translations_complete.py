"""Every interface string is translated in es, pt and de: no empty and no fuzzy entry in the .po files."""
import shutil
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from django.core.management import call_command

from ..languages import TRANSLATED
from ..project_source import LAYERS

LOCALE_DIR = Path(__file__).resolve().parents[2] / "locale"
PROJECT_DIR = LOCALE_DIR.parent
# Where interface strings are marked: every layer (apps and plain packages alike, tests/project_source.py), the
# project package and the templates.
SOURCE_FOLDERS = ["everx", "templates", *LAYERS]


@pytest.mark.parametrize("language", TRANSLATED)
def test_po_file_is_complete(language):
    with open(LOCALE_DIR / language / "LC_MESSAGES" / "django.po", "rb") as handle:
        catalog = read_po(handle, locale=language)
    messages = [message for message in catalog if message.id]
    assert messages
    untranslated = [message.id for message in messages
                    if not (all(message.string) if isinstance(message.string, tuple) else message.string)]
    fuzzy = [message.id for message in messages if message.fuzzy]
    assert untranslated == []
    assert fuzzy == []



@pytest.mark.multiprocess
def test_every_marked_string_is_in_the_po_files(tmp_path, settings, monkeypatch):
    """makemessages, run afresh over a copy of the sources, finds no string the committed .po lacks."""
    project = tmp_path / "project"
    for folder in SOURCE_FOLDERS:
        shutil.copytree(PROJECT_DIR / folder, project / folder)
    shutil.copytree(LOCALE_DIR / "es", project / "locale" / "es")
    settings.LOCALE_PATHS = [project / "locale"]
    monkeypatch.chdir(project)
    call_command("makemessages", locale=["es"], no_obsolete=True, verbosity=0)
    with open(LOCALE_DIR / "es" / "LC_MESSAGES" / "django.po", "rb") as handle:
        committed = {message.id for message in read_po(handle) if message.id}
    with open(project / "locale" / "es" / "LC_MESSAGES" / "django.po", "rb") as handle:
        extracted = {message.id for message in read_po(handle) if message.id}
    assert extracted - committed == set()
