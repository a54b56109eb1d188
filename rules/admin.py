from __future__ import annotations

from django.contrib import admin

from rules import services
from rules.models import RuleEntry, SampleArmy


@admin.register(RuleEntry)
class RuleEntryAdmin(admin.ModelAdmin):
    list_display = ("name", "system", "kind", "slug", "position")
    list_filter = ("system", "kind")
    search_fields = ("name", "slug", "summary")
    ordering = ("system", "kind", "position")


@admin.register(SampleArmy)
class SampleArmyAdmin(admin.ModelAdmin):
    list_display = ("name", "system", "slug", "position")
    list_filter = ("system",)
    search_fields = ("name", "slug", "blurb")
    prepopulated_fields = {"slug": ("name",)}

    def save_model(self, request, obj, form, change):
        services.save_sample(obj)  # priced as it is stored
