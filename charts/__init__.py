"""The site's chart drawers: pure SVG geometry (``bar_chart``, ``scatter_chart``, ``step_chart``, ``rank_chart``,
``cost_chart``) on the drawing every chart shares (``text``: its width, its text size, how wide a text is).

A layer beside ``core``, below every app, and one contract for every drawer: it is fed plain data (names, exact
values: int, Decimal or Fraction, a float refused; texts the caller writes in the page's language, tick labels
included, as text or a function that writes them) and returns whole numbers in SVG user units, which a template
writes into SVG attributes the same in every language. No Django, no models: the app that owns the data reads and
formats it, then calls the drawer (``catalog.gpu_ranking``, ``catalog.gpu_price_chart``, ``catalog.comparison``,
``workloads.charts``, ``estimator.texts``)."""
