"""The landing page's content, loaded once per content version in each process, as ``workloads.snapshot``
keeps the workload content: a home page missing from the page cache then renders without a query, and the
first render after an editor's change (to the text or to a featured GPU's price) reloads it (6 queries,
however many GPUs are featured).

Model instances in the snapshot are shared by every request of the process: read them, never change them."""
from dataclasses import dataclass

from django.db.models import Prefetch

from core.per_version import PerContentVersion

from .models import FeaturedGPU, LandingPage


@dataclass(frozen=True)
class LandingContent:
    version: int
    page: LandingPage | None

    def priced_gpus(self):
        """The featured GPUs that have a live price, in the editors' order."""
        if self.page is None:
            return []
        return [featured.gpu for featured in self.page.featured_gpus.all()
                if featured.gpu.price_usd_per_hour is not None]


def load(version):
    page = LandingPage.objects.filter(key=LandingPage.Key.HOME).prefetch_related(
        "renter_steps", "provider_steps", "facts", "faqs",
        Prefetch("featured_gpus", queryset=FeaturedGPU.objects.select_related("gpu")),
    ).first()
    return LandingContent(version=version, page=page)


# The snapshot of the current content version, loaded now if this process has not got it yet.
landing_content = PerContentVersion(load)
