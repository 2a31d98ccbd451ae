"""The JSON API, /api/v1 (../shared/api.md): tables, plays, and each game's tools.

It answers JSON only and stands beside the web pages, never on them: it may use the table
service, the store, the languages and the shared HTTP plumbing (``companion.http``), and no
module of ``companion.web``. ``blueprint`` holds the endpoint wrapper and the OpenAPI document.
"""

from companion.api.blueprint import (
    API_VERSION,
    ERROR_SCHEMA,
    Refused,
    bp,
    discover,
    document,
    endpoint,
    error_response,
    json_body,
    openapi_document,
    schema,
)

__all__ = [
    "API_VERSION",
    "ERROR_SCHEMA",
    "Refused",
    "bp",
    "discover",
    "document",
    "endpoint",
    "error_response",
    "json_body",
    "openapi_document",
    "schema",
]
