"""A confirmation mail names its row by kind and id (``optin.outbox``), not by a foreign key, since the outbox
sits below the forms: deleting a signup or a price alert deletes its mails all the same (and only its own),
however the row is deleted, and a mail gets the link of the row it names as it is sent."""
import pytest
from django.core import mail

from optin import outbox
from optin.confirmation import LINK_PLACEHOLDER
from optin.erasure import delete_with_admin_history
from optin.models import OutboxEmail
from optin.tokens import token_hash

from .. import factories
from ..signup_helpers import CONFIRM_LINK


def confirmation_mail(row):
    return outbox.queue(recipient=row.email, subject="s", body=f"Confirm: {LINK_PLACEHOLDER}", language="es",
                        confirmation_of=row)


def test_a_mail_names_its_row_by_kind_and_id(launch_content):
    ana, bea = factories.signup(), factories.price_alert()
    signup_mail, alert_mail = confirmation_mail(ana), confirmation_mail(bea)
    assert (signup_mail.link_kind, signup_mail.link_row_id) == ("signup", ana.pk)
    assert (alert_mail.link_kind, alert_mail.link_row_id) == ("price_alert", bea.pk)
    # A signup and an alert may share an id: the kind tells their mails apart.
    assert list(outbox.mails_about(ana)) == [signup_mail] and list(outbox.mails_about(bea)) == [alert_mail]


@pytest.mark.parametrize("delete", [
    pytest.param(lambda row: row.delete(), id="instance"),
    pytest.param(lambda row: type(row).objects.filter(pk=row.pk).delete(), id="queryset"),
    pytest.param(lambda row: delete_with_admin_history(type(row).objects.filter(pk=row.pk)), id="admin-history"),
])
@pytest.mark.parametrize("make_row", [factories.signup, factories.price_alert], ids=["signup", "price-alert"])
def test_deleting_a_row_deletes_its_mails_and_no_others(launch_content, make_row, delete):
    row, other = make_row(), make_row()
    confirmation_mail(row)
    sent = confirmation_mail(row)
    OutboxEmail.objects.filter(pk=sent.pk).update(sent_at=sent.created_at, next_attempt_at=None)
    kept = confirmation_mail(other)
    unlinked = outbox.queue(recipient=row.email, subject="s", body="b", language="es")
    delete(row)
    assert set(OutboxEmail.objects.values_list("pk", flat=True)) == {kept.pk, unlinked.pk}


@pytest.mark.parametrize("make_row", [factories.signup, factories.price_alert], ids=["signup", "price-alert"])
def test_a_mail_gets_the_link_of_its_row_as_it_is_sent(launch_content, make_row):
    row = make_row()
    queued = confirmation_mail(row)
    assert outbox.send(queued.pk) is True
    [message] = mail.outbox
    assert LINK_PLACEHOLDER not in message.body
    token = message.body.rsplit("/", 2)[-2]
    row.refresh_from_db()
    assert row.confirmation_token_hash == token_hash(token)
    if make_row is factories.signup:
        assert CONFIRM_LINK.search(message.body)
    # The outbox never holds the link: the stored body keeps the placeholder.
    assert OutboxEmail.objects.get(pk=queued.pk).body == f"Confirm: {LINK_PLACEHOLDER}"
