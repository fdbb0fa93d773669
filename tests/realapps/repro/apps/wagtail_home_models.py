"""home/models.py of the Wagtail site in docs/realapps-findings-3.md: an ArticlePage with a date, a choice, a
checkbox and a rich-text body (setup_round3.sh copies it over the one `wagtail start` makes)."""

from typing import ClassVar

from django.db import models
from wagtail.admin.panels import FieldPanel
from wagtail.fields import RichTextField
from wagtail.models import Page


class HomePage(Page):
    pass


class ArticlePage(Page):
    date = models.DateField("Post date", null=True, blank=True)
    category = models.CharField(
        max_length=20, choices=[("news", "News"), ("howto", "How-to"), ("review", "Review")], default="news"
    )
    featured = models.BooleanField(default=False)
    body = RichTextField(blank=True)

    content_panels: ClassVar[list[FieldPanel]] = [
        *Page.content_panels,
        FieldPanel("date"),
        FieldPanel("category"),
        FieldPanel("featured"),
        FieldPanel("body"),
    ]
