"""Where a form's mail was asked from, so that no client can spend everyone's confirmations: the client's network
(``core.client_ip.client_network``: an IPv4 address, an IPv6 /64) as a keyed hash (``pseudonyms``), never the
address itself.

The form's view runs its save inside ``requested_from(origin)``; a request stored for the mail worker notes its
origin beside it (``note``: a ``RequestOrigin`` row), and the worker applies it inside ``requested_from`` again
(``of``). Every mail ``outbox.queue`` stores meanwhile is a form's mail to an address not confirmed (a
confirmation, a "limit reached", an acknowledgement): it carries the origin and is capped (``outbox.send_due``:
at most OUTBOX_UNCONFIRMED_MAILS_PER_HOUR an hour, OUTBOX_UNCONFIRMED_SHARE_PERCENT of them per origin; beyond,
mail waits, never dropped)."""
import contextlib
import contextvars

from django.contrib.contenttypes.models import ContentType
from django.db.models.signals import post_delete

from . import pseudonyms
from .models import RequestOrigin

_current = contextvars.ContextVar("optin_request_origin", default=None)


def origin_of_network(network):
    """The origin of a client network (``client_network``); "" for none (still capped, as one origin)."""
    return pseudonyms.client_address_hash(network or "")


@contextlib.contextmanager
def requested_from(origin):
    token = _current.set(origin)
    try:
        yield
    finally:
        _current.reset(token)


def current():
    """The origin of the form request being saved or applied, or None outside one."""
    return _current.get()


def note(row):
    """Keep the current origin beside ``row`` (a request the worker applies later), in the caller's transaction."""
    origin = current()
    if origin is not None:
        RequestOrigin.objects.create(content_type=ContentType.objects.get_for_model(row), object_id=row.pk,
                                     origin=origin)


def of(row):
    """The origin noted for ``row`` ("" when none was: a request stored before origins were kept); deleting the row
    deletes it (``register_request_model``)."""
    found = RequestOrigin.objects.filter(content_type=ContentType.objects.get_for_model(row), object_id=row.pk)
    return next(iter(found.values_list("origin", flat=True)), "")


def forget_deleted(sender, instance, **kwargs):
    RequestOrigin.objects.filter(content_type=ContentType.objects.get_for_model(sender),
                                 object_id=instance.pk).delete()


def register_request_model(model):
    """Called from the ``AppConfig.ready()`` of an app whose ``model`` holds requests the worker applies: deleting
    one (applied, erased) deletes its origin."""
    post_delete.connect(forget_deleted, sender=model, dispatch_uid=f"optin-request-origin-{model._meta.label}")
