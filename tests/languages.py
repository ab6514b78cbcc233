"""The site's languages for the tests, derived from settings.LANGUAGES like every list in the code: adding a
language to the settings adds it to every test that walks the languages."""
from django.conf import settings

LANGUAGES = [code for code, _name in settings.LANGUAGES]
# The languages interface strings are translated into: all but the source language (settings.LANGUAGE_CODE).
TRANSLATED = [code for code in LANGUAGES if code != settings.LANGUAGE_CODE]
