from django.db.models import Prefetch
from django.shortcuts import get_object_or_404, render
from django.utils import translation

from core.page_cache import cached_page
from core.pages import page_context

from .models import CallToAction, Workload, WorkloadGPU
from .tables import workload_table


def faq_page(workload):
    """schema.org FAQPage with the workload's questions and answers (prefetched)."""
    return {
        "@context": "https://schema.org",
        "@type": "FAQPage",
        "mainEntity": [
            {"@type": "Question", "name": faq.question, "acceptedAnswer": {"@type": "Answer", "text": faq.answer}}
            for faq in workload.faqs.all()
        ],
    }


@cached_page
def workload_detail(request, slug):
    language = translation.get_language()
    workload = get_object_or_404(
        Workload.objects.with_page_in(language).prefetch_related(
            "columns", "sections", "faqs",
            Prefetch("rows", queryset=WorkloadGPU.objects.select_related("gpu")),
        ),
        **{f"slug_{language}": slug},
    )
    paths = {code: workload.get_absolute_url(code) for code in workload.page_languages()}
    context = page_context(request, paths, title=workload.title, description=workload.summary or workload.intro,
                           structured_data=[faq_page(workload)])
    updated = [row.gpu.price_updated_at for row in workload.rows.all() if row.gpu.price_updated_at]
    context.update({
        "prices_updated": max(updated) if updated else None,
        "workload": workload,
        "columns": list(workload.columns.all()),
        "table_rows": workload_table(workload),
        "other_workloads": Workload.objects.named_in(language).exclude(pk=workload.pk),
        "calls_to_action": {cta.key: cta for cta in CallToAction.objects.all()},
    })
    return render(request, "workloads/workload_detail.html", context)
