from django import forms

from .models import GPU
from .specs import unsupported_spec_choices


class GPUAdminForm(forms.ModelForm):
    """The GPU's form (the admin gives its model and fields): "not supported" is a box per spec the registry
    lets a GPU lack."""

    unsupported_specs = forms.MultipleChoiceField(
        label=GPU._meta.get_field("unsupported_specs").verbose_name,
        help_text=GPU._meta.get_field("unsupported_specs").help_text,
        choices=unsupported_spec_choices, widget=forms.CheckboxSelectMultiple, required=False,
    )
