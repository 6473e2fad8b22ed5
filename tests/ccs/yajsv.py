"""A stand-in for ``yajsv`` (github.com/neilpa/yajsv), which the Contest API's ``check-api.sh``
calls to validate answers against the specification's JSON schemas, over the ``jsonschema``
package, with the flags that script uses::

    yajsv.py [-q] -s SCHEMA [-r 'DIR/*.json' ...] DOCUMENT...

``-s`` the schema to validate with, ``-r`` schemas it may refer to (a glob; referred to by their
``$id``), ``-q`` print failures only. Prints ``<document>: pass`` or ``<document>: fail: <error>``
per error; exits 0 when every document is valid, 1 when one is not, 4 for a usage or schema error
(yajsv's codes as ``check-api.sh`` reads them).
"""

from __future__ import annotations

import argparse
import glob
import json
import sys
from pathlib import Path

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

USAGE_ERROR = 4


def validate(schema_path: str, references: list[str], documents: list[str], quiet: bool) -> int:
    """Validate ``documents`` (paths) against the schema at ``schema_path``; the yajsv exit code."""
    schemas = {}
    for pattern in references:
        for path in glob.glob(pattern):
            schemas[path] = json.loads(Path(path).read_text())
    schema = json.loads(Path(schema_path).read_text())
    registry: Registry = Registry().with_resources(
        (s.get("$id", Path(p).name), Resource.from_contents(s, default_specification=DRAFT202012))
        for p, s in [*schemas.items(), (schema_path, schema)]
    )
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema, registry=registry)
    failed = False
    for document in documents:
        errors = sorted(validator.iter_errors(json.loads(Path(document).read_text())), key=lambda e: list(e.path))
        for error in errors:
            where = "/".join(map(str, error.absolute_path))
            print(f"{document}: fail: {where}: {error.message[:300]}")
        if not errors and not quiet:
            print(f"{document}: pass")
        failed = failed or bool(errors)
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    """Command-line entry: the exit code."""
    parser = argparse.ArgumentParser(description="validate JSON documents against a JSON schema (yajsv flags)")
    parser.add_argument("-q", action="store_true", help="print failures only")
    parser.add_argument("-s", required=True, help="schema")
    parser.add_argument("-r", action="append", default=[], help="referenced schemas (glob)")
    parser.add_argument("documents", nargs="+")
    try:
        args = parser.parse_args(argv)
        return validate(args.s, args.r, args.documents, args.q)
    except SystemExit:
        return USAGE_ERROR
    except (OSError, ValueError, SchemaError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return USAGE_ERROR


if __name__ == "__main__":
    sys.exit(main())
