"""What the logs may say about a request: the client's network, never its full address, and the path
with any secret in it replaced by a placeholder (a confirmation link's token, an unsubscribe link's key).
No query string, no Referer (a page opened from a confirmation link sends that link as its Referer), no
other header. Pure functions, without Django: gunicorn's access log (``gunicorn.conf.py``) and Django's
request log (``signups/log_redaction.py``) both use them, each with the secret paths the site has."""
import ipaddress
import re
from urllib.parse import urlsplit

PLACEHOLDER = "…"
# An IPv4 address is logged as its /24, an IPv6 address as its /48: the network, not the subscriber.
IPV4_PREFIX = 24
IPV6_PREFIX = 48
# The atoms of gunicorn's access log format that say nothing about who asked or what secret they held:
# method, protocol, status, size, time, duration, process and user agent.
SAFE_ATOMS = ("l", "t", "s", "m", "H", "b", "B", "a", "T", "D", "M", "L", "p")


def shortened_address(address):
    """``203.0.113.45`` → ``203.0.113.0``, ``2001:db8:1234:5678::1`` → ``2001:db8:1234::``; anything
    that is not an IP address (a unix socket's peer) → ``-``."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return "-"
    if ip.version == 6 and ip.ipv4_mapped:
        ip = ip.ipv4_mapped
    prefix = IPV4_PREFIX if ip.version == 4 else IPV6_PREFIX
    return str(ipaddress.ip_network((ip, prefix), strict=False).network_address)


def secret_prefix(path, secret_prefixes):
    """The prefix of ``secret_prefixes`` that ``path`` starts with (repeated slashes counted as one),
    or None."""
    path = re.sub("/{2,}", "/", path)
    return next((prefix for prefix in secret_prefixes if path.startswith(prefix)), None)


def redacted_path(path, secret_prefixes):
    """``path`` with everything after a secret path's prefix replaced: ``/es/registro/confirmar/…/``."""
    prefix = secret_prefix(path, secret_prefixes)
    return path if prefix is None else f"{prefix}{PLACEHOLDER}/"


def redacted_atoms(atoms, secret_prefixes):
    """gunicorn's access log atoms (``glogging.Logger.atoms``) with only what may be logged: the client's
    network, the request line with its path redacted and its query string dropped, and ``SAFE_ATOMS``.
    Every other atom (headers, environment) is left out; gunicorn logs ``-`` for an atom that is missing."""
    decoded_path = atoms.get("U") or "/"
    raw_path = urlsplit(atoms.get("{raw_uri}e") or decoded_path).path or decoded_path
    # The raw path is logged as the client sent it (percent-encoding included), unless it, or the decoded
    # path that Django routes, is a secret one.
    path = next((redacted_path(candidate, secret_prefixes) for candidate in (decoded_path, raw_path)
                 if secret_prefix(candidate, secret_prefixes)), raw_path)
    return {
        **{key: atoms[key] for key in SAFE_ATOMS if key in atoms},
        "h": shortened_address(atoms.get("h", "")),
        "u": "-",
        "r": f"{atoms.get('m', '-')} {path} {atoms.get('H', '-')}",
        "U": path,
        "q": "",
        "f": "-",
    }
