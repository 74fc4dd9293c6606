#!/usr/bin/env python3
"""Checks JSON bodies against the schemas of an OpenAPI 3.1 document (the audit API's
Sources/AuditServer/openapi.yaml). The Swift tests run it; it needs PyYAML, and jsonschema or
else jsonschema-rs (schemathesis brings PyYAML and jsonschema-rs). An OpenAPI 3.1 schema is a
JSON Schema 2020-12 schema.

  openapi_check.py DOC operations      every operation: method, path, parameters, request and
                                       response content types, as JSON
  openapi_check.py DOC validate        reads [{label, target, body, strict}] on standard input and
                                       prints [{label, errors}] for the bodies that do not match
  openapi_check.py DOC examples T...   prints {T: {required, nulls, extra}}: a body with only the
                                       required fields, one with every field (null where allowed),
                                       and one with every field plus unknown ones

A target is a schema pointer ("#/components/schemas/Asset"), an operation's answer
("GET /api/v2/assets/{id} 200"; the status falls back to `default`), or its request body
("POST /api/v2/assets request"); an optional last word names the content type (default
application/json). `strict` refuses properties the schema does not name (for what a client
sends).
"""
import json
import re
import sys

import yaml

try:
    from jsonschema import Draft202012Validator, FormatChecker
except ImportError:  # schemathesis's own validator
    Draft202012Validator = FormatChecker = None
    import jsonschema_rs

METHODS = ("get", "put", "post", "delete", "patch", "head", "options")
DATE_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$")
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def is_date_time(text):
    return not isinstance(text, str) or bool(DATE_TIME.match(text))


def is_date(text):
    return not isinstance(text, str) or bool(DATE.match(text))


if FormatChecker:
    formats = FormatChecker(formats=())
    formats.checks("date-time")(is_date_time)
    formats.checks("date")(is_date)


def load(path):
    with open(path, encoding="utf-8") as file:
        return yaml.safe_load(file)


def pointer(doc, ref):
    node = doc
    for part in ref.lstrip("#/").split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


def resolve(doc, node):
    while isinstance(node, dict) and "$ref" in node:
        node = pointer(doc, node["$ref"])
    return node


def operations(doc):
    found = []
    for path, item in doc.get("paths", {}).items():
        shared = item.get("parameters", [])
        for method in METHODS:
            if method not in item:
                continue
            operation = item[method]
            parameters = [resolve(doc, p) for p in shared + operation.get("parameters", [])]
            body = resolve(doc, operation.get("requestBody", {}))
            responses = {status: sorted(resolve(doc, answer).get("content", {}).keys())
                         for status, answer in operation.get("responses", {}).items()}
            found.append({"method": method.upper(), "path": path,
                          "parameters": [{"name": p["name"], "in": p["in"], "required": p.get("required", False)} for p in parameters],
                          "request": sorted(body.get("content", {}).keys()), "request_required": body.get("required", False),
                          "responses": responses})
    return found


def target_schema(doc, target):
    """The schema a target names, or raises KeyError with what is missing."""
    if target.startswith("#/"):
        return {"$ref": target}
    words = target.split()
    method, path, which = words[0], words[1], words[2]
    content_type = words[3] if len(words) > 3 else "application/json"
    operation = doc["paths"][path][method.lower()]
    if which == "request":
        holder = resolve(doc, operation["requestBody"])
    else:
        responses = operation["responses"]
        holder = resolve(doc, responses.get(which, responses.get("default")))
        if holder is None:
            raise KeyError(f"{method} {path} documents no answer for {which} and no default")
    return holder["content"][content_type]["schema"]


def strictly(node):
    """A copy in which every object with named properties refuses others."""
    if isinstance(node, list):
        return [strictly(item) for item in node]
    if not isinstance(node, dict):
        return node
    copied = {key: strictly(value) for key, value in node.items()}
    if "properties" in copied and "additionalProperties" not in copied:
        copied["additionalProperties"] = False
    return copied


def errors(doc, schema, body, strict=False):
    components = strictly(doc["components"]) if strict else doc["components"]
    root = {"components": components, "allOf": [strictly(schema) if strict else schema]}
    if Draft202012Validator is None:
        checker = jsonschema_rs.Draft202012Validator(root, validate_formats=True, formats={"date-time": is_date_time, "date": is_date})
        return [f"{'/'.join(str(part) for part in error.instance_path) or '(body)'}: {error.message[:300]}"
                for error in checker.iter_errors(body)]
    found = []
    checker = Draft202012Validator(root, format_checker=formats)
    for error in sorted(checker.iter_errors(body), key=lambda e: list(e.absolute_path)):
        where = "/".join(str(part) for part in error.absolute_path) or "(body)"
        found.append(f"{where}: {error.message[:300]}")
    return found

def allows_null(doc, schema):
    schema = resolve(doc, schema)
    kinds = schema.get("type")
    if kinds == "null" or (isinstance(kinds, list) and "null" in kinds):
        return True
    return any(allows_null(doc, branch) for branch in schema.get("anyOf", []) + schema.get("oneOf", []))


def merged(doc, schemas):
    result = {"type": "object", "properties": {}, "required": []}
    for part in schemas:
        part = resolve(doc, part)
        if "allOf" in part:
            part = merged(doc, part["allOf"])
        result["properties"].update(part.get("properties", {}))
        result["required"] += [name for name in part.get("required", []) if name not in result["required"]]
        if "additionalProperties" in part:
            result["additionalProperties"] = part["additionalProperties"]
    return result


def example(doc, schema, mode):
    """A value of `schema`: mode "required" (required fields only), "nulls" (every field, null
    wherever null is allowed) or "extra" (every field with a value, and unknown fields)."""
    schema = resolve(doc, schema)
    if "allOf" in schema:
        parts = [resolve(doc, part) for part in schema["allOf"]]
        if any("properties" in part or "required" in part or "allOf" in part for part in parts):
            return example(doc, merged(doc, schema["allOf"]), mode)
        return example(doc, parts[0], mode)
    if "const" in schema:
        return schema["const"]
    branches = schema.get("anyOf") or schema.get("oneOf")
    if branches:
        real = [b for b in branches if resolve(doc, b).get("type") != "null"]
        return example(doc, real[0], mode)
    if "enum" in schema:
        return schema["enum"][0]
    if "examples" in schema:
        return schema["examples"][0]
    kinds = schema.get("type", "object")
    kind = next((k for k in kinds if k != "null"), "null") if isinstance(kinds, list) else kinds
    if kind == "object":
        value = {}
        required = schema.get("required", [])
        for name, property_schema in schema.get("properties", {}).items():
            if mode == "nulls" and allows_null(doc, property_schema):
                value[name] = None
            elif name in required or mode != "required":
                value[name] = example(doc, property_schema, mode)
        if mode == "extra":
            more = schema.get("additionalProperties", True)
            if isinstance(more, dict):
                value["x_extra_key"] = example(doc, more, "required")
            elif more is not False:
                value["x_unknown_field"] = {"nested": [1, "two", None], "flag": True}
                value["x_unknown_number"] = 7.25
        return value
    if kind == "array":
        return [example(doc, schema.get("items", {}), mode)]
    if kind == "string":
        if schema.get("format") == "date-time":
            return "2026-05-12T10:30:00Z"
        if schema.get("format") == "date":
            return "2026-05-12"
        return "text"[: max(schema.get("maxLength", 4), 1)].ljust(schema.get("minLength", 0), "t")
    if kind == "integer":
        return max(schema.get("minimum", 1), 1) if schema.get("maximum", 2) >= 1 else schema.get("maximum")
    if kind == "number":
        return min(12.5, schema.get("maximum", 12.5))
    if kind == "boolean":
        return True
    return None


def main():
    doc = load(sys.argv[1])
    command = sys.argv[2]
    if command == "operations":
        json.dump(operations(doc), sys.stdout)
    elif command == "validate":
        report = []
        for case in json.load(sys.stdin):
            try:
                found = errors(doc, target_schema(doc, case["target"]), case["body"], case.get("strict", False))
            except KeyError as missing:
                found = [f"the document has no {case['target']}: {missing}"]
            if found:
                report.append({"label": case["label"], "errors": found})
        json.dump(report, sys.stdout)
    elif command == "examples":
        answer = {}
        for target in sys.argv[3:]:
            schema = target_schema(doc, target)
            variants = {mode: example(doc, schema, mode) for mode in ("required", "nulls", "extra")}
            # Each example must itself match the schema, or it tests nothing.
            problems = {mode: errors(doc, schema, body) for mode, body in variants.items()}
            variants["problems"] = [f"{mode}: {p}" for mode, found in problems.items() for p in found]
            answer[target] = variants
        json.dump(answer, sys.stdout)
    else:
        sys.exit(f"unknown command {command}; use operations, validate or examples")


if __name__ == "__main__":
    main()
