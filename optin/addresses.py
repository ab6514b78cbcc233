"""Email addresses as the signup forms store and compare them: one mailbox, one form.

``normalize`` is applied before anything is stored or looked up (forms, erasure, the admin's search, the
data migration):
- the domain is NFKC-normalized and case-folded, then IDNA-encoded: ``BÜCHER.example``,
  ``ｂüｃｈｅｒ．example`` and ``xn--bcher-kva.example`` are one domain, stored as the last;
- the local part (before the @) is NFKC-normalized, which turns full-width letters into ASCII ones.

The local part's case is kept for delivery but ignored for comparison (``key``; the database compares
``Lower(email)``, see ``models.py``). RFC 5321 lets a mail server treat ``Ana`` and ``ana`` as two mailboxes,
so we send to the case as typed; but it also says that exploiting that "impedes interoperability and is
discouraged", and common mail servers and providers ignore the case; treating them as two people would
give one mailbox several signups, several confirmation mails, and an erasure that misses some of them.

A local part that is not ASCII after NFKC is refused (``validate_deliverable``): delivering to it needs
SMTPUTF8, which neither our mail path (Django's SMTP backend) nor many servers support, and such
characters are how look-alikes get in (``İ`` passes Django's own validator). So is a domain we cannot
or should not mail: no dot (``localhost``), an IP literal, or a special-use top-level domain
(RFC 2606, 6761, 6762, 7686, 9476 and ICANN's ``.internal``). ``SIGNUP_ALLOWED_RESERVED_TLDS`` lets the
tests use ``.example``."""
import contextlib
import re
import unicodedata

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

# Top-level domains that never reach a public mailbox.
RESERVED_TLDS = frozenset({
    "example", "invalid", "localhost", "test",  # RFC 2606, RFC 6761
    "local",  # RFC 6762, multicast DNS
    "onion",  # RFC 7686
    "alt",  # RFC 9476
    "arpa",  # infrastructure, and home.arpa (RFC 8375)
    "internal",  # reserved by ICANN for private networks (2024)
})

RESERVED_DOMAIN_MESSAGE = _(
    "Enter an address at a public domain, such as name@company.com: we cannot send mail to local, "
    "private or reserved addresses."
)
LOCAL_PART_MESSAGE = _(
    "The part before the @ can only contain letters without accents, digits and characters such as "
    ". _ - +: we cannot send mail to addresses with other characters."
)


def normalize_domain(domain):
    """The IDNA (ASCII) form of ``domain``; UnicodeError if it cannot be one."""
    domain = unicodedata.normalize("NFKC", domain).casefold()
    # A final dot is DNS's root: "example.com." is "example.com".
    if domain.endswith(".") and not domain.endswith(".."):
        domain = domain[:-1]
    if domain.startswith("[") and domain.endswith("]"):  # an address literal, left for the validators
        return domain
    ascii_domain = domain.encode("idna").decode("ascii")
    # Decoding checks the labels already in ACE form ("xn--…") are valid punycode.
    ascii_domain.encode("ascii").decode("idna")
    return ascii_domain


def normalize(address):
    """``address`` as stored and compared; returned unchanged (stripped) when it is no address at all, so
    the form's validators name the problem."""
    address = address.strip()
    local, at, domain = address.rpartition("@")
    if not at or not local or not domain:
        return address
    local = unicodedata.normalize("NFKC", local)
    with contextlib.suppress(UnicodeError):  # no valid domain: the form's validators say so
        domain = normalize_domain(domain)
    return f"{local}@{domain}"


# Characters of an unquoted local part (RFC 5322 atext), in dot-separated atoms.
DOT_ATOM = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*\Z")
QUOTED_PAIR = re.compile(r"\\(.)")
# One mailbox at Google under either domain; Gmail ignores the dots of the local part and what follows a "+".
GMAIL_DOMAINS = frozenset({"gmail.com", "googlemail.com"})
GMAIL_DOMAIN = "gmail.com"


def unquoted(local):
    """The content of a quoted local part (``"ana"`` → ``ana``, quoted pairs resolved), or None if it is not one."""
    if len(local) >= 2 and local.startswith('"') and local.endswith('"'):
        return QUOTED_PAIR.sub(r"\1", local[1:-1])
    return None


def canonical_local_part(local):
    """``local`` as RFC 5321 says it is the same mailbox: a quoted string whose content could be written without
    quotes is that content (``"ana"`` is ``ana``); one that needs them keeps them, with only the escapes they
    need."""
    content = unquoted(local)
    if content is None:
        return local
    if DOT_ATOM.match(content):
        return content
    return '"' + content.replace("\\", "\\\\").replace('"', '\\"') + '"'


def gmail_local_part(local):
    """A Gmail local part as Gmail reads it: case, dots and a "+tag" ignored."""
    base = local.lower().partition("+")[0].replace(".", "")
    return base or local.lower()


def equivalent_address(address):
    """The one spelling of every address that reaches the same person for certain, as duplicate detection and
    erasure compare them (and the forms store them): ``normalize``, a quoted local part unquoted when it can be
    (RFC 5321), and at Gmail (``gmail.com``, ``googlemail.com``) the local part without dots or "+tag", at
    ``gmail.com``. A "+tag" elsewhere stays: at another provider it may be another person's mailbox. The local
    part's case stays as typed (compared ignoring case: ``key``)."""
    address = normalize(address)
    local, at, domain = address.rpartition("@")
    if not at or not local or not domain:
        return address
    local = canonical_local_part(local)
    if domain in GMAIL_DOMAINS:
        local, domain = gmail_local_part(local), GMAIL_DOMAIN
    return f"{local}@{domain}"


def mailbox_for_budget(address):
    """The mailbox a mail budget or rate limit counts: ``equivalent_address`` case-folded, and a "+tag" stripped
    at every domain (most providers deliver ``ana+anything@`` to ``ana@``; two people it might separate share
    one budget, which only delays their mail). Never stored, never used to find rows: only hashed
    (``pseudonyms.mailbox_hash``)."""
    address = equivalent_address(address)
    local, at, domain = address.rpartition("@")
    if not at or not local or not domain:
        return address.casefold()
    content = unquoted(local)
    local = (content if content is not None else local).casefold()
    base = local.partition("+")[0]
    return f"{base or local}@{domain}"


def key(address):
    """What identifies a person's mailbox: ``equivalent_address``, ignoring case (as ``Lower(email)`` does for the
    ASCII addresses the forms accept)."""
    return equivalent_address(address).lower()


def legacy_key(address):
    """What identified a mailbox before ``equivalent_address`` (the normalized spelling, ignoring case): the key
    of the hashes made before it, which lookups by address also try."""
    return normalize(address).lower()


def keys(address):
    """Every key a hash of ``address`` may have been made from, the current first."""
    return list(dict.fromkeys((key(address), legacy_key(address))))


def validate_deliverable(address):
    """A normalized address we can and may mail; ValidationError otherwise."""
    local, _at, domain = address.rpartition("@")
    if not local.isascii():
        raise ValidationError(LOCAL_PART_MESSAGE, code="local_part")
    labels = domain.split(".")
    tld = labels[-1]
    if (domain.startswith("[") or len(labels) < 2
            or (tld in RESERVED_TLDS and tld not in settings.SIGNUP_ALLOWED_RESERVED_TLDS)):
        raise ValidationError(RESERVED_DOMAIN_MESSAGE, code="reserved_domain")
