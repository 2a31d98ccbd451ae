"""The JSON API of ../shared/api.md, version 1, and its OpenAPI 3 document.

Every endpoint is a ``POST`` taking and answering JSON; each game's views module declares
its own with ``@endpoint``, next to its pages, and both call the same rules module. The
wrapper here gives every endpoint the contract's conventions: 415 without
``Content-Type: application/json``, 400 for malformed JSON, 422 with
``{"error": {"code", "message", "field"?}}`` for anything the rules refuse.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from flask import Blueprint, jsonify, request

from companion.rules.errors import RuleError

API_VERSION = "1.0.0"
bp = Blueprint("api", __name__, url_prefix="/api/v1")
_OPERATIONS: dict[str, dict] = {}

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
        _OPERATIONS[path] = {
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
                    "400": _error_response("Malformed JSON."),
                    "415": _error_response("The body is not declared as application/json."),
                    "422": _error_response("The rules refuse the request; the message says why."),
                },
            }
        }
        return handler

    return register


def error(status: int, code: str, message: str, field: str | None = None):
    """An error answer in the contract's shape."""
    return jsonify({"error": RuleError(code, message, field).as_dict()}), status


def openapi_document() -> dict:
    """The OpenAPI 3 document of every endpoint declared so far."""
    return {
        "openapi": "3.0.3",
        "info": {
            "title": "Castellan API",
            "version": API_VERSION,
            "description": "Every validator and scorer of Castellan as a JSON endpoint. POST JSON, get JSON.",
        },
        "servers": [{"url": "/api/v1"}],
        "paths": dict(sorted({**_OPERATIONS, "/openapi.json": _OPENAPI_OPERATION}.items())),
        "components": {"schemas": {"Error": ERROR_SCHEMA}},
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
    if request.mimetype != "application/json":
        return error(
            415,
            "unsupported_media_type",
            "Send the request body as JSON, with Content-Type: application/json.",
        )
    try:
        body = json.loads(request.get_data(cache=False), parse_constant=_refuse_constant)
    except (ValueError, RecursionError):
        return error(400, "malformed_json", "The request body is not valid JSON.")
    try:
        return jsonify(handler(body))
    except RuleError as refused:
        return jsonify({"error": refused.as_dict()}), 422


def _refuse_constant(name: str) -> None:
    # NaN and Infinity are not JSON; Python's parser accepts them unless told not to.
    raise ValueError(f"{name} is not JSON")


def _error_response(description: str) -> dict:
    return {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    }
