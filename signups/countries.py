"""Countries for the provider form, named in the visitor's language (CLDR through Babel), by ISO 3166 code."""
import unicodedata
from functools import lru_cache

from babel import Locale

from core.formatting import babel_locale

# CLDR territories with two-letter codes that are not ISO 3166-1 countries (groupings, outlying
# regions, private-use codes). Kosovo (XK) stays: it is in common use.
NOT_COUNTRIES = {"AC", "CP", "CQ", "DG", "EA", "EU", "EZ", "IC", "QO", "TA", "UN", "XA", "XB", "ZZ"}


def sort_key(name):
    """Alphabetical order that ignores accents: "Österreich" sorts with the O's."""
    return "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c)).casefold()


@lru_cache(maxsize=8)
def country_choices(language):
    territories = Locale.parse(babel_locale(language)).territories
    countries = [(code, name) for code, name in territories.items()
                 if len(code) == 2 and code.isalpha() and code not in NOT_COUNTRIES]
    return tuple(sorted(countries, key=lambda item: sort_key(item[1])))


def country_name(code, language):
    return dict(country_choices(language)).get(code, code)
