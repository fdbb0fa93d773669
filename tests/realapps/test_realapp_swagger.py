"""Swagger UI's static build from the npm package `swagger-ui-dist` (pinned by tests/realapps/node/package-lock.json)
with a one-operation spec, driven through the runner by the Python API: expand the operation, Try it out, fill its
path parameter, Execute against the tiny API the same server answers, and read the response from the view."""

from __future__ import annotations

import re

from helpers_realapps import wait_for
from realapps_env import StaticSite

import phonewire


def test_expand_try_it_out_execute_and_read_the_response(phone: phonewire.Phone, swagger: StaticSite) -> None:
    phone.open(swagger.base + "/index.html")
    phone.wait('"Find a pet by id"')
    phone.tap('"Find a pet by id"')
    phone.wait('"Try it out"')
    phone.tap('"Try it out"')
    phone.wait('role=Button label="Execute"')
    filled = phone.fill('role=TextField label="petId"', "2").data
    assert filled["target"]["label"] == "petId"
    phone.tap('role=Button label="Execute"')
    wait_for(phone, lambda nodes: any("Response body" in str(n.get("label")) for n in nodes))
    labels = [str(n.get("label")) for n in phone.snapshot().nodes]
    # the response row's cells, each its own line now that a row no longer swallows its cells' text (issue 23)
    assert "200" in labels
    response = next(text for text in labels if text.startswith("Response body"))
    assert re.search(r'\{ "id": 2, "name": "Tom", "status": "sold" \}', response), response  # the API's answer
    assert f"{swagger.base}/api/pets/2" in labels  # the request URL it shows: the one the filled parameter made
    assert not any("Rex" in text for text in labels)  # the other pet: not what was asked for
