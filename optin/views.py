"""The pages behind the links of the mails of every form that mails: ``link_page`` shows a message and, for a
link not used yet, a button that POSTs to it; ``LinkView`` is the page of a ``confirmation.Link``, which each
app configures with its link, what using it does and its words for each state."""
from django.shortcuts import render
from django.utils.cache import add_never_cache_headers
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.generic import View

from core.errors import message_context
from core.middleware import allow_methods

from .confirmation import LinkState

# A link that is too old says so (Gone); one that is not ours is Not Found. Every other state is a page.
STATUS = {LinkState.EXPIRED: 410, LinkState.UNKNOWN: 404}


def link_page(request, heading, paragraphs, *, status=200, button=None, link=None, next_steps=()):
    """The page behind a mail's link: a message, and for a link not used yet a button that POSTs to it.

    Opening a link only ever shows this page: mail scanners and link previews open links too."""
    context = message_context(heading, paragraphs, link, next_steps)
    context["button"] = button
    response = render(request, "optin/link_page.html", context, status=status)
    add_never_cache_headers(response)
    response["X-Robots-Tag"] = "noindex"
    return response


# The token in the link is the credential: a POST needs no CSRF token (nor the cookie that carries it).
@method_decorator([csrf_exempt, allow_methods("GET", "HEAD", "POST")], name="dispatch")
class LinkView(View):
    """The page of a mailed ``link`` (a ``confirmation.Link``): opening it shows the state of its row, with a
    button while the link is unused; the button's POST uses it (``use``).

    A subclass declares what using the link does (``use``) and its words: a heading per state the link can be in
    while its row exists (``headings``: UNUSED, CONFIRMED, USED), a text per state (``texts``, formatted with
    ``text_values``), the button's label, and where each page leads on (``onward``; an expired link or one that
    is not valid: ``again_link``)."""

    link = None
    headings = {}
    texts = {}
    button = None

    def get(self, request, token):
        row = self.link.row_for(token)
        return self.page(self.link.state(row), row)

    def post(self, request, token):
        before = self.link.row_for(token)
        state = self.use(token)
        # Read again for its new state; a row that using the link deleted (an alert that found no room left) is
        # shown as it was.
        return self.page(state, self.link.row_for(token) or before)

    def use(self, token):
        """Use the link of ``token``: CONFIRMED, or the state that prevented it (a subclass may name a function of
        the token: ``use = staticmethod(confirm)``)."""
        raise NotImplementedError

    def text_values(self, row):
        """The values the texts name (``row`` None: a link that is not valid)."""
        return {}

    def onward(self, state, row):
        """Where the page of a link just used (CONFIRMED) or used before (USED) leads: ``link_page``'s ``link`` or
        ``next_steps``."""
        return {}

    def again_link(self, row):
        """Where an expired link (or, ``row`` None, one that is not valid) sends its visitor."""
        raise NotImplementedError

    def message(self, state, row):
        """The page of a link whose row exists (UNUSED, CONFIRMED, USED): ``link_page``'s heading, paragraphs and
        button, link or next steps."""
        message = {"heading": self.headings[state], "paragraphs": [self.texts[state] % self.text_values(row)]}
        return {**message, "button": self.button} if state is LinkState.UNUSED else {
            **message, **self.onward(state, row)}

    def page(self, state, row):
        if state not in STATUS:
            return link_page(self.request, **self.message(state, row))
        heading = _("This link is no longer valid") if state is LinkState.EXPIRED else _("This link is not valid")
        return link_page(self.request, heading, [self.texts[state] % self.text_values(row)], status=STATUS[state],
                         link=self.again_link(row))
