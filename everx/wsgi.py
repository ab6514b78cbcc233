"""The WSGI application gunicorn serves (``everx.wsgi:application``, scripts/start-production.sh), with the
development settings unless DJANGO_SETTINGS_MODULE names others."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'everx.settings.local')

application = get_wsgi_application()
