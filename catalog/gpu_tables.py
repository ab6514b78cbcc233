"""Tables of GPUs published by the apps above the catalogue (the workload pages), as the catalogue's own
pages use them: a GPU's page shows its row of every table that lists it, and the comparison offers a table's
first GPUs and its sizing columns.

The catalogue may not import those apps (imports only point down), so each app that publishes such tables
registers a provider here from its ``AppConfig.ready()``; the catalogue reads them through ``published``."""
from dataclasses import dataclass


@dataclass(frozen=True)
class GPUTable:
    key: str  # stable in every language: the comparison's query names it
    title: str
    path: str  # its page
    gpu_ids: tuple  # the GPUs it lists, in its order
    columns: tuple  # (heading, a column of ``catalog.columns``), in its order

    @property
    def sizing_columns(self):
        return tuple((heading, column) for heading, column in self.columns if column.is_sizing)


_providers = []


def register(provider):
    """Add ``provider``: a function of a language code that returns the tables published in that language
    (the active one), as GPUTables, in the order pages list them."""
    if provider not in _providers:
        _providers.append(provider)


def published(language):
    """Every registered provider's tables published in ``language`` (the active one)."""
    return [table for provider in _providers for table in provider(language)]
