"""The sizing rules as the tests work them out, with Decimal and independently of ``catalog/sizing.py``:
the figures a page must show are computed here from the data files (that is the point: a slip in the
site's code cannot hide in the expectation). One copy for every test."""
from decimal import Decimal

# Bytes of GPU memory per model parameter, by sizing method.
BYTES_PER_PARAMETER = {
    "full_adam": Decimal(16), "lora_16bit": Decimal("2.5"), "qlora_4bit": Decimal(1),
    "weights_16bit": Decimal(2), "weights_8bit": Decimal(1), "weights_4bit": Decimal("0.5"),
}
# The share of a GPU's memory a model may fill; the rest is left for activations and the runtime.
USABLE_SHARE = Decimal("0.8")


def step_floor(value):
    """``value`` rounded down as the tables show a model size or a rate: to a whole number below 10, to a
    multiple of 5 below 100, else to a multiple of 10."""
    step = Decimal(1) if value < 10 else Decimal(5) if value < 100 else Decimal(10)
    return (value // step) * step
