"""A validator for the small subset of JSON Schema the sleep prompts use.

Supported keywords: ``type`` (object, array, string, number, integer, boolean), ``properties``,
``required``, ``additionalProperties: false``, ``items``, ``enum``. That is all the model is asked
to produce, and it keeps the structured-output schemas within what the Messages API accepts.

A number must be finite: Python's JSON reader accepts ``NaN``, ``Infinity`` and ``-Infinity``,
which are not JSON, so a reply holding one is invalid (the repair retry, then an error).
"""

from __future__ import annotations

import math
from typing import Any

_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "number": (int, float),
    "integer": (int,),
    "boolean": (bool,),
}


def errors(value: Any, schema: dict[str, Any], path: str = "$") -> list[str]:
    """Every way ``value`` breaks ``schema``, as ``"<json path>: <problem>"`` lines."""
    out: list[str] = []
    kind = schema.get("type")
    if kind is not None:
        ok = isinstance(value, _TYPES[kind])
        if kind in ("number", "integer") and isinstance(value, bool):
            ok = False
        if not ok:
            return [f"{path}: expected {kind}, got {type(value).__name__}"]
        if kind == "number" and isinstance(value, float) and not math.isfinite(value):
            return [f"{path}: expected a finite number, got {value!r}"]
    if "enum" in schema and value not in schema["enum"]:
        out.append(f"{path}: {value!r} is not one of {schema['enum']}")
    if isinstance(value, dict):
        props: dict[str, Any] = schema.get("properties", {})
        for key in schema.get("required", []):
            if key not in value:
                out.append(f"{path}: missing required key {key!r}")
        for key, item in value.items():
            if key in props:
                out += errors(item, props[key], f"{path}.{key}")
            elif schema.get("additionalProperties") is False:
                out.append(f"{path}: unexpected key {key!r}")
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            out += errors(item, schema["items"], f"{path}[{i}]")
    return out
