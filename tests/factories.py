"""Rows for tests (issue 49): one builder per model, which fills every required field with the value most tests
use and returns the saved row; keyword arguments override any field. Emails and slugs differ per call unless
given. A row that consents (signup, waitlist request, alert, application) gets ``consent(...)`` in its language.
A builder whose row needs another (an alert's GPU, an offered GPU's application) makes a new one unless given."""
from decimal import Decimal
from itertools import count

from django.utils import timezone

from alerts.models import PriceAlert
from catalog.models import GPU, PricePoint
from optin.models import OutboxEmail
from providers.models import OfferedGPU, ProviderApplication
from signups.models import Signup, WaitlistRequest

_numbers = count(1)


def consent(version, language="es"):
    """The evidence a form stores with a consent: the text's version, the privacy policy's, language and page."""
    return {"consent_text_version": version, "privacy_policy_version": "1.0", "consent_language": language,
            "source_path": f"/{language}/"}


def _row(model, fields, consent_version=None, **defaults):
    values = {**defaults, **fields}
    if consent_version:
        values = {**consent(consent_version, values["language"]), **values}
    return model.objects.create(**values)


def _address(kind):
    return f"{kind}-{next(_numbers)}@example.com"


def signup(**fields):
    """A renter on the launch list, not confirmed unless ``confirmed_at`` is given."""
    return _row(Signup, fields, "renter-1", email=_address("renter"), currency="EUR", language="es")


def waitlist_request(**fields):
    """A waitlist form waiting for the mail worker."""
    return _row(WaitlistRequest, fields, "renter-1", email=_address("waiting"), currency="EUR", language="es")


def outbox_email(**fields):
    """A mail waiting to be sent, about no row."""
    return _row(OutboxEmail, fields, recipient=_address("mail"), subject="s", body="b", language="es")


def gpu(**fields):
    """A catalogue GPU of the vendor "Test", without a price unless given."""
    number = next(_numbers)
    return _row(GPU, fields, slug=f"test-gpu-{number}", vendor="Test", name=f"Test GPU {number}",
                architecture="Test", memory_gb=Decimal(80))


def price_alert(**fields):
    """An alert on ``gpu=`` (a new GPU unless given), not confirmed unless ``confirmed_at`` is given."""
    if "gpu" not in fields:
        fields["gpu"] = gpu()
    return _row(PriceAlert, fields, "price-alert-2", email=_address("alert"), target_usd_per_hour=Decimal("1.00"),
                language="es")


def price_point(**fields):
    """A price of ``gpu=`` (a new GPU unless given), imported now; by default the GPU's own price."""
    if "gpu" not in fields:
        fields["gpu"] = gpu(price_usd_per_hour=Decimal("1.00"))
    return _row(PricePoint, fields, usd_per_hour=fields["gpu"].price_usd_per_hour, time=timezone.now(),
                source=PricePoint.Source.IMPORT)


def provider_application(**fields):
    """A provider's application, status new, without GPU rows (``offered_gpu``)."""
    return _row(ProviderApplication, fields, "provider-2", company="Cómputo Ibérico S.L.", contact_name="Marta Ruiz",
                email=_address("provider"), country="ES", language="es")


def offered_gpu(**fields):
    """A row of ``application=`` (a new one unless given): the catalogue's ``gpu=`` if given, else one by name."""
    if "application" not in fields:
        fields["application"] = provider_application()
    name = fields["gpu"].name if fields.get("gpu") else "MI250X"
    return _row(OfferedGPU, fields, name=name, count=8, location="Berlin")
