"""Sets up a staff account's second factor (staff/staff_login.py): a new TOTP device, replacing any the account
had, and prints the key and the otpauth:// URL to enter in an authenticator app (docs/operations.md).

    manage.py staff_totp USERNAME"""
import base64

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django_otp.plugins.otp_totp.models import TOTPDevice


class Command(BaseCommand):
    help = "Give a staff account a new authenticator (TOTP) key, replacing its old one, and print it."

    def add_arguments(self, parser):
        parser.add_argument("username")

    def handle(self, *args, username, **options):
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"No account is named {username!r}.")
        if not user.is_staff:
            raise CommandError(f"{username!r} is not staff: only staff log in to the admin.")
        with transaction.atomic():
            TOTPDevice.objects.filter(user=user).delete()
            device = TOTPDevice.objects.create(user=user, name="authenticator", confirmed=True)
        secret = base64.b32encode(device.bin_key).decode()
        self.stdout.write(f"Authenticator key for {username}: {secret}")
        self.stdout.write(f"Or scan this URL as a QR code: {device.config_url}")
        self.stdout.write("Any earlier key of this account no longer works.")
