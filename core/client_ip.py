"""The visitor's IP address, for rate limits and login throttling."""
import ipaddress

from django.conf import settings


def client_ip(request):
    """REMOTE_ADDR, or, behind trusted proxies, the address the nearest of them saw.

    With TRUSTED_PROXY_COUNT = n, the n-th address from the right of X-Forwarded-For is the client
    as seen by our outermost proxy; anything further left was written by the client and is not trusted."""
    proxies = settings.TRUSTED_PROXY_COUNT
    if proxies:
        forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
        if len(forwarded) >= proxies:
            return forwarded[-proxies]
    return request.META.get("REMOTE_ADDR", "")


def client_network(request):
    """The client as limits count it: an IPv6 address's /64 network, written as its first address (one
    subscriber is routinely handed a whole /64), an IPv4 address as it is; None for what is no address."""
    try:
        ip = ipaddress.ip_address(client_ip(request))
    except ValueError:
        return None
    if ip.version == 6:
        return str(ip.ipv4_mapped or ipaddress.IPv6Network((ip, 64), strict=False).network_address)
    return str(ip)
