"""The site's public pages, as the apps that own them declare them: the sitemap lists them and the forms
accept them as the page a visitor came from. Each app registers its pages from its ``AppConfig.ready()``,
so core, below every app, names none of them."""
_sources = []


def register(source):
    """``source()`` yields each public page of an app as a {language: path} map, with only the languages
    the page exists in."""
    if source not in _sources:
        _sources.append(source)


def public_pages():
    """Each public page of every app, as a {language: path} map, in the order the apps registered."""
    for source in _sources:
        yield from source()


_robots_sources = []


def allow_robots(source):
    """``source()`` yields paths that robots.txt names with an Allow line (files outside the sitemap's pages,
    such as the open data feed)."""
    if source not in _robots_sources:
        _robots_sources.append(source)


def robots_allowed_paths():
    for source in _robots_sources:
        yield from source()
