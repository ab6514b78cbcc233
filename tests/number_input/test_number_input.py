"""Numbers read as the visitor writes them (number_input.reading, core.number_fields): each language's grouping and
decimals, size suffixes, the ambiguous and malformed texts refused with what was understood, the canonical text of
links, the form field (with and without the form's ``nf``, messages in every language, values shown back in the
page's format) and the catalogue's minimum memory, whose links mean the same in every language.

Expectations are written out by hand, or come from Babel's own formatting (never from the parser)."""
from decimal import Decimal
from pathlib import Path

import pytest
from babel.numbers import format_decimal
from django import forms
from django.http import QueryDict
from django.utils import translation
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

import number_input
from catalog.forms import CatalogueForm
from catalog.models import GPU
from core.formatting import format_number
from core.number_fields import LocalizedNumberField, NumberFormatField
from number_input.reading import (
    NumberInputError,
    canonical_number,
    parse_canonical,
    parse_number,
    parse_submitted_number,
)

from .. import factories
from ..html import fetch
from ..languages import LANGUAGES, TRANSLATED
from ..localized_urls import url_in
from ..project_source import project_imports

BABEL_LOCALES = {"es": "es_ES", "pt": "pt_BR", "de": "de_DE", "en": "en_US"}
# (group symbol, decimal symbol) as each language writes them.
SYMBOLS = {"es": (".", ","), "pt": (".", ","), "de": (".", ","), "en": (",", ".")}
SPACES = (" ", "\u00a0", "\u202f")
COMMA_LANGUAGES = TRANSLATED


def refused(text, language, **options):
    with pytest.raises(NumberInputError) as caught:
        parse_number(text, language, **options)
    return caught.value


# 1. Parsing in each language.


@pytest.mark.parametrize("language", COMMA_LANGUAGES)
@pytest.mark.parametrize("text, expected", [
    ("15.000", "15000"), ("1,5", "1.5"), ("1.500", "1500"), ("1.000.000", "1000000"), ("1.234,56", "1234.56"),
    ("6000", "6000"), ("6.000", "6000"), ("16.000", "16000"), ("15 000", "15000"), ("15\u00a0000", "15000"),
    ("15\u202f000", "15000"), ("1 000 000,25", "1000000.25"), ("  42  ", "42"), (",5", "0.5"), ("0,035", "0.035"),
    ("-1.000,5", "-1000.5"), ("\u22125", "-5"), ("15,000", "15"), ("007", "7"),
])
def test_comma_languages(language, text, expected):
    assert parse_number(text, language) == Decimal(expected)


@pytest.mark.parametrize("text, expected", [
    ("15,000", "15000"), ("1.5", "1.5"), ("1.500", "1.5"), ("1,000,000.25", "1000000.25"), ("6000", "6000"),
    ("15 000", "15000"), ("15\u00a0000", "15000"), ("15\u202f000", "15000"), (".5", "0.5"), ("-2,500.75", "-2500.75"),
    ("\t42\n", "42"),
])
def test_english(text, expected):
    assert parse_number(text, "en") == Decimal(expected)


@pytest.mark.parametrize("text", ["", "   ", "\u00a0"])
def test_blank_is_no_value(text):
    assert parse_number(text, "de") is None


def test_the_same_text_in_two_languages():
    assert parse_number("1.500", "de") == 1500
    assert parse_number("1.500", "en") == Decimal("1.5")
    assert parse_number("1,5", "de") == Decimal("1.5")
    assert parse_number("1,500", "en") == 1500


def test_a_regional_code_reads_as_its_language_and_an_unknown_one_is_a_programming_error():
    assert parse_number("1.500", "de-AT") == 1500
    with pytest.raises(ValueError, match="no number format"):
        parse_number("1", "fr")


# 2. Size suffixes (the field's unit is billions).


@pytest.mark.parametrize("language, text, expected", [
    *[(language, text, expected) for language in LANGUAGES for text, expected in [
        ("70B", "70"), ("70 B", "70"), ("70b", "70"), ("2T", "2000"), ("125M", "0.125"), ("125 m", "0.125"),
        ("-3B", "-3")]],
    ("de", "10 Mrd.", "10"), ("de", "10 Mrd", "10"), ("de", "10mrd.", "10"), ("de", "2,5 Mio.", "0.0025"),
    ("de", "2 Mio", "0.002"), ("de", "1,5 Bio.", "1500"), ("de", "1,5T", "1500"), ("de", "1.000 Mrd.", "1000"),
    ("es", "10 mil M", "10"), ("es", "10mil M", "10"), ("es", "10 mil millones", "10"), ("es", "500 millones", "0.5"),
    ("es", "1,5 mil M", "1.5"), ("pt", "10 mil M", "10"), ("pt", "10 mil milhões", "10"), ("pt", "500 milhões", "0.5"),
    ("en", "70 bn", "70"), ("en", "70bn", "70"), ("en", "70 billion", "70"), ("en", "70 Billion", "70"),
    ("en", "1.5 trillion", "1500"), ("en", "1.5T", "1500"), ("en", "350 million", "0.35"),
])
def test_size_suffixes(language, text, expected):
    assert parse_number(text, language, unit_suffixes=True) == Decimal(expected)


@pytest.mark.parametrize("language, text, understood, rest", [
    ("en", "10 Mrd.", "10", "Mrd."), ("de", "10 mil M", "10", "mil M"), ("de", "70 bn", "70", "bn"),
    ("es", "10 mil", "10", "mil"), ("pt", "10 mil", "10", "mil"), ("en", "5 K", "5", "K"), ("de", "7 GB", "7", "GB"),
])
def test_a_suffix_of_another_language_or_none_is_refused_with_the_number_understood(language, text, understood, rest):
    error = refused(text, language, unit_suffixes=True)
    assert (error.code, error.understood, error.rest, error.language) == ("unknown_suffix", Decimal(understood),
                                                                           rest, language)


@pytest.mark.parametrize("text, understood, rest", [("70B", "70", "B"), ("80 GB", "80", "GB"), ("1e3", "1", "e3"),
                                                    ("12,5 %", "12.5", "%")])
def test_text_after_a_number_in_a_field_without_suffixes(text, understood, rest):
    error = refused(text, "de")
    assert (error.code, error.understood, error.rest) == ("unexpected_text", Decimal(understood), rest)


# 3. What is refused, and what was understood.


@pytest.mark.parametrize("language", COMMA_LANGUAGES)
@pytest.mark.parametrize("text, readings", [
    ("1.5", ("1.5", "1500")), ("12.5", ("12.5", "12500")), ("1.50", ("1.50", "1500")), ("-1.5", ("1.5", "1500")),
])
def test_a_decimal_point_in_a_comma_language_is_ambiguous(language, text, readings):
    error = refused(text, language)
    assert error.code == "decimal_or_thousands" and error.language == language and error.understood is None
    assert [str(reading) for reading in error.readings] == list(readings)


def test_a_decimal_comma_in_english_is_ambiguous():
    error = refused("1,5", "en")
    assert error.code == "decimal_or_thousands"
    assert error.readings == (Decimal("1.5"), Decimal(1500))


@pytest.mark.parametrize("language, text, reading", [
    ("de", "0.5", "0.5"), ("de", ".5", "0.5"), ("es", "1,234.5", "1234.5"), ("pt", "1.5000", "1.5000"),
    ("de", "1 000.5", "1000.5"), ("en", "1.234,5", "1234.5"), ("en", "0,5", "0.5"), ("en", "1.000.000", "1000000"),
])
def test_the_other_conventions_number_is_refused_with_its_reading(language, text, reading):
    error = refused(text, language)
    assert error.code == "other_format" and [str(value) for value in error.readings] == [reading]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("text", ["12 34", "1.000 000", "1.00.000", "12.34.567", "1,,5", "1  000", "1 0000"])
def test_bad_grouping_has_no_reading(language, text):
    error = refused(text, language)
    assert (error.code, error.readings, error.understood, error.language) == ("grouping", (), None, language)


@pytest.mark.parametrize("text", ["lots", "NaN", "Infinity", "- 5", "B", "\u0663", "\uff15", "\u00b2", "++5", "ca. 5"])
def test_no_number(text):
    error = refused(text, "en", unit_suffixes=True)
    assert (error.code, error.understood) == ("invalid", None)


def test_digits_beyond_twenty_are_refused():
    assert parse_number("9" * 20, "en") == Decimal("9" * 20)
    assert refused("9" * 21, "en").code == "too_long"
    assert refused("1," + "000," * 6 + "000", "en").code == "too_long"


@pytest.mark.parametrize("language, text, expected", [
    ("de", "15,0", "15"), ("de", "1,5T", "1500"), ("en", "0.5 trillion", "500"), ("es", "2.000", "2000"),
])
def test_whole_numbers(language, text, expected):
    value = parse_number(text, language, unit_suffixes=True, integer=True)
    assert value == Decimal(expected) and value.as_tuple().exponent == 0


@pytest.mark.parametrize("language, text, understood", [("de", "1,5", "1.5"), ("en", "2.25", "2.25"),
                                                        ("en", "1500M", "1.5")])
def test_a_fraction_is_refused_where_whole_numbers_are_asked(language, text, understood):
    error = refused(text, language, unit_suffixes=True, integer=True)
    assert (error.code, error.understood) == ("fraction", Decimal(understood))


def test_results_are_exact_and_plain():
    value = parse_number("12.345.678.901.234.567,89 Bio.", "de", unit_suffixes=True)
    assert str(value) == "12345678901234567890"
    assert str(parse_number("1,50", "de")) == "1.5"
    assert str(parse_number("125M", "en", unit_suffixes=True)) == "0.125"


# 4. Round trips and the canonical text.


@pytest.mark.parametrize("value, text", [
    (Decimal(15000), "15000"), (Decimal("1.50"), "1.5"), (Decimal("0.350"), "0.35"), (Decimal("1.5E+3"), "1500"),
    (Decimal("-0"), "0"), (Decimal("-2.50"), "-2.5"), (7, "7"), (Decimal("0.0001"), "0.0001"),
    (Decimal("1E+21"), "1000000000000000000000"),
])
def test_canonical_number(value, text):
    assert canonical_number(value) == text


@pytest.mark.parametrize("value", [Decimal("NaN"), Decimal("Infinity")])
def test_no_canonical_text_for_what_is_no_number(value):
    with pytest.raises(ValueError):
        canonical_number(value)


@pytest.mark.parametrize("text", ["1.500", "15,000", "1.50", "+5", "007", "1e3", "70B", "1 000", ".5", "1."])
def test_what_is_not_canonical(text):
    assert parse_canonical(text) is None


@pytest.mark.parametrize("text, expected", [("1500", "1500"), ("1.5", "1.5"), (" 0.35 ", "0.35"), ("-2.5", "-2.5"),
                                            ("0", "0")])
def test_what_is_canonical(text, expected):
    assert parse_canonical(text) == Decimal(expected)


decimals_with_three_places = st.builds(
    lambda units, places: Decimal(units).scaleb(-places),
    st.integers(min_value=-10**15, max_value=10**15), st.integers(min_value=0, max_value=3),
)


def written_as(value, language, separator=None):
    """``value`` as the page's formatting writes it in ``language``, its group symbol replaced by ``separator``."""
    with translation.override(language):
        text = format_number(value)
    group, decimal = SYMBOLS[language]
    whole, point, fraction = text.partition(decimal)
    return whole.replace(group, separator or group) + point + fraction


@hypothesis_settings(max_examples=300, deadline=None)
@given(decimals_with_three_places, st.sampled_from(LANGUAGES), st.sampled_from((None, *SPACES)))
def test_what_the_site_writes_reads_back(value, language, separator):
    assert parse_number(written_as(value, language, separator), language) == value


@hypothesis_settings(max_examples=300, deadline=None)
@given(decimals_with_three_places, st.sampled_from(LANGUAGES))
def test_what_babel_writes_reads_back(value, language):
    """Babel groups every number of four digits (6.000 in Spanish too): read as well."""
    text = format_decimal(value, locale=BABEL_LOCALES[language], decimal_quantization=False)
    assert parse_number(text, language) == value


@hypothesis_settings(max_examples=300, deadline=None)
@given(decimals_with_three_places, st.sampled_from(LANGUAGES), st.sampled_from((None, *LANGUAGES)))
def test_the_canonical_text_means_the_same_in_every_language(value, page_language, number_format):
    text = canonical_number(value)
    expected = format(value, "f")
    if "." in expected:
        expected = expected.rstrip("0").rstrip(".")
    assert text == expected
    assert parse_canonical(text) == value
    if number_format is None:  # a link the site writes: no nf
        assert parse_submitted_number(text, page_language) == value


@hypothesis_settings(max_examples=200, deadline=None)
@given(decimals_with_three_places, st.sampled_from(LANGUAGES), st.sampled_from(LANGUAGES))
def test_a_submitted_number_is_read_in_the_forms_language_on_any_page(value, typed_in, page_language):
    text = written_as(value, typed_in)
    assert parse_submitted_number(text, page_language, typed_in) == value


# 5. The form field.


class SizeForm(forms.Form):
    size = LocalizedNumberField(required=False, unit_suffixes=True)
    count = LocalizedNumberField(required=False, integer=True)
    nf = NumberFormatField()


def bound(query, language):
    with translation.override(language):
        form = SizeForm(QueryDict(query))
        form.is_valid()
        return form


@pytest.mark.parametrize("query, language, expected", [
    ("size=1.500&nf=de", "en", Decimal(1500)), ("size=1.500&nf=en", "de", Decimal("1.5")),
    ("size=1.500", "de", Decimal(1500)), ("size=1.500", "en", Decimal("1.5")),
    ("size=1.5", "de", Decimal("1.5")),  # canonical, as the site writes links: the same on every page
    ("size=1500", "es", Decimal(1500)), ("size=10+mil+M&nf=es", "en", Decimal(10)),
    ("size=1.500&nf=xx", "de", Decimal(1500)),  # an unknown format is none
    ("size=", "de", None), ("size=+", "de", None), ("", "de", None),
])
def test_the_field_reads_in_the_forms_number_format(query, language, expected):
    form = bound(query, language)
    assert form.errors == {} and form.cleaned_data["size"] == expected


def test_typed_in_a_form_canonical_looking_text_is_still_read_in_its_language():
    form = bound("size=1.5&nf=de", "de")
    assert form.errors["size"].as_data()[0].code == "decimal_or_thousands"


@pytest.mark.parametrize("language, query, message", [
    ("de", "size=1.5&nf=de", "„1.5“ ist keine Zahl, wie man sie auf Deutsch schreibt: Meinten Sie 1,5 oder 1.500?"),
    ("es", "size=1.5&nf=es",
     "«1.5» no es un número tal como se escribe en español: ¿quería decir 1,5 o 1500?"),
    ("pt", "size=1.5&nf=pt",
     "«1.5» não é um número tal como se escreve em português: quis dizer 1,5 ou 1.500?"),
    ("en", "size=1,5&nf=en", "“1,5” is not a number as written in English: did you mean 1.5 or 1,500?"),
    ("en", "size=1.5&nf=de", "“1.5” is not a number as written in German: did you mean 1.5 or 1,500?"),
    ("de", "size=0.5&nf=de", "„0.5“ ist keine Zahl, wie man sie auf Deutsch schreibt: Meinten Sie 0,5?"),
    ("en", "size=1.234,5&nf=en", "“1.234,5” is not a number as written in English: did you mean 1,234.5?"),
    ("de", "size=12.34.567&nf=de", "„12.34.567“ ist keine Zahl, wie man sie auf Deutsch schreibt: Gruppieren Sie "
                                   "Tausender in Dreiergruppen, etwa 12.345,5."),
    ("es", "size=12+34&nf=es", "«12 34» no es un número tal como se escribe en español: agrupe los miles de tres en "
                               "tres, como en 12.345,5."),
    ("de", "size=viel&nf=de", "„viel“ ist keine Zahl; schreiben Sie zum Beispiel 12.345,5."),
    ("en", "size=lots", "“lots” is not a number; write one such as 12,345.5."),
    ("pt", "size=muito", "«muito» não é um número; escreva, por exemplo, 12.345,5."),
    ("de", "size=10+mil+M&nf=de", "„10 mil M“: Die Zahl 10 wurde verstanden, „mil M“ aber nicht; schreiben Sie eine "
                                  "Größe wie 70 Mrd. oder 70B."),
    ("es", "size=10+mil&nf=es", "«10 mil»: se entiende el número 10, pero no «mil»; escriba un tamaño como 70 mil M "
                                "o 70B."),
    ("en", "size=7+GB&nf=en", "“7 GB”: the number 7 is understood, but not “GB”; write a size such as 70 bn or 70B."),
    ("en", "count=70B&nf=en", "“70B”: the number 70 is understood, but not “B”."),
    ("de", "count=1,5&nf=de", "„1,5“ ist 1,5: Geben Sie eine ganze Zahl ein."),
    ("es", "count=2500,25&nf=es", "«2500,25» es 2500,25: escriba un número entero."),
    ("pt", "count=12345,5&nf=pt", "«12345,5» é 12.345,5: introduza um número inteiro."),
    ("es", "count=" + "9" * 50, "«" + "9" * 39 + "…» tiene demasiadas cifras."),
])
def test_messages_repeat_what_was_understood_in_the_pages_language(language, query, message):
    form = bound(query, language)
    name = query.split("=")[0]
    with translation.override(language):
        assert form.errors[name] == [message]


@pytest.mark.parametrize("language, query, shown", [
    ("de", "count=15000", "15.000"), ("en", "count=15000", "15,000"), ("es", "count=15000", "15.000"),
    ("es", "count=1500", "1500"), ("pt", "count=1500", "1.500"), ("de", "size=1.500&nf=en", "1,5"),
    ("en", "size=1.500&nf=de", "1,500"), ("de", "size=0.0001", "0,0001"), ("de", "size=10+Mrd.&nf=de", "10"),
    ("en", "size=125M", "0.125"),
    ("de", "size=1.5&nf=de", "1.5"), ("en", "count=lots", "lots"), ("de", "count=1,5", "1,5"),  # invalid: as typed
])
def test_a_value_is_shown_back_in_the_pages_format(language, query, shown):
    form = bound(query, language)
    name = query.split("=")[0]
    with translation.override(language):
        assert form[name].value() == shown
        assert f'value="{shown}"' in str(form[name])


def test_an_unbound_form_shows_its_initial_value_in_the_pages_format():
    with translation.override("de"):
        form = SizeForm(initial={"count": Decimal(70000)})
        assert form["count"].value() == "70.000"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_hidden_number_format_is_the_pages_language_whatever_was_submitted(language):
    form = bound("size=1.500&nf=de", language)
    with translation.override(language):
        html = str(form["nf"])
    assert 'type="hidden"' in html and 'name="nf"' in html and f'value="{language}"' in html


def test_the_fields_canonical_text_and_its_inputs():
    field = SizeForm.base_fields["size"]
    assert field.canonical(Decimal("1500.0")) == "1500"
    assert field.canonical(Decimal("0.350")) == "0.35"
    assert field.canonical(None) == ""
    form = SizeForm()
    assert 'inputmode="text"' in str(form["size"])  # suffixes need letters
    assert 'inputmode="decimal"' in str(form["count"])
    with pytest.raises(TypeError):
        LocalizedNumberField(widget=forms.TextInput)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_catalogue_forms_own_query_string_is_canonical(language):
    with translation.override(language):
        form = CatalogueForm(QueryDict("vendor=AMD&min_memory=1.000&sort=price&nf=de"), vendors=["AMD"])
        assert form.query_pairs() == [("vendor", "AMD"), ("min_memory", "1000"), ("sort", "price")]
        form = CatalogueForm(QueryDict("min_memory=1.5&nf=de&sort=price"), vendors=["AMD"])
        assert form.query_pairs() == [("sort", "price")]  # an invalid number is no link's
        assert CatalogueForm(vendors=["AMD"]).query_pairs() == []


# 6. The catalogue's minimum memory.


def catalogue_names(document):
    table = document.find("table", class_="gpu-table")
    return set() if table is None else {a.text for a in table.find("tbody").find_all("a", class_="gpu-name")}


@pytest.fixture
def big_gpus(launch_content):
    """GPUs on both sides of 1000 GB (the launch content has none that large)."""
    for slug, memory in (("test-1024", 1024), ("test-1000", 1000), ("test-999", Decimal("999.5"))):
        factories.gpu(slug=slug, name=f"Test {memory}", memory_gb=Decimal(memory), price_usd_per_hour=Decimal("9.99"))
    return {"Test 1024", "Test 1000"}


def test_the_catalogue_reads_the_forms_number_format(client, big_gpus):
    address = url_in("de", "catalog:gpu_list", {"min_memory": "1.000", "nf": "de"})
    document = fetch(client, address)
    assert catalogue_names(document) == big_gpus
    form = document.find("form", class_="query-form")
    assert form.find("input", name="min_memory").attrs["value"] == "1.000"
    assert form.find("input", name="nf").attrs["value"] == "de"
    assert document.find(id="id_min_memory_error") is None


def test_the_catalogues_links_carry_canonical_numbers_and_no_format(client, big_gpus):
    document = fetch(client, url_in("de", "catalog:gpu_list", {"min_memory": "1.000", "nf": "de"}))
    switcher = document.find(class_="language-switcher")
    for language in ("es", "pt", "en"):
        assert switcher.find("a", hreflang=language).attrs["href"] == url_in(
            language, "catalog:gpu_list", {"min_memory": "1000"})
    canonical = document.find("link", rel="canonical").attrs["href"]
    assert canonical.endswith(url_in("de", "catalog:gpu_list", {"min_memory": "1000"}))
    alternates = [link.attrs["href"] for link in document.find_all("link", rel="alternate") if "hreflang" in link.attrs]
    assert alternates and all(href.endswith("?min_memory=1000") for href in alternates)
    sort_links = [a.attrs["href"] for a in document.find("thead").find_all("a")]
    assert "?min_memory=1000&sort=price" in sort_links and all("nf=" not in href for href in sort_links)


def test_a_shared_address_means_the_same_in_every_language(client, big_gpus):
    for language in LANGUAGES:
        document = fetch(client, url_in(language, "catalog:gpu_list", {"min_memory": "1.000", "nf": "de"}))
        assert catalogue_names(document) == big_gpus, language
        document = fetch(client, url_in(language, "catalog:gpu_list", {"min_memory": "1000"}))
        assert catalogue_names(document) == big_gpus, language
    shown = fetch(client, url_in("en", "catalog:gpu_list", {"min_memory": "1.000", "nf": "de"}))
    assert shown.find("input", name="min_memory").attrs["value"] == "1,000"
    assert shown.find("input", name="nf").attrs["value"] == "en"


def test_the_number_format_is_part_of_the_cached_pages_key(client, big_gpus):
    everything = {gpu.name for gpu in GPU.objects.all()}
    in_german = fetch(client, url_in("de", "catalog:gpu_list", {"min_memory": "1.000", "nf": "de"}))
    in_english = fetch(client, url_in("de", "catalog:gpu_list", {"min_memory": "1.000", "nf": "en"}))
    assert catalogue_names(in_german) == big_gpus
    assert catalogue_names(in_english) == everything  # 1 GB


def test_an_ambiguous_minimum_is_refused_and_ignored(client, big_gpus):
    document = fetch(client, url_in("de", "catalog:gpu_list", {"min_memory": "1.5", "nf": "de"}))
    assert document.by_id("id_min_memory_error").squashed_text == (
        "„1.5“ ist keine Zahl, wie man sie auf Deutsch schreibt: Meinten Sie 1,5 oder 1.500?")
    assert catalogue_names(document) == {gpu.name for gpu in GPU.objects.all()}
    assert document.find("input", name="min_memory").attrs["value"] == "1.5"
    switcher = document.find(class_="language-switcher")
    assert switcher.find("a", hreflang="en").attrs["href"] == url_in("en", "catalog:gpu_list")


def test_the_number_input_is_pure():
    """No Django and nothing of an app: the reader depends on Babel's CLDR symbols alone (core builds on it)."""
    package = Path(number_input.__file__).resolve().parent
    for module in package.glob("*.py"):
        imported = {name.split(".")[0] for name in project_imports(module.read_text(encoding="utf-8"))}
        assert imported <= {"babel"}, (module.name, imported)
