from django.utils import translation

from workloads.snapshot import workload_content


def site_navigation(request):
    """The header's workload links: workloads whose page exists in the active language. A callable, which
    the template calls when it shows them: pages without the header (the admin's) load nothing."""
    language = translation.get_language()

    def links():
        content = workload_content()
        return content.links(content.with_page_in(language), language)

    return {"nav_workloads": links}
