"""Keyed hashes of personal data: the erasure log's address, the rate limit's client address, the mail
budget's mailbox and the consent evidence's address.

A plain SHA-256 of an email or IP address is no protection: anyone can hash a list of addresses (or all
4 billion IPv4 addresses) and compare. An HMAC keyed with a secret only this site holds cannot be
recomputed without the secret, yet still lets the site recognise the same address again: pseudonymous
data (GDPR Art. 4(5)), not anonymous. The key is derived from SECRET_KEY with Django's ``salted_hmac``
and a salt per purpose, so there is no second secret to manage and a hash made for one purpose cannot
be matched against another's. A lookup also tries SECRET_KEY_FALLBACKS, so rotating SECRET_KEY (with
the old key kept as a fallback) keeps older hashes findable."""
import hashlib

from django.conf import settings
from django.utils.crypto import salted_hmac

# Named after the module's first home (``signups``): a new salt would make every stored hash unfindable.
ERASURE_SALT = "signups.pseudonyms.erasure-log-email"
CLIENT_ADDRESS_SALT = "signups.pseudonyms.rate-limit-client-address"
MAILBOX_SALT = "signups.pseudonyms.mail-budget-mailbox"
CONSENT_ADDRESS_SALT = "optin.pseudonyms.consent-evidence-address"


def keyed_hash(value, salt, secret=None):
    """HMAC-SHA256 of ``value`` under SECRET_KEY (or ``secret``) and ``salt``, as 64 hex digits."""
    return salted_hmac(salt, value, secret=secret, algorithm="sha256").hexdigest()


def erasure_hash(address_key, secret=None):
    """The erasure log's hash of an address (``addresses.key``): the HMAC of the address's SHA-256, so
    that the rows logged before the hashes were keyed (plain SHA-256) could be keyed in place
    (``signups`` migration 0005)."""
    return keyed_hash(hashlib.sha256(address_key.encode()).hexdigest(), ERASURE_SALT, secret)


def erasure_hashes(address_key):
    """Every form an erasure of ``address_key`` may have been logged under: SECRET_KEY's and each of
    SECRET_KEY_FALLBACKS'."""
    secrets = (settings.SECRET_KEY, *settings.SECRET_KEY_FALLBACKS)
    return [erasure_hash(address_key, secret) for secret in secrets]


def client_address_hash(address):
    """The rate limit's name for a client address in the shared cache."""
    return keyed_hash(address, CLIENT_ADDRESS_SALT)[:32]


def mailbox_hash(address_key):
    """The mail budget's name for a mailbox (``addresses.key``): one hash however the address is spelt."""
    return keyed_hash(address_key, MAILBOX_SALT)


def consent_address_hash(address_key, secret=None):
    """The consent evidence's name for an address (``addresses.key``): the record proves a consent for that
    mailbox without holding it (``consent_records.py``)."""
    return keyed_hash(address_key, CONSENT_ADDRESS_SALT, secret)


def consent_address_hashes(address_key):
    """Every form a consent record of ``address_key`` may hold: under SECRET_KEY and each of
    SECRET_KEY_FALLBACKS."""
    secrets = (settings.SECRET_KEY, *settings.SECRET_KEY_FALLBACKS)
    return [consent_address_hash(address_key, secret) for secret in secrets]
