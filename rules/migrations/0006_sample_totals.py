"""Sample armies keep their total and figure count, priced when saved (SPEC 7): the rules
pages read them instead of pricing every sample on every request."""

from django.db import migrations, models

from rules.models import price_sample


def price(apps, schema_editor):
    SampleArmy = apps.get_model("rules", "SampleArmy")
    for sample in SampleArmy.objects.all():
        sample.total, sample.figures = price_sample(sample.army)
        sample.save(update_fields=["total", "figures"])


class Migration(migrations.Migration):
    dependencies = [("rules", "0005_catalog_drops_engine_copies")]

    operations = [
        migrations.AddField(
            model_name="samplearmy",
            name="figures",
            field=models.PositiveIntegerField(editable=False, null=True),
        ),
        migrations.AddField(
            model_name="samplearmy",
            name="total",
            field=models.CharField(blank=True, editable=False, max_length=60),
        ),
        migrations.RunPython(price, migrations.RunPython.noop),
    ]
