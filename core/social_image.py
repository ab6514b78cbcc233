"""Per-page social images (Open Graph, Twitter cards): a PNG with the page's title, made on request.

The URL carries the title and the page's path without its query string, signed with the site's secret: only
titles and paths the site wrote are drawn, a finite set (a page's query string, which a visitor chooses,
never makes a new image). A drawing takes tens of milliseconds: each is kept in the pages' space of the
shared cache (``caching.pages``, bounded in bytes and emptied with each content version) and in the
process's memory cache, under the title, path and this module's own digest (a change to the drawing draws
every image anew). An image is drawn only when the pages' space has room to keep it: past the bound (or with
the shared cache unavailable), the site's generic image is served, drawn once per process."""
import functools
import hashlib
import io
import textwrap
from pathlib import Path

from django.conf import settings
from django.core import signing
from django.http import Http404, HttpResponse
from django.urls import reverse
from PIL import Image, ImageDraw, ImageFont

from caching.pages import cached_entry, has_room, page_generation, store_entry
from caching.shared import CacheUnavailable

SALT = "social-image"
SIZE = (1200, 630)
FONTS = Path(__file__).resolve().parent / "fonts"
# The dark scheme's colours of static/css/site.css.
BACKGROUND, INK, ACCENT, MARK_INK = "#0f1720", "#e6edf3", "#72b4f7", "#06111c"


def signer():
    # No timestamp in the token (signing.dumps would add one): the same page gets the same URL every time,
    # so its rendered bytes do not change from one second to the next, and the image stays cached.
    return signing.Signer(salt=SALT)


def social_image_url(title, path):
    """The image of the page at ``path``: its title drawn, the path (without its query string) making the URL
    the page's own."""
    return reverse("social_image", kwargs={"token": signed_token(str(title), page_path(path), settings.SECRET_KEY)})


def page_path(path):
    return path.split("?", 1)[0]


@functools.lru_cache(maxsize=4096)
def signed_token(title, path, _secret):
    """The signed title and path an image's URL carries: an HMAC, the same for the same title, path and secret (the
    memo's key), which every page would otherwise compute on every render."""
    return signer().sign_object([title, path], compress=True)


def draw_brand(canvas, left, top, scale):
    """The brand mark of templates/includes/brand_mark.html (a 32-unit tile with pins and an X), then the
    wordmark with its X in the accent colour."""
    def at(x, y):
        return left + x * scale, top + y * scale

    canvas.rounded_rectangle([at(1, 1), at(31, 31)], radius=8 * scale, fill=ACCENT)
    for x in (9, 16, 23):
        canvas.line([at(x, -1), at(x, 4)], fill=ACCENT, width=round(2 * scale))
        canvas.line([at(x, 28), at(x, 33)], fill=ACCENT, width=round(2 * scale))
    for start, end in (((10.5, 10.5), (21.5, 21.5)), ((21.5, 10.5), (10.5, 21.5))):
        canvas.line([at(*start), at(*end)], fill=MARK_INK, width=round(3.5 * scale))
    font = ImageFont.truetype(str(FONTS / "DejaVuSans-Bold-Latin.ttf"), round(22 * scale))
    x, baseline = left + 40 * scale, top + 16 * scale
    for part, colour in (("Ever", INK), ("X", ACCENT), ("Cloud", INK)):
        canvas.text((x, baseline), part, font=font, fill=colour, anchor="lm")
        x += canvas.textlength(part, font=font)


def draw(title):
    image = Image.new("RGB", SIZE, BACKGROUND)
    canvas = ImageDraw.Draw(image)
    heading = ImageFont.truetype(str(FONTS / "DejaVuSans-Bold-Latin.ttf"), 64)
    draw_brand(canvas, 80, 60, 2)
    lines = textwrap.wrap(title, width=30)[:5]
    top = 200 if len(lines) <= 3 else 170
    for number, line in enumerate(lines):
        canvas.text((80, top + number * 84), line, font=heading, fill=INK)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


DRAWING_DIGEST = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16]
CACHE_SECONDS = 7 * 24 * 3600


# Room the pages' space must have left before an image is drawn: above any drawing's stored size (a title of five
# lines is about 40 KB of PNG, 55 KB as the database cache stores it).
IMAGE_ROOM_BYTES = 64 * 1024


def image_key(title, path):
    digest = hashlib.sha256(f"{DRAWING_DIGEST}\x00{title}\x00{path}".encode()).hexdigest()
    return f"page:{page_generation()}:social-image:{digest}"


@functools.lru_cache(maxsize=1)
def generic_image():
    """The site's own image, for a page whose image the cache has no room for: drawn once per process."""
    return draw("EverXCloud")


def drawn(title, path):
    """The PNG of ``title`` (the page at ``path``) and whether it is the page's own: from the page cache, or drawn and
    kept there when the pages' space has room for it; else the generic image."""
    key = image_key(title, path)
    entry = cached_entry(key)
    if entry is not None:
        return entry["body"], True
    try:
        room = has_room(key.split(":", 2)[1], IMAGE_ROOM_BYTES)
    except CacheUnavailable:
        room = False
    if not room:
        return generic_image(), False
    png = draw(title)
    store_entry(key, {"body": png, "gzip_body": None, "content_type": "image/png",
                      "etag": f'"{hashlib.sha256(png).hexdigest()[:40]}"'})
    return png, True


def read_token(token):
    if token.count(":") == 2:
        # payload:timestamp:signature, made before tokens lost their timestamp (signing.dumps), and maybe
        # still in a page cached under this content version.
        return signing.loads(token, salt=SALT)
    return signer().unsign_object(token)


def social_image(request, token):
    try:
        title, path = read_token(token)
    except (signing.BadSignature, ValueError):
        raise Http404 from None
    # A token made before paths lost their query string has the page's own image all the same.
    png, own = drawn(str(title)[:200], page_path(str(path)))
    response = HttpResponse(png, content_type="image/png")
    # The URL is derived from the image's content: it never changes. The generic image stands in for a while.
    response["Cache-Control"] = "public, max-age=31536000, immutable" if own else "public, max-age=300"
    return response
