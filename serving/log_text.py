"""What any log line may say (issue 48): no full IP address (its network instead, as the access log writes it:
``serving.access_log.shortened_address``) and no mail address (its domain only), and one line for a request with
a bad Host header instead of a traceback. ``RedactingFilter`` does it to every record the site's log handler
writes (the LOGGING setting): Django's request and security logs, the mail worker's, the apps' own."""
import ipaddress
import logging
import re

from .access_log import PLACEHOLDER, shortened_address

# Wide on purpose: what looks like an address is redacted, whether or not it is one.
MAIL_ADDRESS = re.compile(r"""(?:"[^"\n]*"|[^\s@<>()\[\],;:'"/=?&]+)@([A-Za-z0-9\u00a0-\uffff.-]+\.[A-Za-z0-9-]{2,})""")
# Candidates only, in one pass (an IPv6 address may end in an IPv4 one): each is kept unless ipaddress reads it.
IP_CANDIDATE = re.compile(r"(?<![0-9A-Fa-f:.])[0-9A-Fa-f:]*:[0-9A-Fa-f:]*:[0-9A-Fa-f:.]*(?![0-9A-Fa-f:])"
                          r"|(?<![\d.])(?:\d{1,3}\.){3}\d{1,3}(?![\d.])")
# Loggers whose records are one line, their traceback left out: what they log is the client's doing.
ONE_LINE_LOGGERS = ("django.security",)


def shortened_ip(match):
    text = match.group(0)
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return text
    return shortened_address(text) + "/…"


def redacted_text(text):
    """``text`` with every mail address as ``…@domain`` and every IP address as its network."""
    text = MAIL_ADDRESS.sub(lambda match: f"{PLACEHOLDER}@{match.group(1)}", text)
    return IP_CANDIDATE.sub(shortened_ip, text)


class RedactingFilter(logging.Filter):
    """On a handler: the record's message, and its traceback, redacted (``redacted_text``); a record of
    ``ONE_LINE_LOGGERS`` loses its traceback and any line break."""

    def filter(self, record):
        message = redacted_text(record.getMessage())
        if record.name.startswith(ONE_LINE_LOGGERS):
            record.exc_info, record.exc_text, record.stack_info = None, None, None
            message = " ".join(message.split())
        elif record.exc_info:
            record.exc_text = redacted_text(logging.Formatter().formatException(record.exc_info))
            record.exc_info = None
        record.msg, record.args = message, ()
        return True
