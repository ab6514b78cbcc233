"""schema.org data for a GPU page: a Product with an Offer (hourly price in USD)."""
from core.pages import absolute_url
from core.social_image import social_image_url


def gpu_product(request, gpu, title):
    product = {
        "@context": "https://schema.org",
        "@type": "Product",
        "name": f"{gpu.vendor} {gpu.name}",
        "brand": {"@type": "Brand", "name": gpu.vendor},
        "category": "GPU",
        "sku": gpu.slug,
        "image": absolute_url(social_image_url(title, gpu.get_absolute_url())),
        "description": (
            f"{gpu.vendor} {gpu.name}, {gpu.architecture}, {gpu.memory_gb.normalize():f} GB {gpu.memory_type}"
        ).strip(),
    }
    if gpu.price_usd_per_hour is not None:
        offer = {
            "@type": "Offer",
            "url": absolute_url(gpu.get_absolute_url()),
            "price": f"{gpu.price_usd_per_hour:.2f}",
            "priceCurrency": "USD",
            "availability": "https://schema.org/InStock",
            "priceSpecification": {
                "@type": "UnitPriceSpecification", "price": f"{gpu.price_usd_per_hour:.2f}", "priceCurrency": "USD",
                "unitCode": "HUR", "referenceQuantity": {"@type": "QuantitativeValue", "value": 1, "unitCode": "HUR"},
            },
        }
        product["offers"] = offer
    return product
