from django.urls import path

from armies import lists, picker, preview, views

app_name = "armies"
urlpatterns = [
    path("", lists.army_list, name="list"),
    path("bulk/", lists.bulk, name="bulk"),
    path("new/", views.army_new, name="new"),
    path("import/", views.army_import, name="import"),
    path("trash/", views.trash, name="trash"),
    path("samples/<slug:slug>/", views.army_from_sample, name="from-sample"),
    path("<int:pk>/", views.builder, name="builder"),
    path("<int:pk>/export.json", views.army_export, name="export"),
    path("<int:pk>/settings/", views.army_settings, name="settings"),
    path("<int:pk>/accept-rules/", views.accept_rules, name="accept-rules"),
    path("<int:pk>/archive/", lists.archive, name="archive"),
    path("<int:pk>/unarchive/", lists.unarchive, name="unarchive"),
    path("<int:pk>/tags/", lists.tag_add, name="tag-add"),
    path("<int:pk>/tags/remove/", lists.tag_remove, name="tag-remove"),
    path("<int:pk>/delete/", views.army_delete, name="delete"),
    path("<int:pk>/restore/", views.army_restore, name="restore"),
    path("<int:pk>/units/add/", views.unit_add, name="unit-add"),
    path("<int:pk>/units/pick/", picker.pick, name="unit-pick"),
    path("<int:pk>/units/add-from-library/", views.unit_add_from_library, name="unit-add-library"),
    path("<int:pk>/units/<int:unit_pk>/add-part/", views.unit_add_part, name="unit-add-part"),
    path("<int:pk>/units/<int:unit_pk>/", views.unit_update, name="unit-update"),
    path("<int:pk>/units/<int:unit_pk>/preview/", preview.unit_preview, name="unit-preview"),
    path("<int:pk>/units/<int:unit_pk>/breakdown/", views.unit_breakdown, name="unit-breakdown"),
    path("<int:pk>/units/<int:unit_pk>/duplicate/", views.unit_duplicate, name="unit-duplicate"),
    path("<int:pk>/units/<int:unit_pk>/move/", views.unit_move, name="unit-move"),
    path("<int:pk>/units/<int:unit_pk>/quantity/", views.unit_quantity, name="unit-quantity"),
    path("<int:pk>/units/<int:unit_pk>/delete/", views.unit_delete, name="unit-delete"),
    path("<int:pk>/units/<int:unit_pk>/restore/", views.unit_restore, name="unit-restore"),
]
