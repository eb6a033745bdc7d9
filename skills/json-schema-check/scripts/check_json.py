#!/usr/bin/env python3
"""Validate JSON documents against a JSON Schema, using only the standard library.

Supports the commonly used subset of JSON Schema (draft 2020-12 and draft-07 spellings): type,
enum, const, properties, required, additionalProperties, patternProperties, items, prefixItems,
minItems, maxItems, uniqueItems, minLength, maxLength, pattern, minimum, maximum,
exclusiveMinimum, exclusiveMaximum, multipleOf, minProperties, maxProperties, propertyNames,
dependentRequired, contains, if/then/else, allOf, anyOf, oneOf, not, and local $ref
(#/$defs/... or #/definitions/...). Keywords it does not know are
reported once as warnings, so a pass is never silently partial.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from typing import Any

ANNOTATIONS = {
    "$schema", "$id", "$comment", "$defs", "definitions", "title", "description", "default",
    "examples", "deprecated", "readOnly", "writeOnly", "format",
}
TYPES = ("null", "boolean", "object", "array", "number", "string", "integer")


class SchemaError(Exception):
    """The schema itself is broken; the message names the schema location."""


class InputError(Exception):
    """A file cannot be read or is not JSON; the message says where."""


def type_of(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def is_type(value: Any, expected: str) -> bool:
    actual = type_of(value)
    if expected == "number":
        return actual in ("integer", "number")
    if expected == "integer":
        return actual == "integer" or (actual == "number" and float(value).is_integer())
    return actual == expected


def equal(left: Any, right: Any) -> bool:
    """JSON equality: 1 equals 1.0, but true does not equal 1."""
    kinds = {type_of(left), type_of(right)}
    if kinds <= {"integer", "number"}:
        return bool(left == right)
    if len(kinds) > 1:
        return False
    if isinstance(left, list):
        return len(left) == len(right) and all(map(equal, left, right))
    if isinstance(left, dict):
        return left.keys() == right.keys() and all(equal(left[k], right[k]) for k in left)
    return bool(left == right)


def child(path: str, key: Any) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key):
        return f"{path}.{key}"
    return f"{path}[{json.dumps(key)}]"


def short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


class Validator:
    def __init__(self, schema: Any) -> None:
        self.root = schema
        self.unsupported: set[str] = set()
        # ($ref, document path) pairs being expanded: meeting one again means the schema refers
        # to itself without descending into the document, which would never end.
        self.expanding: set[tuple[str, str]] = set()

    def resolve(self, ref: str, where: str) -> Any:
        if not ref.startswith("#"):
            raise SchemaError(f"{where}: $ref {ref!r} points outside this schema; only local "
                              "references such as #/$defs/name are supported")
        node = self.root
        for part in [p for p in ref[1:].split("/") if p]:
            part = part.replace("~1", "/").replace("~0", "~")
            if isinstance(node, dict) and part in node:
                node = node[part]
            elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
                node = node[int(part)]
            else:
                raise SchemaError(f"{where}: $ref {ref!r} does not exist in the schema")
        return node

    def check(self, value: Any, schema: Any, path: str, where: str) -> list[str]:
        if schema is True or schema == {}:
            return []
        if schema is False:
            return [f"{path}: no value is allowed here"]
        if not isinstance(schema, dict):
            raise SchemaError(f"{where}: a schema must be an object or a boolean, "
                              f"not {type_of(schema)}")
        errors: list[str] = []
        for keyword, argument in schema.items():
            method = getattr(self, "kw_" + keyword.replace("$", "dollar_"), None)
            if method is None:
                if keyword not in ANNOTATIONS:
                    self.unsupported.add(keyword)
                continue
            location = f"{where}/{keyword}"
            try:
                errors.extend(method(value, argument, schema, path, location))
            except (TypeError, ValueError, AttributeError, ZeroDivisionError):
                raise SchemaError(
                    f"{location}: {short(argument)} is not a valid value for {keyword}"
                ) from None
        return errors

    # Each kw_ method checks one keyword and returns error messages.

    def kw_dollar_ref(self, value: Any, ref: Any, schema: dict, path: str, where: str
                      ) -> list[str]:
        key = (str(ref), path)
        if key in self.expanding:
            raise SchemaError(f"{where}: $ref {ref!r} refers back to itself; the schema is circular")
        self.expanding.add(key)
        try:
            return self.check(value, self.resolve(str(ref), where), path, str(ref))
        finally:
            self.expanding.discard(key)

    def kw_type(self, value: Any, expected: Any, schema: dict, path: str, where: str) -> list[str]:
        names = expected if isinstance(expected, list) else [expected]
        for name in names:
            if name not in TYPES:
                raise SchemaError(f"{where}: unknown type {name!r}; use one of {', '.join(TYPES)}")
        if any(is_type(value, name) for name in names):
            return []
        return [f"{path}: expected {' or '.join(names)}, got {type_of(value)} {short(value)}"]

    def kw_enum(self, value: Any, options: Any, schema: dict, path: str, where: str) -> list[str]:
        if not isinstance(options, list):
            raise SchemaError(f"{where}: enum must be an array")
        if any(equal(value, option) for option in options):
            return []
        allowed = ", ".join(short(option) for option in options)
        return [f"{path}: {short(value)} is not one of {allowed}"]

    def kw_const(self, value: Any, constant: Any, schema: dict, path: str, where: str) -> list[str]:
        return [] if equal(value, constant) else [f"{path}: must be {short(constant)}"]

    def kw_required(self, value: Any, names: Any, schema: dict, path: str, where: str) -> list[str]:
        if not isinstance(names, list):
            raise SchemaError(f"{where}: required must be an array of property names")
        if not isinstance(value, dict):
            return []
        return [f"{path}: missing required property {name!r}" for name in names
                if name not in value]

    def kw_properties(self, value: Any, properties: Any, schema: dict, path: str, where: str) -> list[str]:
        if not isinstance(value, dict):
            return []
        errors = []
        for name, subschema in properties.items():
            if name in value:
                errors += self.check(value[name], subschema, child(path, name),
                                     f"{where}/{name}")
        return errors

    def kw_patternProperties(self, value: Any, patterns: Any, schema: dict, path: str,
                             where: str) -> list[str]:
        if not isinstance(value, dict):
            return []
        errors = []
        for pattern, subschema in patterns.items():
            regex = compile_pattern(pattern, where)
            for name, item in value.items():
                if regex.search(name):
                    errors += self.check(item, subschema, child(path, name),
                                         f"{where}/{pattern}")
        return errors

    def kw_additionalProperties(self, value: Any, extra: Any, schema: dict, path: str,
                                where: str) -> list[str]:
        if not isinstance(value, dict):
            return []
        known = set(schema.get("properties", {}))
        patterns = [compile_pattern(p, where) for p in schema.get("patternProperties", {})]
        errors = []
        for name, item in value.items():
            if name in known or any(regex.search(name) for regex in patterns):
                continue
            if extra is False:
                errors.append(f"{path}: property {name!r} is not allowed")
            else:
                errors += self.check(item, extra, child(path, name), where)
        return errors

    def kw_items(self, value: Any, items: Any, schema: dict, path: str, where: str) -> list[str]:
        if not isinstance(value, list):
            return []
        if isinstance(items, list):  # draft-07 tuple form
            return self.kw_prefixItems(value, items, schema, path, where)
        start = len(schema.get("prefixItems", []))
        errors = []
        for index in range(start, len(value)):
            errors += self.check(value[index], items, child(path, index), where)
        return errors

    def kw_prefixItems(self, value: Any, items: Any, schema: dict, path: str, where: str) -> list[str]:
        if not isinstance(value, list):
            return []
        errors = []
        for index in range(min(len(value), len(items))):
            errors += self.check(value[index], items[index], child(path, index),
                                 f"{where}/{index}")
        return errors

    def kw_minItems(self, value: Any, limit: Any, schema: dict, path: str, where: str) -> list[str]:
        if isinstance(value, list) and len(value) < limit:
            return [f"{path}: has {len(value)} items, needs at least {limit}"]
        return []

    def kw_maxItems(self, value: Any, limit: Any, schema: dict, path: str, where: str) -> list[str]:
        if isinstance(value, list) and len(value) > limit:
            return [f"{path}: has {len(value)} items, allows at most {limit}"]
        return []

    def kw_uniqueItems(self, value: Any, unique: Any, schema: dict, path: str, where: str) -> list[str]:
        if not unique or not isinstance(value, list):
            return []
        for later in range(len(value)):
            for earlier in range(later):
                if equal(value[earlier], value[later]):
                    return [f"{path}: items {earlier} and {later} are equal; items must be unique"]
        return []

    def kw_minProperties(self, value: Any, limit: Any, schema: dict, path: str, where: str) -> list[str]:
        if isinstance(value, dict) and len(value) < limit:
            return [f"{path}: has {len(value)} properties, needs at least {limit}"]
        return []

    def kw_maxProperties(self, value: Any, limit: Any, schema: dict, path: str, where: str) -> list[str]:
        if isinstance(value, dict) and len(value) > limit:
            return [f"{path}: has {len(value)} properties, allows at most {limit}"]
        return []

    def kw_minLength(self, value: Any, limit: Any, schema: dict, path: str, where: str) -> list[str]:
        if isinstance(value, str) and len(value) < limit:
            return [f"{path}: is {len(value)} characters long, needs at least {limit}"]
        return []

    def kw_maxLength(self, value: Any, limit: Any, schema: dict, path: str, where: str) -> list[str]:
        if isinstance(value, str) and len(value) > limit:
            return [f"{path}: is {len(value)} characters long, allows at most {limit}"]
        return []

    def kw_pattern(self, value: Any, pattern: Any, schema: dict, path: str, where: str) -> list[str]:
        if isinstance(value, str) and not compile_pattern(pattern, where).search(value):
            return [f"{path}: {short(value)} does not match the pattern /{pattern}/"]
        return []

    def _number(self, value: Any) -> bool:
        return is_type(value, "number")

    def kw_minimum(self, value: Any, limit: Any, schema: dict, path: str, where: str) -> list[str]:
        if self._number(value) and value < limit:
            return [f"{path}: {value} is less than the minimum {limit}"]
        return []

    def kw_maximum(self, value: Any, limit: Any, schema: dict, path: str, where: str) -> list[str]:
        if self._number(value) and value > limit:
            return [f"{path}: {value} is greater than the maximum {limit}"]
        return []

    def kw_exclusiveMinimum(self, value: Any, limit: Any, schema: dict, path: str, where: str) -> list[str]:
        if isinstance(limit, bool):
            raise SchemaError(f"{where}: the draft-04 boolean form is not supported; "
                              "use a number (draft-06 and later)")
        if self._number(value) and value <= limit:
            return [f"{path}: {value} must be greater than {limit}"]
        return []

    def kw_exclusiveMaximum(self, value: Any, limit: Any, schema: dict, path: str, where: str) -> list[str]:
        if isinstance(limit, bool):
            raise SchemaError(f"{where}: the draft-04 boolean form is not supported; "
                              "use a number (draft-06 and later)")
        if self._number(value) and value >= limit:
            return [f"{path}: {value} must be less than {limit}"]
        return []

    def kw_multipleOf(self, value: Any, factor: Any, schema: dict, path: str, where: str) -> list[str]:
        if not self._number(value):
            return []
        quotient = value / factor
        if math.isclose(quotient, round(quotient), rel_tol=0, abs_tol=1e-9):
            return []
        return [f"{path}: {value} is not a multiple of {factor}"]

    def kw_allOf(self, value: Any, schemas: Any, schema: dict, path: str, where: str) -> list[str]:
        errors = []
        for index, subschema in enumerate(schemas):
            errors += self.check(value, subschema, path, f"{where}/{index}")
        return errors

    def kw_anyOf(self, value: Any, schemas: Any, schema: dict, path: str, where: str) -> list[str]:
        results = [self.check(value, s, path, f"{where}/{i}") for i, s in enumerate(schemas)]
        if any(not errors for errors in results):
            return []
        closest = min(results, key=len)
        return [f"{path}: matches none of the {len(schemas)} anyOf alternatives; the closest "
                f"fails with: {closest[0]}"]

    def kw_oneOf(self, value: Any, schemas: Any, schema: dict, path: str, where: str) -> list[str]:
        results = [self.check(value, s, path, f"{where}/{i}") for i, s in enumerate(schemas)]
        matching = [index for index, errors in enumerate(results) if not errors]
        if len(matching) == 1:
            return []
        if matching:
            return [f"{path}: matches oneOf alternatives {matching}; exactly one must match"]
        closest = min(results, key=len)
        return [f"{path}: matches none of the {len(schemas)} oneOf alternatives; the closest "
                f"fails with: {closest[0]}"]

    def kw_dependentRequired(self, value: Any, dependencies: Any, schema: dict, path: str,
                             where: str) -> list[str]:
        if not isinstance(value, dict):
            return []
        return [f"{path}: property {name!r} requires property {needed!r}"
                for name, needs in dependencies.items() if name in value
                for needed in needs if needed not in value]

    def kw_propertyNames(self, value: Any, names: Any, schema: dict, path: str, where: str) -> list[str]:
        if not isinstance(value, dict):
            return []
        errors = []
        for name in value:
            problems = self.check(name, names, child(path, name), where)
            errors += [f"{path}: property name {name!r} is invalid ({message.split(': ', 1)[-1]})"
                       for message in problems]
        return errors

    def kw_contains(self, value: Any, wanted: Any, schema: dict, path: str, where: str) -> list[str]:
        if not isinstance(value, list):
            return []
        found = sum(1 for index, item in enumerate(value)
                    if not self.check(item, wanted, child(path, index), where))
        least = schema.get("minContains", 1)
        most = schema.get("maxContains")
        if found < least:
            return [f"{path}: {found} items match the contains schema, needs at least {least}"]
        if most is not None and found > most:
            return [f"{path}: {found} items match the contains schema, allows at most {most}"]
        return []

    def kw_if(self, value: Any, condition: Any, schema: dict, path: str, where: str) -> list[str]:
        branch = "else" if self.check(value, condition, path, where) else "then"
        if branch not in schema:
            return []
        return self.check(value, schema[branch], path, f"{where.rsplit('/', 1)[0]}/{branch}")

    def _handled_elsewhere(self, value: Any, argument: Any, schema: dict, path: str, where: str) -> list[str]:
        return []

    # Checked together with the keyword they belong to (if, contains).
    kw_then = kw_else = kw_minContains = kw_maxContains = _handled_elsewhere

    def kw_not(self, value: Any, negated: Any, schema: dict, path: str, where: str) -> list[str]:
        if self.check(value, negated, path, where):
            return []
        return [f"{path}: must not match the schema at {where}"]


def compile_pattern(pattern: str, where: str) -> re.Pattern[str]:
    try:
        return re.compile(pattern)
    except re.error as exc:
        raise SchemaError(f"{where}: the pattern {pattern!r} is not a valid regular expression: "
                          f"{exc}") from None


def load_json(path: str, label: str) -> Any:
    try:
        with open(path, encoding="utf-8-sig") as handle:
            return json.load(handle)
    except FileNotFoundError:
        raise InputError(f"{path}: no such {label} file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a folder, not a {label} file") from None
    except UnicodeDecodeError:
        raise InputError(f"{path}: not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}, line {exc.lineno}, column {exc.colno}: not valid JSON: "
                         f"{exc.msg}") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror}") from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Validate JSON documents against a JSON Schema (common subset, standard "
                    "library only).",
        epilog="Exit status: 0 all documents valid, 1 some document invalid, 2 a file cannot be "
               "read, is not JSON, or the schema is broken.",
    )
    parser.add_argument("schema", metavar="SCHEMA", help="the JSON Schema file")
    parser.add_argument("documents", metavar="DOCUMENT", nargs="+", help="JSON files to check")
    parser.add_argument("--max-errors", type=int, default=20, metavar="N",
                        help="show at most N errors per document (default: 20; 0 for all)")
    args = parser.parse_args(argv)

    try:
        schema = load_json(args.schema, "schema")
    except InputError as exc:
        print(f"check_json: {exc}", file=sys.stderr)
        return 2
    validator = Validator(schema)
    status = 0
    for path in args.documents:
        try:
            errors = validator.check(load_json(path, "document"), schema, "$", "#")
        except InputError as exc:
            print(f"check_json: {exc}", file=sys.stderr)
            status = 2
            continue
        except SchemaError as exc:
            print(f"check_json: {args.schema}: broken schema at {exc}", file=sys.stderr)
            return 2
        except RecursionError:
            print(f"check_json: {path}: nested too deeply to check", file=sys.stderr)
            status = 2
            continue
        if not errors:
            print(f"{path}: valid")
            continue
        status = max(status, 1)
        print(f"{path}: {len(errors)} error{'s' if len(errors) != 1 else ''}")
        shown = errors if args.max_errors <= 0 else errors[:args.max_errors]
        for message in shown:
            print(f"  {message}")
        if len(shown) < len(errors):
            print(f"  ... and {len(errors) - len(shown)} more (use --max-errors 0 to see all)")
    if validator.unsupported:
        names = ", ".join(sorted(validator.unsupported))
        print(f"check_json: warning: the schema uses keywords this checker ignores: {names}; "
              "those constraints were not checked", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
