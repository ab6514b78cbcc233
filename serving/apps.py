from django.apps import AppConfig


class ServingConfig(AppConfig):
    """What the app server needs beside the pages: gunicorn's worker that reads whole requests before a thread sees
    them, the access log and the redaction of every log line, and /healthz."""

    name = "serving"
