"""The calculator's model presets in the admin."""
from django.contrib import admin

from .models import ModelPreset


@admin.register(ModelPreset)
class ModelPresetAdmin(admin.ModelAdmin):
    list_display = ("name", "billion_params", "layers", "kv_heads", "head_dim")
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}
