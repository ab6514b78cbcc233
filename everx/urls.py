from django.conf import settings
from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path

from core.social_image import social_image
from core.views import robots_txt
from serving.health import healthz
from storefront.sitemaps import sitemap_xml
from storefront.views import home
from workloads import views as workload_views

# Outside the language prefixes: health, the sitemap, the open data files and the admin. Everything a
# visitor reads is inside.
urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("sitemap.xml", sitemap_xml, name="sitemap"),
    path("robots.txt", robots_txt, name="robots_txt"),
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
