"""The templates' own rules: djLint finds nothing (its configuration is in pyproject.toml), no line is over
200 characters, and every include receives its context explicitly, so that a view's variable cannot
change what an include shows."""
import re
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT_DIR = Path(__file__).resolve().parents[2]
TEMPLATE_DIRS = [PROJECT_DIR / "templates", *sorted(PROJECT_DIR.glob("*/templates"))]
TEMPLATES = sorted(
    path for folder in TEMPLATE_DIRS for path in folder.rglob("*") if path.suffix in {".html", ".txt", ".xml"}
)
MAX_LINE = 200


def test_the_template_folders_are_found():
    assert len(TEMPLATES) > 40
    assert PROJECT_DIR / "templates" / "base.html" in TEMPLATES


@pytest.mark.multiprocess
def test_djlint_finds_nothing():
    djlint = Path(sys.executable).parent / "djlint"
    result = subprocess.run(
        [str(djlint), *[str(folder) for folder in TEMPLATE_DIRS], "--lint",
         "--configuration", str(PROJECT_DIR / "pyproject.toml")],
        check=False, capture_output=True, text=True, cwd=PROJECT_DIR, timeout=300,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert re.search(r"Linted \d+ files, found 0 errors", result.stdout), result.stdout[-2000:]


@pytest.mark.multiprocess
def test_djlint_would_fail_on_a_template_with_a_fault(tmp_path):
    """The check above can fail: djLint reports an unnamed endblock, as configured."""
    (tmp_path / "faulty.html").write_text('{% extends "base.html" %}\n{% block content %}\n<p>x</p>\n{% endblock %}\n')
    djlint = Path(sys.executable).parent / "djlint"
    result = subprocess.run(
        [str(djlint), str(tmp_path), "--lint", "--configuration", str(PROJECT_DIR / "pyproject.toml")],
        check=False, capture_output=True, text=True, cwd=PROJECT_DIR, timeout=120,
    )
    assert result.returncode != 0
    assert "T003" in result.stdout


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda path: str(path.relative_to(PROJECT_DIR)))
def test_no_line_is_over_200_characters(template):
    long_lines = [number for number, line in enumerate(template.read_text().splitlines(), 1) if len(line) > MAX_LINE]
    assert long_lines == []


def test_every_include_names_what_it_receives():
    includes = [
        (template.relative_to(PROJECT_DIR), tag)
        for template in TEMPLATES for tag in re.findall(r"\{% include [^%]*%\}", template.read_text())
    ]
    assert len(includes) > 20
    assert [(str(template), tag) for template, tag in includes if not tag.endswith(" only %}")] == []
