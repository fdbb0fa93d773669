"""The realapp fixtures (defined in ``realapps_env``, which the tests also import their helpers from)."""

from realapps_env import cli, datasette, django_admin, phone, pytest_collection_modifyitems, swagger, todomvc

__all__ = ["cli", "datasette", "django_admin", "phone", "pytest_collection_modifyitems", "swagger", "todomvc"]
