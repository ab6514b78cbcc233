from django.utils import translation

from workloads.models import Workload


def site_navigation(request):
    """The header's workload links: workloads whose page exists in the active language (lazy: no
    query unless a template shows them)."""
    return {"nav_workloads": Workload.objects.with_page_in(translation.get_language())}
