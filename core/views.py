from django.shortcuts import render
from django.utils import translation
from django.utils.translation import gettext as _

from workloads.models import CallToAction, Workload

from .page_cache import cached_page
from .pages import page_context, urls_by_language


@cached_page
def home(request):
    language = translation.get_language()
    context = page_context(
        request, urls_by_language("home"),
        title=_("EverXCloud: rent the right GPU by the hour"),
        description=_("A GPU spot market opening soon: which GPU fits which job, with exact numbers and live prices."),
    )
    context.update({
        "workloads": Workload.objects.named_in(language),
        "calls_to_action": {cta.key: cta for cta in CallToAction.objects.all()},
    })
    return render(request, "core/home.html", context)


def page_not_found(request, exception):
    return render(request, "404.html", {"page_title": _("Page not found")}, status=404)
