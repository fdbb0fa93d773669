"""Lay out a Swagger UI site from the swagger-ui-dist npm package: python3 swagger_site.py DIST_DIR OUT_DIR.

Links every file of the package into OUT_DIR, replaces swagger-initializer.js with one that loads ./openapi.json
(the package's own points at a public petstore), and writes a local spec: six tags x five GET operations, each
with an enum query parameter `status` and an integer `limit`, an apiKey security scheme (the Authorize dialog),
and one real response body (pets/item1.json).  Serve OUT_DIR with `python3 -m http.server --bind 127.0.0.1 8742`.
"""

import json
import os
import sys
from pathlib import Path

dist, out = Path(sys.argv[1]).resolve(), Path(sys.argv[2])
(out / "pets").mkdir(parents=True, exist_ok=True)
for src in dist.iterdir():
    target = out / src.name
    if src.name != "swagger-initializer.js" and not target.exists():
        target.symlink_to(src)
(out / "swagger-initializer.js").write_text(
    "window.onload = function() {\n"
    "  window.ui = SwaggerUIBundle({ url: './openapi.json', dom_id: '#swagger-ui', deepLinking: true,\n"
    "    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],\n"
    "    plugins: [SwaggerUIBundle.plugins.DownloadUrl], layout: 'StandaloneLayout' });\n"
    "};\n"
)
paths = {}
for tag in ["pets", "store", "users", "orders", "inventory", "reports"]:
    for i in range(1, 6):
        paths[f"/{tag}/item{i}.json"] = {
            "get": {
                "tags": [tag],
                "summary": f"Get {tag} item {i}",
                "operationId": f"get_{tag}_{i}",
                "parameters": [
                    {
                        "name": "status",
                        "in": "query",
                        "schema": {"type": "string", "enum": ["available", "pending", "sold"]},
                    },
                    {"name": "limit", "in": "query", "schema": {"type": "integer", "default": 10}},
                ],
                "responses": {"200": {"description": "ok"}},
            }
        }
port = os.environ.get("SWAGGER_PORT", "8742")
spec = {
    "openapi": "3.0.3",
    "info": {"title": "Loopback Shop API", "version": "1.0.0", "description": "A local spec"},
    "servers": [{"url": f"http://127.0.0.1:{port}"}],
    "components": {"securitySchemes": {"api_key": {"type": "apiKey", "name": "X-Key", "in": "header"}}},
    "security": [{"api_key": []}],
    "paths": paths,
}
(out / "openapi.json").write_text(json.dumps(spec, indent=1))
(out / "pets" / "item1.json").write_text('{"id":1,"name":"Rex","status":"available"}\n')
