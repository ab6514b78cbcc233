"""What the apps above the catalogue add to a GPU's page (a panel) and to a GPU's row in the calculator (a
link), such as the price alert of ``signups``.

The catalogue may not import those apps (imports only point down), so each registers a provider here from its
``AppConfig.ready()``; the catalogue's templates render what the providers return (``gpu_page_panels``
template tags). A GPU's page is cached whole and served to every visitor: a panel must be the same for all
of them (no CSRF token: a form on it is a GET form leading to the app's own page).

The signup action (``{% gpu_signup_action gpu via="catalogue" %}``, with ``count=8`` for a configuration) is
the one primary action beside a GPU's price on any page: a link to the signup form with the GPU preselected.
The page that shows it names itself with a key the signups know (``signups.signup_actions.SIGNUP_VIA_PAGES``);
the signup records that key."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Fragment:
    template_name: str
    context: dict


_panel_providers = []
_row_link_providers = []
_signup_action_providers = []


def register_panel(provider):
    """Add ``provider``: a function of a GPU that returns a Fragment for the GPU's page, or None. It runs on
    every render of the page: no queries."""
    if provider not in _panel_providers:
        _panel_providers.append(provider)


def register_row_link(provider):
    """Add ``provider``: a function of a GPU and a price in USD per GPU-hour (the row's) that returns a Fragment
    for the GPU's row in the calculator, or None. It runs once per row: no queries."""
    if provider not in _row_link_providers:
        _row_link_providers.append(provider)


def register_signup_action(provider):
    """Add ``provider``: a function of a GPU, a page key, a GPU count (an int, or None) and a style (``"link"`` or
    ``"button"``) that returns a Fragment, or None, and refuses a page key it does not know (``ValueError``). It
    runs once per row: no queries, and nothing that depends on the visitor (the page is cached for everyone)."""
    if provider not in _signup_action_providers:
        _signup_action_providers.append(provider)


def panels(gpu):
    return [fragment for provider in _panel_providers if (fragment := provider(gpu)) is not None]


def row_links(gpu, usd_per_hour):
    return [fragment for provider in _row_link_providers if (fragment := provider(gpu, usd_per_hour)) is not None]


def signup_actions(gpu, via, count=None, style="link"):
    """The signup actions for ``gpu`` (anything with ``slug`` and ``name``; None: a row without a GPU gets none).
    A style not listed here, or a page key the provider does not know, is a mistake in a template, refused loudly
    (tests render every page)."""
    if style not in ("link", "button"):
        raise ValueError(f"Unknown signup action style {style!r}.")
    if gpu is None:
        return []
    return [fragment for provider in _signup_action_providers
            if (fragment := provider(gpu, via, count, style)) is not None]
