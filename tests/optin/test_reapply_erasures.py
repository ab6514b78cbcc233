"""After a restore, the erasures made since the backup are applied again (manage.py reapply_erasures,
docs/operations.md): the backup still holds those people's rows."""
import csv
import io
from datetime import UTC, datetime

from django.core.management import call_command

from alerts.models import PriceAlert
from optin.erasure import email_hash
from optin.models import ErasureLog, OutboxEmail
from signups.models import Signup

from ..localized_urls import url_in
from ..signup_helpers import run_mail_worker, signup_data


def write_erasures(path, erasures):
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["email_hash", "erased_at"])
        writer.writerows((email_hash, erased_at.isoformat()) for email_hash, erased_at in erasures)


def test_erasures_made_after_the_backup_are_applied_again(client, launch_content, tmp_path):
    # The restored backup: two people, one of them with a price alert, and an older erasure.
    for email in ("ana@example.com", "bea@example.com"):
        client.post(url_in("es", "signups:signup"), signup_data(email=email))
    client.post(url_in("en", "alerts:price_alert", slug="h100-sxm"),
                {"email": "ana@example.com", "target": "2.50", "consent": "on"})
    run_mail_worker()
    older = ErasureLog.objects.create(email_hash=email_hash("old@example.com"))
    assert Signup.objects.count() == 2 and PriceAlert.objects.count() == 1

    # Exported before the restore: the older erasure and one made after the backup, however it was spelt.
    erased_at = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
    path = tmp_path / "erasures.csv"
    write_erasures(path, [(older.email_hash, older.erased_at), (email_hash("ANA@Example.com"), erased_at)])
    out = io.StringIO()
    call_command("reapply_erasures", str(path), stdout=out)

    assert list(Signup.objects.values_list("email", flat=True)) == ["bea@example.com"]
    assert not PriceAlert.objects.exists()
    assert not OutboxEmail.objects.filter(recipient="ana@example.com").exists()
    assert set(ErasureLog.objects.values_list("email_hash", "erased_at")) == {
        (older.email_hash, older.erased_at), (email_hash("ana@example.com"), erased_at)}
    assert "1 erasures made after the backup applied again (1 addresses held rows); 1 already" in out.getvalue()

    # Again: nothing more to do; a later signup of an erased address would be kept.
    call_command("reapply_erasures", str(path), stdout=io.StringIO())
    assert ErasureLog.objects.count() == 2 and Signup.objects.count() == 1
