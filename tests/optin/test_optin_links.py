"""The one page behind every double opt-in link (``optin.views.LinkView``), as each form configures it: a link
that is not ours, malformed or too long is a 404 page in the link's language, never cached nor indexed, whether
opened or posted; and every form's view has words for every state its link can be in."""
import pytest
from django.utils import translation

from alerts.views import ConfirmPriceAlertView, RenewPriceAlertView
from optin.confirmation import LinkState
from optin.tokens import MAX_TOKEN_LENGTH, new_token
from signups.views import ConfirmSignupView

from ..localized_urls import url_in

LINK_PAGES = ("signups:confirm", "alerts:price_alert_confirm", "alerts:price_alert_renew")
VIEWS = (ConfirmSignupView, ConfirmPriceAlertView, RenewPriceAlertView)
# The heading of the page of a link that is not valid, in two of the languages.
NOT_VALID = {"es": "Este enlace no es válido", "en": "This link is not valid"}


@pytest.mark.parametrize("view_name", LINK_PAGES)
@pytest.mark.parametrize("token", [new_token(), "x" * (MAX_TOKEN_LENGTH + 1), "%00"],
                         ids=["unknown", "too-long", "malformed"])
@pytest.mark.parametrize("method", ["get", "post"])
def test_a_link_that_is_not_ours_gets_the_not_valid_page(client, db, view_name, token, method):
    for language, heading in NOT_VALID.items():
        response = getattr(client, method)(url_in(language, view_name, token=token))
        assert response.status_code == 404
        assert heading in response.content.decode()
        assert response["X-Robots-Tag"] == "noindex" and "no-cache" in response["Cache-Control"]


@pytest.mark.parametrize("view", VIEWS)
def test_every_link_page_has_words_for_every_state(view):
    with translation.override("en"):
        assert set(view.headings) == {LinkState.UNUSED, LinkState.CONFIRMED, LinkState.USED}
        assert set(view.texts) == set(LinkState)
        assert all(str(text) for text in (view.button, *view.headings.values()))
        # The texts as the pages format them (plural ones by the number of days): words, every value filled in.
        values = {"days": 2, "gpu": "H100", "target": "$1.50"}
        assert all(len(text % values) > 20 and "%(" not in text % values for text in view.texts.values())
