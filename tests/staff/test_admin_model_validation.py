"""A model's own validation (its ``clean()``) never ends in a server error in the admin: each rule, broken
through the admin's change form of every model that has one, answers 200 with the rule's message in the
editor's language, for an editor and for a superuser, and stores nothing.

That includes a rule keyed by a translated field (the GPU's ``derived_source``), whose error must land on a form
that shows only ``derived_source_en``, ``derived_source_es``… (a ``ValueError`` otherwise)."""
import inspect
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import models
from django.forms import modelform_factory
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape
from django.utils.text import capfirst

from catalog.models import GPU
from catalog.specs import SPECS
from company.models import LegalPage
from estimator.models import ModelPreset
from staff.admin_site import ModelErrorsOnFormFields, with_model_errors_on_form_fields
from workloads.models import Workload, WorkloadColumn

from ..editors import create_editor
from ..html import form_fields
from ..localized_urls import url_in
from ..project_source import LAYERS


@dataclass
class BrokenRule:
    """How to break one rule of a model's ``clean()``: on the instance (to learn the rule's own message from the
    model) and in the admin's change form of ``admin_model``'s object (``form`` edits the posted fields)."""
    name: str
    model: type
    get_object: callable
    break_instance: callable
    break_form: callable
    admin_model: type = None


def gpu(slug="h100-sxm"):
    return GPU.objects.get(slug=slug)


def set_form(**fields):
    return lambda data, _object: data.update(fields)


def no_derived_source(data, _gpu):
    data["bandwidth_gbs_derived"] = "3000"
    for name in list(data):
        if name.startswith("derived_source_"):
            data[name] = ""


def unsupported_with_value(data, gpu_object):
    key = unsupported_spec_key(gpu_object)
    data["unsupported_specs"] = [key]
    data[key] = "1"


def unsupported_spec_key(gpu_object):
    """A spec the registry lets a GPU lack and this GPU has a value for."""
    return next(spec.key for spec in SPECS
                if getattr(spec, "may_be_unsupported", False) and getattr(gpu_object, spec.key, None) is not None)


def break_unsupported(gpu_object):
    key = unsupported_spec_key(gpu_object)
    gpu_object.unsupported_specs = [key]
    setattr(gpu_object, key, 1)


def compare_page_segment(language="es"):
    return [segment for segment in url_in(language, "catalog:compare").split("/") if segment][-1]


def other_workload(workload):
    return Workload.objects.exclude(pk=workload.pk).order_by("order").first()


def first_column(workload):
    return workload.columns.order_by("order", "pk").first()


def column_form(**fields):
    def edit(data, _workload):
        data.update({f"columns-0-{name}": value for name, value in fields.items()})
    return edit


BROKEN_RULES = [
    BrokenRule("GPU: a derived figure without its source", GPU, gpu,
               lambda g: (setattr(g, "bandwidth_gbs_derived", Decimal(3000)),
                          *(setattr(g, f"derived_source_{code}", "") for code in ("en", "es", "pt", "de")),
                          setattr(g, "derived_source", "")),
               no_derived_source),
    BrokenRule("GPU: a price time in the future", GPU, gpu,
               lambda g: setattr(g, "price_updated_at", datetime(2062, 11, 30, 12, tzinfo=UTC)),
               set_form(price_updated_at_0="2062-11-30", price_updated_at_1="12:00:00")),
    BrokenRule("GPU: a value for a spec marked not supported", GPU, gpu, break_unsupported, unsupported_with_value),
    BrokenRule("GPU: a slug that is another page's address", GPU, gpu,
               lambda g: setattr(g, "slug", compare_page_segment()),
               lambda data, _g: data.update(slug=compare_page_segment())),
    BrokenRule("GPU: a line break in the name (it goes into mail subjects)", GPU, gpu,
               lambda g: setattr(g, "name", "H100\nBcc: someone@example.com"),
               lambda data, _g: data.update(name="H100\nBcc: someone@example.com")),
    BrokenRule("Legal page: a new text under the same version", LegalPage, lambda: LegalPage.objects.get(key="privacy"),
               lambda page: setattr(page, "body_es", page.body_es + "\n\nUn párrafo nuevo."),
               lambda data, page: data.update(body_es=page.body_es + "\n\nUn párrafo nuevo.")),
    BrokenRule("Model preset: more active parameters than parameters", ModelPreset,
               lambda: ModelPreset.objects.exclude(billion_params=None).order_by("pk").first(),
               lambda p: setattr(p, "active_billion_params", p.billion_params + 1),
               lambda data, p: data.update(active_billion_params=str(p.billion_params + 1))),
    BrokenRule("Workload: another workload's slug", Workload, lambda: Workload.objects.get(key="fine-tuning"),
               lambda w: setattr(w, "slug_es", other_workload(w).slug_es),
               lambda data, w: data.update(slug_es=other_workload(w).slug_es)),
    BrokenRule("Workload: a chart column no saved column has", Workload,
               lambda: Workload.objects.get(key="fine-tuning"),
               lambda w: setattr(w, "chart_column", "no-such-column"),
               set_form(chart_column="no-such-column")),
    BrokenRule("Workload column: a spec column without its spec", WorkloadColumn,
               lambda: first_column(Workload.objects.get(key="fine-tuning")),
               lambda c: (setattr(c, "kind", WorkloadColumn.Kind.SPEC), setattr(c, "spec", "")),
               column_form(kind=WorkloadColumn.Kind.SPEC, spec=""), admin_model=Workload),
    BrokenRule("Workload column: a sizing column without its method", WorkloadColumn,
               lambda: first_column(Workload.objects.get(key="fine-tuning")),
               lambda c: (setattr(c, "kind", WorkloadColumn.Kind.MODEL_FIT), setattr(c, "method", "")),
               column_form(kind=WorkloadColumn.Kind.MODEL_FIT, method=""), admin_model=Workload),
    BrokenRule("Workload column: a decode ceiling without a model size", WorkloadColumn,
               lambda: first_column(Workload.objects.get(key="fine-tuning")),
               lambda c: (setattr(c, "kind", WorkloadColumn.Kind.DECODE_CEILING), setattr(c, "method", "lora_16bit"),
                          setattr(c, "model_billion_params", None)),
               column_form(kind=WorkloadColumn.Kind.DECODE_CEILING, method="lora_16bit", model_billion_params=""),
               admin_model=Workload),
]


def admin_object(rule, instance):
    """The object whose change form holds ``instance``: itself, or its parent for an inline's row."""
    return instance.workload if rule.admin_model is Workload and rule.model is WorkloadColumn else instance


def stored_row(instance):
    """The row as stored, read in one language (what a translated field reads depends on the active one)."""
    with translation.override("en"):
        return type(instance).objects.filter(pk=instance.pk).values().get()


def rule_messages(rule, language):
    """What the model itself says when the rule is broken, in ``language``: the messages the page must show."""
    instance = rule.get_object()
    rule.break_instance(instance)
    with translation.override(language):
        try:
            instance.clean()
        except ValidationError as error:
            return [str(message) for message in error.messages]
    raise AssertionError(f"{rule.name}: the broken instance passed clean()")


@pytest.fixture(params=["editor", "superuser"])
def staff_client(request, client, db):
    if request.param == "superuser":
        user = get_user_model().objects.create_superuser("root", "root@example.com", "a-long-test-password")
    else:
        user = create_editor()
    client.force_login(user)
    return client


@pytest.mark.parametrize("language", ["es", "de"])
@pytest.mark.parametrize("rule", BROKEN_RULES, ids=[rule.name for rule in BROKEN_RULES])
def test_a_broken_rule_answers_with_its_message_and_stores_nothing(staff_client, launch_content, rule, language):
    instance = rule.get_object()
    target = admin_object(rule, instance)
    stored = stored_row(instance)
    expected = rule_messages(rule, language)
    url = reverse(f"admin:{target._meta.app_label}_{target._meta.model_name}_change", args=[target.pk])
    page = staff_client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert page.status_code == 200
    data = form_fields(page.content.decode(), form_id=f"{target._meta.model_name}_form")
    rule.break_form(data, target)
    response = staff_client.post(url, data, HTTP_ACCEPT_LANGUAGE=language)
    body = response.content.decode()
    assert response.status_code == 200, f"{rule.name}: {response.status_code}"
    assert "errornote" in body
    for message in expected:
        assert escape(message) in body, f"{rule.name}: {message!r} is not on the page"
    assert stored_row(instance) == stored


def test_every_model_with_its_own_rules_has_a_broken_rule_here():
    """A model that gains a ``clean()`` is listed above, so that its rules are tried through the admin."""
    own_apps = set(LAYERS)
    with_clean = {model for model in apps.get_models() if model._meta.app_label in own_apps
                  and any("clean" in vars(klass) for klass in inspect.getmro(model)
                          if klass is not models.Model and issubclass(klass, models.Model)
                          and klass.__module__.split(".")[0] in own_apps)}
    assert with_clean <= {rule.model for rule in BROKEN_RULES}, with_clean - {rule.model for rule in BROKEN_RULES}


def test_every_admin_form_places_a_models_errors_on_its_fields():
    for model, model_admin in admin.site._registry.items():
        assert issubclass(model_admin.form, ModelErrorsOnFormFields), model
        for inline in model_admin.inlines:
            assert issubclass(inline.form, ModelErrorsOnFormFields), (model, inline)


def test_an_error_for_a_field_the_form_lacks_names_the_field_above_the_form(launch_content):
    preset = ModelPreset.objects.exclude(billion_params=None).order_by("pk").first()
    preset.active_billion_params = preset.billion_params + 1
    form_class = with_model_errors_on_form_fields(modelform_factory(ModelPreset, fields=["name", "billion_params"]))
    form = form_class(data={"name": preset.name, "billion_params": str(preset.billion_params)}, instance=preset)
    with translation.override("de"):
        assert not form.is_valid()
        label = capfirst(ModelPreset._meta.get_field("active_billion_params").verbose_name)
        (message,) = rule_messages(next(rule for rule in BROKEN_RULES if rule.model is ModelPreset), "de")
        assert form.non_field_errors() == [f"{label}: {message}"]
