"""The message boxes beside form fields ({% feedback %} and {% feedback_boxes %})."""

from __future__ import annotations

from django import forms
from django.template import Context, Template

from armies.forms import FeedbackForm

PAYLOAD = '<script>alert("x")</script>'


class Sample(FeedbackForm):
    title = forms.CharField()
    count = forms.IntegerField()

    def clean(self):
        raise forms.ValidationError(f"Whole form: {PAYLOAD}")


def draw(text: str, form: FeedbackForm) -> str:
    return Template("{% load muster %}" + text).render(Context({"form": form}))


def test_every_box_is_drawn_once_in_field_order_with_its_messages_escaped():
    form = Sample({"title": PAYLOAD, "count": PAYLOAD})
    assert not form.is_valid()
    html = draw("{% feedback_boxes form oob=True %}", form)

    assert [part.split('"')[0] for part in html.split('id="fb-')[1:]] == ["title", "count", "all"]
    assert html.count('data-hx-swap-oob="true"') == 3
    assert "<script>" not in html
    assert "Whole form: &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in html
    count_box = html.split('id="fb-count"')[1].split("</div>")[0]
    assert "Enter a whole number." in count_box
    title_box = html.split('id="fb-title"')[1].split("</div>")[0]
    assert title_box.endswith('role="alert" data-hx-swap-oob="true">')  # a valid field: empty


def test_the_boxes_drawn_together_are_the_boxes_drawn_one_by_one():
    form = Sample({"title": "", "count": "x"})
    form.is_valid()
    together = draw("{% feedback_boxes form %}", form)
    one_by_one = draw(
        "{% for field in form %}{% feedback field %}{% endfor %}"
        "{% feedback form.non_field_errors_box %}",
        form,
    )
    assert together == one_by_one
    assert "This field is required." in together and "data-hx-swap-oob" not in together
