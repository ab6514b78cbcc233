"""CSV cells a spreadsheet shows as text, never runs as a formula (OWASP, "CSV Injection"): every CSV the site
writes (the open data file, the admin's exports) passes its cells through ``spreadsheet_safe``.

A text cell that starts with =, +, -, @, a tab or a carriage return gets a single quote in front, which
spreadsheets read as "this is text" (an editor's GPU name "=HYPERLINK(…)" or a visitor's "@SUM(…)" stays
text). Numbers (int, Decimal, float, Fraction) are written as they are: their text is digits, a sign and a
point, which no spreadsheet runs, so "-1.5" stays a number. A number that arrives as text ("-1.5" typed into a
field) is text and is quoted: only the value's type, never its look, decides."""
from numbers import Number

FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value):
    """The cell for ``value``: "" for None, a number unchanged, any other value as text, quoted if a spreadsheet
    would read it as a formula."""
    if value is None:
        return ""
    if isinstance(value, Number) and not isinstance(value, bool):
        return value
    text = str(value)
    return "'" + text if text.startswith(FORMULA_TRIGGERS) else text
