"""The double opt-in token: random, mailed once, stored only as a hash."""
import hashlib
import secrets

# 32 random bytes: 43 URL-safe characters.
TOKEN_BYTES = 32
# Longer than any token we issue; anything longer is not worth hashing.
MAX_TOKEN_LENGTH = 64


def new_token():
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token):
    """SHA-256 is enough: the token has 256 random bits, so there is nothing to guess from its hash."""
    return hashlib.sha256(token.encode()).hexdigest()
