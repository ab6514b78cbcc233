"""The double opt-in token: random, mailed once, stored only as a hash."""
import base64
import hashlib
import secrets

from django.utils.crypto import salted_hmac

# 32 random bytes: 43 URL-safe characters.
TOKEN_BYTES = 32
# Longer than any token we issue; anything longer is not worth hashing.
MAX_TOKEN_LENGTH = 64


def new_token():
    return secrets.token_urlsafe(TOKEN_BYTES)


def derived_token(salt, value):
    """A token as random to anyone without SECRET_KEY as ``new_token``'s, yet made again the same from ``value``
    (an outbox mail's identity: ``outbox.link_token``), so a mail sent twice carries one link."""
    digest = salted_hmac(salt, value, algorithm="sha256").digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def token_hash(token):
    """SHA-256 is enough: the token has 256 random bits, so there is nothing to guess from its hash."""
    return hashlib.sha256(token.encode()).hexdigest()
