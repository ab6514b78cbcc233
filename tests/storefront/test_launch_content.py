"""The launch content command: loads everything, is idempotent, and leaves editors' changes alone."""
import io
from decimal import Decimal

from django.core.management import call_command

from catalog.loading import read_gpus
from catalog.models import GPU
from workloads.models import CallToAction, Workload, WorkloadColumn, WorkloadFAQ, WorkloadSection

from ..languages import LANGUAGES


def load(**options):
    out = io.StringIO()
    call_command("load_launch_content", stdout=out, **options)
    return out.getvalue()


def snapshot():
    return {
        model.__name__: sorted(tuple(row.values()) for row in model.objects.values())
        for model in (GPU, Workload, WorkloadColumn, WorkloadSection, WorkloadFAQ, CallToAction)
    }


def test_loads_the_fifteen_gpus_and_six_workloads(empty_database):
    load()
    assert GPU.objects.count() == 15 == len(read_gpus())
    assert Workload.objects.count() == 6
    assert set(Workload.objects.filter(is_published=True).values_list("key", flat=True)) == {
        "llm-training", "fine-tuning", "llm-inference", "image-video-generation", "rendering-vfx",
        "scientific-computing"}
    b300 = GPU.objects.get(slug="b300")
    assert b300.bandwidth_gbs is None and b300.bf16_dense_tflops is None
    rtx4090 = GPU.objects.get(slug="rtx-4090")
    assert (rtx4090.rt_cores, rtx4090.rt_core_generation) == (128, 3)
    training = Workload.objects.get(key="llm-training")
    assert [row.gpu.slug for row in training.rows.select_related("gpu")] == [
        "b300", "b200", "mi325x", "mi300x", "h200", "h100-nvl", "h100-sxm", "a100-sxm", "a100-pcie"]
    assert training.sections.count() == 3 and training.faqs.count() == 4
    for workload in Workload.objects.all():
        assert workload.page_languages() == LANGUAGES
        assert workload.sections.count() == 3 and workload.faqs.count() == 4
        for language in LANGUAGES:
            for field in ("title", "summary", "intro", "table_heading", "swipe_hint", "note", "matters_heading",
                          "compare_label", "faq_heading"):
                assert getattr(workload, f"{field}_{language}"), (workload.key, field, language)


def test_loading_twice_changes_nothing(empty_database):
    load()
    first = snapshot()
    load()
    assert snapshot() == first


def test_loading_again_keeps_editors_changes_and_reset_restores_the_files(empty_database):
    load()
    h100 = GPU.objects.get(slug="h100-sxm")
    h100.price_usd_per_hour = Decimal("2.50")
    h100.save()
    training = Workload.objects.get(key="llm-training")
    training.intro_es = "Texto de un editor."
    training.save()
    load()
    assert GPU.objects.get(slug="h100-sxm").price_usd_per_hour == Decimal("2.50")
    assert Workload.objects.get(key="llm-training").intro_es == "Texto de un editor."
    load(reset=True)
    assert GPU.objects.get(slug="h100-sxm").price_usd_per_hour == Decimal("2.88")
    assert Workload.objects.get(key="llm-training").intro_es.startswith("Entrenar un modelo desde cero")
