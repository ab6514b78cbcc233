"""The WSGI application gunicorn serves (``everx.wsgi:application``, scripts/start-production.sh), with the
development settings unless DJANGO_SETTINGS_MODULE names others. The web server's queries are bounded here, and only
here: no management command loads this module (serving/database_limits.py, decision 30)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'everx.settings.local')

application = get_wsgi_application()

from serving.database_limits import limit_web_queries  # noqa: E402 (Django set up first)

limit_web_queries()
