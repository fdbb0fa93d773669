"""The realapp fixtures (defined in ``realapps_env``, which the tests also import their helpers from)."""

from realapps_env import (
    canvas_pages,
    cli,
    dash_app,
    datasette,
    django_admin,
    ionic,
    jupyterlab,
    mkdocs_site,
    phone,
    pytest_collection_modifyitems,
    swagger,
    todomvc,
)

__all__ = [
    "canvas_pages",
    "cli",
    "dash_app",
    "datasette",
    "django_admin",
    "ionic",
    "jupyterlab",
    "mkdocs_site",
    "phone",
    "pytest_collection_modifyitems",
    "swagger",
    "todomvc",
]
