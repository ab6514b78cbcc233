"""The site's chart drawers: pure SVG geometry (``bar_chart``, ``scatter_chart``, ``step_chart``, ``rank_chart``,
``cost_chart``) on the drawing every chart shares (``text``: its width, its text size, how wide a text is).

A layer beside ``core``, below every app: a drawer is fed plain data (names, exact values, texts already written in
the page's language) and returns whole-number coordinates for a template to write into SVG attributes. No Django,
no models: the app that owns the data reads and formats it, then calls the drawer (``catalog.gpu_ranking``,
``catalog.gpu_price_chart``, ``catalog.comparison``, ``workloads.charts``, ``estimator.texts``)."""
