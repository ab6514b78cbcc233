from django.core.management.base import BaseCommand

from staff.editor_role import ensure_editor_group


class Command(BaseCommand):
    help = "Create or update the Editors group (every content permission, no user management). Runs after migrate too."

    def handle(self, *args, **options):
        group = ensure_editor_group()
        self.stdout.write(f"{group.name}: {group.permissions.count()} permissions.")
