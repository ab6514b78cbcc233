"""Counts of billions in words, as each language says them: a thousand billion tokens is a trillion ("15 Billionen
Token", never "15.000 Milliarden Token"), and one billion takes the singular ("1 Milliarde Parameter")."""
import re
from decimal import Decimal
from types import SimpleNamespace

import pytest
from django.utils import translation

from estimator.forms import LLAMA_3_BILLION_TOKENS, TrainingForm, preset_size
from estimator.texts import tokens_text

from ..html import parse
from ..localized_urls import url_in


def words(text):
    return re.sub(r"[\s\u00a0\u202f]+", " ", str(text)).strip()


@pytest.mark.parametrize("language, billions, expected", [
    ("de", 15000, "15 Billionen Token"), ("de", 1000, "1 Billion Token"), ("de", 1500, "1,5 Billionen Token"),
    ("de", 999, "999 Milliarden Token"), ("de", 1, "1 Milliarde Token"), ("de", 70, "70 Milliarden Token"),
    ("es", 15000, "15 billones de tokens"), ("es", 1000, "1 billón de tokens"), ("es", 70, "70 mil millones de tokens"),
    ("pt", 15000, "15 biliões de tokens"), ("pt", 70, "70 mil milhões de tokens"),
    ("en", 15000, "15 trillion tokens"), ("en", 70, "70 billion tokens"),
])
def test_token_counts_from_a_thousand_billion_on_are_trillions(language, billions, expected):
    with translation.override(language):
        assert words(tokens_text(Decimal(billions))) == expected


@pytest.mark.parametrize("language, expected", [
    ("de", "15 Billionen Token"), ("es", "15 billones de tokens"), ("pt", "15 biliões de tokens"),
    ("en", "15 trillion tokens"),
])
def test_the_llama_3_example_of_the_tokens_field_is_in_trillions(db, language, expected):
    assert LLAMA_3_BILLION_TOKENS == 15000
    with translation.override(language):
        help_text = words(TrainingForm(presets=[]).fields["tokens"].help_text)
    assert expected in help_text
    assert not re.search(r"15[.,]000", help_text)


@pytest.mark.parametrize("language, size, expected", [
    ("de", "1", "Tiny (1 Milliarde Parameter)"), ("de", "1.2", "Tiny (1,2 Milliarden Parameter)"),
    ("de", "8", "Tiny (8 Milliarden Parameter)"), ("en", "1", "Tiny (1 billion parameters)"),
])
def test_a_preset_of_one_billion_parameters_takes_the_singular(language, size, expected):
    with translation.override(language):
        assert words(preset_size(SimpleNamespace(name="Tiny", billion_params=Decimal(size)))) == expected


def test_the_calculators_memory_line_for_one_billion_parameters_takes_the_singular(client, launch_content):
    response = client.get(url_in("de", "estimator:calculator", {"size": "1", "method": "weights_16bit"}))
    assert response.status_code == 200
    text = words(parse(response.content).text)
    assert "1 Milliarde Parameter × 2 Byte" in text
    assert "1 Milliarden" not in text


def test_the_active_parameters_message_for_one_billion_takes_the_singular(client, launch_content):
    """The refusal repeats both figures as typed, each with its language's number word."""
    response = client.get(url_in("de", "estimator:calculator", {"answer": "inference", "size": "1", "active": "2"}))
    text = words(parse(response.content).text)
    assert "Die aktiven Parameter (2 Milliarden) dürfen die Modellgröße (1 Milliarde) nicht übersteigen." in text
    assert "1 Milliarden" not in text
