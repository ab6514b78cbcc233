"""Whether a page's address in a language is already another page's, so an editor's slug cannot make a
page unreachable: the URL patterns are tried in order, and an earlier one would answer that address."""
from django.urls import NoReverseMatch, resolve, reverse
from django.utils import translation


def languages_where_taken(view_name, slugs):
    """The languages, among those of ``slugs`` ({language: slug}), in which the page ``view_name`` would
    have at that slug an address that another page answers."""
    taken = []
    for language, slug in slugs.items():
        with translation.override(language):
            try:
                path = reverse(view_name, kwargs={"slug": slug})
            except NoReverseMatch:  # not a slug: the field's own validation says so
                continue
            if resolve(path).view_name != view_name:
                taken.append(language)
    return taken
