"""Does openapi.yaml keep every promise of the last released contract? (docs/api-versioning.md)

    python tools/api_compat.py                 # openapi.yaml against the newest api-v* tag's,
                                               # else tests/contract/openapi-released.yaml
    python tools/api_compat.py --baseline FILE|TAG [SPEC]
    python tools/api_compat.py --release       # openapi.yaml becomes the released baseline

Prints each breaking change and exits 1 when there is one. Breaking, for a client built on
the baseline: a path or operation removed; a success response removed; a response field
removed or no longer always present, or a response type widened (null where there was
none, a string where there was a number); an enum value removed; a new required request
field or parameter; a request field or parameter removed; a request type narrowed (a type,
an enum value or a union member taken away, a bound tightened, a pattern changed).
Everything else (new paths, operations, optional request fields, response fields, enum
values) is additive, and allowed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "openapi.yaml"
RELEASED = ROOT / "tests" / "contract" / "openapi-released.yaml"
TAGS = "api-v*"
#: libyaml's loader when PyYAML has it (ten times as fast on a document this size).
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
METHODS = ("get", "put", "post", "delete", "patch", "head", "options")
#: Bounds a request may not tighten: (keyword, True when a larger value is tighter).
BOUNDS = (
    ("minimum", True),
    ("exclusiveMinimum", True),
    ("minLength", True),
    ("minItems", True),
    ("maximum", False),
    ("exclusiveMaximum", False),
    ("maxLength", False),
    ("maxItems", False),
)


def read(text: str) -> dict[str, Any]:
    return yaml.load(text, Loader=LOADER)  # a safe loader, libyaml's if there


def newest_tag() -> str | None:
    """The newest release tag (api-v<semver>), if the repository has one."""
    done = subprocess.run(
        ["git", "-C", str(ROOT), "tag", "--list", TAGS, "--sort=-v:refname"],
        capture_output=True,
        text=True,
    )
    tags = done.stdout.split() if done.returncode == 0 else []
    return tags[0] if tags else None


def load_baseline(source: str | None = None) -> tuple[str, dict[str, Any]]:
    """(what it is, the document): a file, a git tag (its openapi.yaml), or the newest tag
    else the committed baseline file."""
    source = source or newest_tag() or str(RELEASED)
    if Path(source).exists():
        return source, read(Path(source).read_text(encoding="utf-8"))
    text = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{source}:openapi.yaml"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return f"{source}:openapi.yaml", read(text)


def breaking_changes(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """Every way ``new`` breaks a client written against ``old`` (empty: compatible)."""
    return _Compare(old, new).run()


class _Compare:
    def __init__(self, old: dict[str, Any], new: dict[str, Any]) -> None:
        self.old, self.new = old, new
        self.found: list[str] = []
        self.seen: set[tuple[str, int, int]] = set()

    def run(self) -> list[str]:
        new_paths = self.new.get("paths", {})
        for path, old_item in self.old.get("paths", {}).items():
            if path not in new_paths:
                self.found.append(f"{path}: path removed")
                continue
            for method in METHODS:
                if method not in old_item:
                    continue
                where = f"{method.upper()} {path}"
                if method not in new_paths[path]:
                    self.found.append(f"{where}: operation removed")
                    continue
                self.operation(where, old_item, new_paths[path], method)
        return self.found

    # -- operations ---------------------------------------------------------------------

    def operation(self, where: str, old_item: dict, new_item: dict, method: str) -> None:
        old_op, new_op = old_item[method], new_item[method]
        old_params = self.params(old_item, old_op, self.old)
        new_params = self.params(new_item, new_op, self.new)
        for key, param in new_params.items():
            if param.get("required") and not old_params.get(key, {}).get("required"):
                self.found.append(f"{where}: new required parameter {key[1]} ({key[0]})")
        for key, param in old_params.items():
            if key not in new_params:
                self.found.append(f"{where}: parameter {key[1]} ({key[0]}) removed")
            elif "schema" in param and "schema" in new_params[key]:
                self.schema(
                    f"{where} parameter {key[1]}", param["schema"], new_params[key]["schema"], True
                )
        old_body = self.deref(old_op.get("requestBody", {}), self.old)
        new_body = self.deref(new_op.get("requestBody", {}), self.new)
        if new_body.get("required") and not old_body.get("required"):
            self.found.append(f"{where}: the request body became required")
        for media, content in old_body.get("content", {}).items():
            theirs = new_body.get("content", {}).get(media)
            if theirs is None:
                self.found.append(f"{where}: request body {media} no longer accepted")
            elif "schema" in content:
                self.schema(f"{where} body", content["schema"], theirs.get("schema", {}), True)
        new_responses = new_op.get("responses", {})
        for status, response in old_op.get("responses", {}).items():
            theirs = new_responses.get(status)
            if theirs is None:
                if str(status).startswith("2"):
                    self.found.append(f"{where}: response {status} removed")
                continue
            response, theirs = self.deref(response, self.old), self.deref(theirs, self.new)
            for media, content in response.get("content", {}).items():
                other = theirs.get("content", {}).get(media)
                if other is None:
                    self.found.append(f"{where}: response {status} {media} removed")
                elif "schema" in content:
                    self.schema(
                        f"{where} response {status}",
                        content["schema"],
                        other.get("schema", {}),
                        False,
                    )

    def params(self, item: dict, op: dict, doc: dict) -> dict[tuple[str, str], dict]:
        out = {}
        for param in [*item.get("parameters", []), *op.get("parameters", [])]:
            param = self.deref(param, doc)
            out[(param.get("in", ""), param.get("name", ""))] = param
        return out

    # -- schemas ------------------------------------------------------------------------

    def deref(self, node: Any, doc: dict) -> Any:
        """``node`` with its $ref followed (in ``doc``, the document it came from)."""
        while isinstance(node, dict) and "$ref" in node:
            node = _pointer(doc, node["$ref"])
            if node is None:
                return {}
        return node

    def core(self, schema: dict, doc: dict) -> dict:
        """The one member of a nullable union (``anyOf: [X, null]``), else ``schema``."""
        for word in ("oneOf", "anyOf"):
            members = [m for m in schema.get(word, []) if _types(self, m, doc) != {"null"}]
            if len(members) == 1 and len(schema[word]) > 1:
                return self.deref(members[0], doc)
        return schema

    def schema(self, where: str, old: Any, new: Any, request: bool) -> None:
        """``new`` against ``old``: a request's (it must accept all ``old`` did) or a
        response's (it must promise all ``old`` did)."""
        old, new = self.deref(old, self.old), self.deref(new, self.new)
        if not isinstance(old, dict) or not isinstance(new, dict):
            return
        key = (str(request), id(old), id(new))
        if key in self.seen:
            return
        self.seen.add(key)
        old_types, new_types = _types(self, old, self.old), _types(self, new, self.new)
        if old_types and new_types:
            lost = old_types - _widen(new_types)
            gained = new_types - _widen(old_types)
            if request and lost:
                self.found.append(f"{where}: type narrowed (no longer {', '.join(sorted(lost))})")
            if not request and gained:
                self.found.append(f"{where}: type widened (now also {', '.join(sorted(gained))})")
        old_enum, new_enum = _enum(old), _enum(new)
        if old_enum is not None:
            if new_enum is not None and (gone := [v for v in old_enum if v not in new_enum]):
                self.found.append(f"{where}: enum value(s) removed: {gone!r}")
        elif new_enum is not None and request:
            self.found.append(f"{where}: narrowed to an enum")
        if request:
            for word, larger_tighter in BOUNDS:
                a, b = old.get(word), new.get(word)
                if b is not None and (a is None or (b > a if larger_tighter else b < a)):
                    self.found.append(f"{where}: {word} tightened to {b}")
            if new.get("pattern") is not None and new.get("pattern") != old.get("pattern"):
                self.found.append(f"{where}: pattern changed")
        old_core, new_core = self.core(old, self.old), self.core(new, self.new)
        if old_core is not old or new_core is not new:
            self.schema(where, old_core, new_core, request)
            return
        self.unions(where, old, new, request)
        self.objects(where, old, new, request)
        old_items, new_items = old.get("items"), new.get("items")
        if isinstance(old_items, dict) and isinstance(new_items, dict):
            self.schema(f"{where}[]", old_items, new_items, request)
        old_extra, new_extra = old.get("additionalProperties"), new.get("additionalProperties")
        if isinstance(old_extra, dict) and isinstance(new_extra, dict):
            self.schema(f"{where}{{}}", old_extra, new_extra, request)

    def unions(self, where: str, old: dict, new: dict, request: bool) -> None:
        old_map = (old.get("discriminator") or {}).get("mapping")
        new_map = (new.get("discriminator") or {}).get("mapping")
        if old_map and new_map:
            for tag, ref in old_map.items():
                if tag not in new_map:
                    self.found.append(f"{where}: union member {tag!r} removed")
                else:
                    self.schema(f"{where}<{tag}>", {"$ref": ref}, {"$ref": new_map[tag]}, request)
            return
        for word in ("oneOf", "anyOf"):
            if request and len(new.get(word, [])) < len(old.get(word, [])):
                self.found.append(f"{where}: {word} member(s) removed")

    def objects(self, where: str, old: dict, new: dict, request: bool) -> None:
        old_props, new_props = old.get("properties", {}), new.get("properties", {})
        old_required, new_required = set(old.get("required", [])), set(new.get("required", []))
        if request:
            for name in sorted(new_required - old_required):
                self.found.append(f"{where}: new required request field {name}")
            for name in old_props:
                if name not in new_props and new.get("additionalProperties") is False:
                    self.found.append(f"{where}: request field {name} removed")
        else:
            for name in old_props:
                if name not in new_props:
                    self.found.append(f"{where}: response field {name} removed")
            for name in sorted(old_required - new_required):
                self.found.append(f"{where}: response field {name} no longer always present")
        for name, prop in old_props.items():
            if name in new_props:
                self.schema(f"{where}.{name}", prop, new_props[name], request)


def _pointer(doc: dict, ref: str) -> Any:
    if not ref.startswith("#/"):
        return None
    node: Any = doc
    for part in ref[2:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def _types(cmp: _Compare, schema: Any, doc: dict) -> set[str]:
    """The JSON types a schema admits (empty: it does not say), unions included."""
    schema = cmp.deref(schema, doc)
    if not isinstance(schema, dict):
        return set()
    kind = schema.get("type")
    if kind is not None:
        return set(kind) if isinstance(kind, list) else {kind}
    members = schema.get("oneOf") or schema.get("anyOf")
    if members:
        out: set[str] = set()
        for member in members:
            member_types = _types(cmp, member, doc)
            if not member_types:
                return set()
            out |= member_types
        return out
    return set()


def _enum(schema: dict) -> list[Any] | None:
    """A schema's enum (``const`` as one value); a nullable enum's values and null."""
    if "enum" in schema:
        return list(schema["enum"])
    if "const" in schema:
        return [schema["const"]]
    return None


def _widen(types: set[str]) -> set[str]:
    """What ``types`` accept: an integer is a number too."""
    return types | ({"integer"} if "number" in types else set())


def main(argv: list[str]) -> int:
    if "--release" in argv:
        source, baseline = load_baseline(str(RELEASED))
        found = breaking_changes(baseline, read(SPEC.read_text(encoding="utf-8")))
        for line in found:
            print(f"breaking: {line}", file=sys.stderr)
        if found:
            return 1
        RELEASED.write_text(SPEC.read_text(encoding="utf-8"), encoding="utf-8")
        print(f"{RELEASED.relative_to(ROOT)} is now openapi.yaml")
        return 0
    args = [a for a in argv if a != "--baseline"]
    source = args[0] if "--baseline" in argv and args else None
    spec = Path(args[1] if source and len(args) > 1 else SPEC)
    label, baseline = load_baseline(source)
    found = breaking_changes(baseline, read(spec.read_text(encoding="utf-8")))
    for line in found:
        print(f"breaking: {line}")
    print(f"{spec.name} against {label}: {len(found)} breaking change(s)")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
