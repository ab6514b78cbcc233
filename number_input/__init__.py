"""Numbers as visitors type them, read in their language's format (``reading``): pure, no Django. The lowest layer:
``core.formatting`` formats in the same regional locales, ``core.number_fields`` builds the form fields on it."""
