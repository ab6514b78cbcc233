"""Provider applications: stored with their consent evidence, acknowledged by mail in one transaction."""
from django.db import transaction

from . import mails
from .models import ProviderApplication


@transaction.atomic
def apply(*, consent, language, **answers):
    application = ProviderApplication.objects.create(language=language, **answers, **consent)
    mails.queue_provider_acknowledgement(application)
    return application
