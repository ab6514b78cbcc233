from django.conf import settings
from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.contrib.sitemaps.views import sitemap
from django.urls import include, path

from caching.pages import cached_page
from catalog.sitemaps import CatalogSitemap
from company.sitemaps import LegalPagesSitemap
from core.social_image import social_image
from core.views import robots_txt
from estimator.sitemaps import EstimatorSitemap
from open_data.sitemaps import OpenDataSitemap, robots_paths
from providers.sitemaps import ProvidersSitemap
from serving.health import healthz
from storefront.sitemaps import HomeSitemap
from storefront.views import home
from workloads import views as workload_views
from workloads.sitemaps import WorkloadsSitemap

# Every public page, by the app that owns it, in this order: /sitemap.xml lists them (Django's view and template,
# cached as a page) and the forms accept them as the page a visitor came from (``core.sitemaps.public_pages``).
SITEMAPS = {
    "legal": LegalPagesSitemap, "catalog": CatalogSitemap, "open_data": OpenDataSitemap,
    "estimator": EstimatorSitemap, "workloads": WorkloadsSitemap, "providers": ProvidersSitemap, "home": HomeSitemap,
}

# Outside the language prefixes: health, the sitemap, the open data files and the admin. Everything a
# visitor reads is inside.
urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("sitemap.xml", cached_page(sitemap), {"sitemaps": SITEMAPS, "content_type": "application/xml"},
         name="sitemap"),
    path("robots.txt", robots_txt, {"allowed_paths": robots_paths}, name="robots_txt"),
    path("social/<str:token>.png", social_image, name="social_image"),
    path("data/", include("open_data.feed_urls")),
    path("data/", include("estimator.estimate_files")),
    path(settings.ADMIN_URL, admin.site.urls),
]
urlpatterns += i18n_patterns(
    path("", home, name="home"),
    path("", include("catalog.urls")),
    path("", include("open_data.urls")),
    path("", include("estimator.urls")),
    path("", include("company.urls")),
    path("", include("signups.urls")),
    path("", include("providers.urls")),
    path("", include("alerts.urls")),
    # Workload slugs are translated model fields, so this pattern comes last.
    path("<slug:slug>/", workload_views.workload_detail, name="workload"),
)

handler404 = "core.views.page_not_found"
handler400 = "core.errors.bad_request"
handler403 = "core.errors.permission_denied"
handler500 = "core.errors.server_error"
