"""Claims in the workload pages' text that the site's own sizing rules decide: each language's sentence is
read back from the launch content and compared with what ``catalog.sizing`` computes, so a page never
contradicts its table or the calculator.

One parametrized case per language: add a language by adding its entry to each ``*_CLAIMS`` dict."""
import re
from decimal import Decimal
from fractions import Fraction

import pytest

from catalog.sizing import fewest_gpus, kv_cache_gb, required_memory_gb
from catalog.sizing_methods import sizing_method
from core.content_files import read_translations
from workloads.loading import CONTENT_DIR

NUMBER_WORDS = {
    "en": {"one": 1, "two": 2, "four": 4, "eight": 8},
    "es": {"una": 1, "dos": 2, "cuatro": 4, "ocho": 8},
    "pt": {"uma": 1, "duas": 2, "quatro": 4, "oito": 8},
    "de": {"eine": 1, "zwei": 2, "vier": 4, "acht": 8},
}

# The LLM-inference FAQ on a 70B model in 16 bits on 80 GB GPUs: a pattern whose group is the GPU count it
# answers, in words.
SEVENTY_B_CLAIMS = {
    "en": ("70B", r"you need (\w+) 80 GB GPUs"),
    "es": ("70B", r"se necesitan (\w+) GPU de 80 GB"),
    "pt": ("70B", r"são necessárias (\w+) GPU de 80 GB"),
    "de": ("70B", r"Sie brauchen (\w+) GPUs mit 80 GB"),
}

# The KV-cache FAQ: the example's "2 × layers × KV heads × head dimension × bytes" product, the KV heads of
# full multi-head attention, and the megabytes per token it states, in order: the example (16 bits), full
# multi-head attention (16 bits), an 8-bit cache.
KV_CACHE_CLAIMS = {
    "en": ("KV cache", r"With full multi-head attention, (\d+) KV heads"),
    "es": ("caché KV", r"Con atención multicabeza completa, (\d+) cabezas KV"),
    "pt": ("cache KV", r"Com atenção multicabeça completa, (\d+) cabeças KV"),
    "de": ("KV-Cache", r"Mit voller Multi-Head Attention, also (\d+) KV-Heads"),
}
PRODUCT = re.compile(r"2 × (\d+) × (\d+) × (\d+) × (\d+) [Bb]ytes?")  # "bytes", German "Byte"
MEGABYTES = re.compile(r"(\d+(?:[.,]\d+)?) MB")


def faq(language, question_mark):
    """The LLM-inference FAQ answer, in ``language``, whose question contains ``question_mark``."""
    faqs = read_translations(CONTENT_DIR, "llm-inference.toml")[language]["faqs"]
    (answer,) = [item["answer"] for item in faqs if question_mark in item["question"]]
    return answer


def as_number(word, language):
    return int(word) if word.isdigit() else NUMBER_WORDS[language][word.lower()]


@pytest.mark.parametrize("language", sorted(SEVENTY_B_CLAIMS))
def test_seventy_b_faq_answers_the_calculators_gpu_count(language):
    question_mark, pattern = SEVENTY_B_CLAIMS[language]
    answer = faq(language, question_mark)
    (stated,) = re.findall(pattern, answer)
    weights_gb = required_memory_gb(70, sizing_method("weights_16bit").bytes_per_parameter)
    assert as_number(stated, language) == fewest_gpus(weights_gb, 80)


@pytest.mark.parametrize("language", sorted(KV_CACHE_CLAIMS))
def test_kv_cache_faq_figures_follow_the_formula(language):
    question_mark, full_attention_pattern = KV_CACHE_CLAIMS[language]
    answer = faq(language, question_mark)
    (dimensions,) = PRODUCT.findall(answer)
    layers, kv_heads, head_dim, bytes_per_value = (int(n) for n in dimensions)
    (full_attention_heads,) = re.findall(full_attention_pattern, answer)
    # kv_cache_gb counts 16-bit values: scale it to the example's bytes per value, and per token in MB.
    per_token_16bit = {heads: kv_cache_gb(layers, heads, head_dim, 1, 1) * 1000
                       for heads in (kv_heads, int(full_attention_heads))}
    expected = [
        per_token_16bit[kv_heads] * Fraction(bytes_per_value, 2),
        per_token_16bit[int(full_attention_heads)] * Fraction(bytes_per_value, 2),
        per_token_16bit[kv_heads] / 2,  # an 8-bit cache: one byte per value
    ]
    stated = [Decimal(figure.replace(",", ".")) for figure in MEGABYTES.findall(answer)]
    assert len(stated) == len(expected)
    for figure, exact in zip(stated, expected, strict=True):
        decimals = -figure.as_tuple().exponent
        assert figure == round(Decimal(exact.numerator) / Decimal(exact.denominator), decimals)
