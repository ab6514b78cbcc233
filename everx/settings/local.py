"""Development: DEBUG on, SQLite unless DATABASE_URL says otherwise, a throwaway secret."""
import os

os.environ.setdefault("DEBUG", "true")
os.environ.setdefault("SECRET_KEY", "development-only-not-secret")

from .base import *  # noqa: E402,F403
