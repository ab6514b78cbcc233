"""This app's public pages: each published workload's page, in the languages it exists in."""
from .models import Workload


def workload_pages():
    for workload in Workload.objects.filter(is_published=True):
        paths = {code: workload.get_absolute_url(code) for code in workload.page_languages()}
        if paths:
            yield paths
