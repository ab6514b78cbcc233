"""Make every cached page fresh on every app server (caching.content_version): after a database restore, the
shared cache (Redis, kept apart from the database) may hold pages of data newer than the restored one."""
from django.core.management.base import BaseCommand, CommandError

from caching.content_version import bump_content_version


class Command(BaseCommand):
    help = "Bump the content version: every cached page is rendered again from the database."

    def handle(self, **options):
        version = bump_content_version()
        if version is None:
            raise CommandError("The shared cache is unavailable: run this again once it answers.")
        self.stdout.write(f"Content version {version}.")
