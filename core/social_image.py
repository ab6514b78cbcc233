"""Per-page social images (Open Graph, Twitter cards): a PNG with the page's title, made on request.

The URL carries the title signed with the site's secret, so only titles the site wrote are drawn."""
import io
import textwrap
from pathlib import Path

from django.core import signing
from django.http import Http404, HttpResponse
from django.urls import reverse
from PIL import Image, ImageDraw, ImageFont

SALT = "social-image"
SIZE = (1200, 630)
FONTS = Path(__file__).resolve().parent / "fonts"
BACKGROUND, INK, ACCENT = "#0b2545", "#ffffff", "#8dc6ff"


def social_image_url(title, path):
    """The image of the page at ``path``: its title drawn, the path making the URL the page's own."""
    return reverse("social_image", kwargs={"token": signing.dumps([title, path], salt=SALT, compress=True)})


def draw(title):
    image = Image.new("RGB", SIZE, BACKGROUND)
    canvas = ImageDraw.Draw(image)
    brand = ImageFont.truetype(str(FONTS / "DejaVuSans-Bold-Latin.ttf"), 44)
    heading = ImageFont.truetype(str(FONTS / "DejaVuSans-Bold-Latin.ttf"), 64)
    canvas.text((80, 70), "EverXCloud", font=brand, fill=ACCENT)
    lines = textwrap.wrap(title, width=30)[:5]
    top = 200 if len(lines) <= 3 else 170
    for number, line in enumerate(lines):
        canvas.text((80, top + number * 84), line, font=heading, fill=INK)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def social_image(request, token):
    try:
        title, _path = signing.loads(token, salt=SALT)
    except (signing.BadSignature, ValueError):
        raise Http404 from None
    response = HttpResponse(draw(str(title)[:200]), content_type="image/png")
    # The URL is derived from the image's content: it never changes.
    response["Cache-Control"] = "public, max-age=31536000, immutable"
    return response
