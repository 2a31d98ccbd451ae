"""The JSON API of ../shared/api.md, version 1, and its OpenAPI 3 document.

Every endpoint is a ``POST`` taking and answering JSON; each game's views module declares
its own with ``@endpoint``, next to its pages, and both call the same rules module. The
wrapper here gives every endpoint the contract's conventions: 415 without
``Content-Type: application/json``, 400 for malformed JSON, 422 with
``{"error": {"code", "message", "field"?}}`` for anything the rules refuse.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable

from flask import Blueprint, jsonify, request

from companion.i18n import say
from companion.rules.errors import RuleError
from companion.rules.sentences import N_
from companion.service import games

API_VERSION = "1.1.0"
bp = Blueprint("api", __name__, url_prefix="/api/v1")
_OPERATIONS: dict[str, dict] = {}
_SCHEMAS: dict[str, dict] = {}

ERROR_SCHEMA = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["code", "message"],
            "properties": {
                "code": {"type": "string", "example": "illegal_direction"},
                "message": {"type": "string"},
                "field": {"type": "string", "example": "shot.from"},
            },
        }
    },
}


def endpoint(path: str, *, summary: str, request_schema: dict, response_schema: dict, tag: str):
    """Declare ``POST /api/v1<path>``: the decorated function takes the decoded body, returns the answer.

    The body may be any JSON value; the function raises ``RuleError`` for what it refuses.
    """

    def register(handler: Callable[[object], dict]) -> Callable[[object], dict]:
        def view():
            return _call(handler)

        bp.add_url_rule(path, endpoint=f"{tag}_{handler.__name__}", view_func=view, methods=["POST"])
        document(
            path,
            {
                "post": {
                    "summary": summary,
                    "tags": [tag],
                    "operationId": f"{tag}_{handler.__name__}",
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": request_schema}},
                    },
                    "responses": {
                        "200": {
                            "description": "The answer.",
                            "content": {"application/json": {"schema": response_schema}},
                        },
                        "400": error_response("Malformed JSON."),
                        "415": error_response("The body is not declared as application/json."),
                        "422": error_response("The rules refuse the request; the message says why."),
                    },
                }
            },
        )
        return handler

    return register


def document(path: str, operations: dict) -> None:
    """Add operations (``{"get": {...}}``) of a path to the OpenAPI document, for routes declared by hand."""
    _OPERATIONS.setdefault(path, {}).update(operations)


def schema(name: str, definition: dict) -> dict:
    """Name a schema in the document's components; the ``$ref`` to it."""
    _SCHEMAS[name] = definition
    return {"$ref": f"#/components/schemas/{name}"}


class Refused(Exception):
    """An API request refused before or apart from the rules: its HTTP status and the error's fields.

    ``message`` is a sentence marked with ``N_`` and ``params`` its parameters, as for ``RuleError``;
    ``extra`` goes beside the error (a stale table's ``table``).
    """

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        field: str | None = None,
        extra: dict | None = None,
        **params,
    ):
        super().__init__(message)
        self.status, self.error, self.extra = status, RuleError(code, message, field, **params), extra or {}

    def answer(self):
        """The answer in the contract's shape, its message in the language of Accept-Language."""
        return jsonify({"error": self.error.as_dict(say), **self.extra}), self.status


def json_body() -> object:
    """The request's JSON body; ``Refused`` (415 or 400) when it is not JSON."""
    if request.mimetype != "application/json":
        raise Refused(
            415,
            "unsupported_media_type",
            N_("Send the request body as JSON, with Content-Type: application/json."),
        )
    try:
        return json.loads(request.get_data(cache=False), parse_constant=_refuse_constant)
    except (ValueError, RecursionError):
        raise Refused(400, "malformed_json", N_("The request body is not valid JSON.")) from None


def openapi_document() -> dict:
    """The OpenAPI 3 document of every endpoint declared so far."""
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Castellan API",
            "version": API_VERSION,
            "description": "Every validator and scorer of Castellan as a JSON endpoint. POST JSON, get JSON.",
        },
        "servers": [{"url": "/api/v1"}],
        "paths": dict(sorted({**_OPERATIONS, "/openapi.json": _OPENAPI_OPERATION}.items())),
        "components": {"schemas": {"Error": ERROR_SCHEMA, **dict(sorted(_SCHEMAS.items()))}},
    }


_OPENAPI_OPERATION = {
    "get": {
        "summary": "This document.",
        "operationId": "openapi",
        "responses": {"200": {"description": "The OpenAPI 3 document.", "content": {"application/json": {}}}},
    }
}


@bp.get("/openapi.json")
def openapi():
    """The OpenAPI 3 document."""
    return jsonify(openapi_document())


def _call(handler: Callable[[object], dict]):
    try:
        return jsonify(handler(json_body()))
    except Refused as refused:
        return refused.answer()
    except RuleError as refused:
        return jsonify({"error": refused.as_dict(say)}), 422


def _refuse_constant(name: str) -> None:
    # NaN and Infinity are not JSON; Python's parser accepts them unless told not to.
    raise ValueError(f"{name} is not JSON")


def error_response(description: str) -> dict:
    """An OpenAPI response whose body is the contract's error shape."""
    return {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    }


def discover() -> None:
    """Import every module of ``companion.api``: each adds its routes to ``bp`` (the app registers it once)."""
    games.modules_of(importlib.import_module("companion.api"))
