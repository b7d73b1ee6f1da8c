"""The OpenAPI schema says every status an endpoint can answer: besides each view's own, the
errors every endpoint shares (``league.api.errors`` makes them all JSON with a ``detail``).
It says which endpoints anyone may read (no lock in the docs page), and it opens readable in
a browser (``SchemaView``)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.renderers import (
    OpenApiJsonRenderer,
    OpenApiJsonRenderer2,
    OpenApiYamlRenderer,
    OpenApiYamlRenderer2,
)
from drf_spectacular.views import SpectacularAPIView

ERROR = {"$ref": "#/components/schemas/Error"}
SHARED = {
    "400": "the query or the body is not valid; ``detail`` says which field and why",
    "401": "the token is not valid, or signing in is needed",
    "403": "signed in, but this is not yours to do",
    "404": "no such object (or it is not yours to see)",
    "429": "over a rate limit; ``Retry-After`` and ``detail`` say how long to wait",
}
WRITES = {
    "411": "a body with no Content-Length (chunked); send its length",
    "413": "the body is over the cap",
    "415": "the body's content type is not one this endpoint reads",
}


def error_responses(result: dict[str, Any], generator: Any, request: Any, public: bool
                    ) -> dict[str, Any]:
    """drf-spectacular's postprocessing hook: the shared error responses on every operation."""
    result.setdefault("components", {}).setdefault("schemas", {})["Error"] = {
        "type": "object", "required": ["detail"],
        "properties": {"detail": {"type": "string"},
                       "errors": {"description": "on a 400: what is wrong, by field"}}}
    for methods in result.get("paths", {}).values():
        for method, operation in methods.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            codes = SHARED | (WRITES if method in ("post", "put", "patch") else {})
            for code, description in codes.items():
                response = operation["responses"].setdefault(code, {"description": description})
                response.setdefault("content", {"application/json": {"schema": ERROR}})
    return result


def public_reads(result: dict[str, Any], generator: Any, request: Any, public: bool
                 ) -> dict[str, Any]:
    """drf-spectacular's postprocessing hook: a read anyone may make needs no credentials
    (``security: []``: no lock on it in the docs page; a token or a session still shows its
    owner what is theirs, such as logs), and a write always does (drf-spectacular marks the
    writes of a class that lets anyone read as optional too)."""
    for methods in result.get("paths", {}).values():
        for method, operation in methods.items():
            if not isinstance(operation, dict) or {} not in operation.get("security", []):
                continue
            if method in ("get", "head"):
                operation["security"] = []
            else:
                operation["security"] = [s for s in operation["security"] if s]
    return result


class TextYamlRenderer(OpenApiYamlRenderer):
    """The YAML schema as plain text, so a browser shows it rather than saving a file."""

    media_type = "text/plain"


class SchemaView(SpectacularAPIView):
    """``/api/schema/``: YAML as text to a browser or to anyone not asking for a type,
    ``?format=json`` as ``application/json`` (a browser shows that too), and the OpenAPI
    media types to whoever asks for them."""

    renderer_classes = [TextYamlRenderer, OpenApiYamlRenderer, OpenApiJsonRenderer2,
                        OpenApiJsonRenderer, OpenApiYamlRenderer2]
