"""A GPU's peaks as the estimator uses them: the vendor's per-GPU figure, or where the vendor publishes only a
system figure (HGX B200/B300), that figure ÷ the system's GPUs, marked as derived. Pure: no Django."""
from core.exact_numbers import exact


def published_or_derived(gpu, name):
    """(value, derived) of a spec: the published per-GPU figure first, then the derived one; (None, False)."""
    value = getattr(gpu, name, None)
    if value is not None:
        return exact(value), False
    derived = getattr(gpu, f"{name}_derived", None)
    if derived is not None:
        return exact(derived), True
    return None, False


def bf16_peak(gpu):
    """Dense BF16 tensor TFLOPS."""
    return published_or_derived(gpu, "bf16_dense_tflops")


def bandwidth_peak(gpu):
    """Memory bandwidth in GB/s."""
    return published_or_derived(gpu, "bandwidth_gbs")
