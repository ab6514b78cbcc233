"""The outbox, the mail budget and the erasure log now belong to ``optin``, price alerts to ``alerts`` (their
migrations 0001 took the models; the tables stay as they are)."""
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('signups', '0010_outbox_mail_links'),
        ('optin', '0001_models_from_signups'),
        ('alerts', '0001_price_alerts_from_signups'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[
            migrations.DeleteModel(name='MailboxMail'),
            migrations.DeleteModel(name='Mailbox'),
            migrations.DeleteModel(name='OutboxEmail'),
            migrations.DeleteModel(name='ErasureLog'),
            migrations.DeleteModel(name='PriceAlert'),
        ]),
    ]
