from django.http import Http404
from django.shortcuts import render
from django.utils import translation

from caching.pages import cached_page
from core.pages import page_context

from .cached_content import workload_content


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
    content = workload_content()
    workload = content.page(language, slug)
    if workload is None:
        raise Http404
    paths = {code: content.path(workload, code) for code in workload.page_languages()}
    context = page_context(request, paths, title=workload.title, description=workload.summary or workload.intro,
                           structured_data=[faq_page(workload)])
    context["article"] = content.article_markup(workload, language)
    return render(request, "workloads/workload_detail.html", context)
