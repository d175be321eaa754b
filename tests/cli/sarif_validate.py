#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""sarif_validate.py SCHEMA FILE... — validate SARIF logs against the
SARIF 2.1.0 JSON schema (tests/data/external, PROVENANCE.md) with the
draft the schema declares and format checks (uri needs python3-rfc3987).
Prints the first errors of each file; exit 1 when any file is invalid."""
import json
import sys

import jsonschema

schema = json.load(open(sys.argv[1]))
cls = jsonschema.validators.validator_for(schema)
cls.check_schema(schema)
fmt = cls.FORMAT_CHECKER if hasattr(cls, "FORMAT_CHECKER") else jsonschema.FormatChecker()
if "uri" not in fmt.checkers:
    print("sarif_validate: no uri format checker (install python3-rfc3987)", file=sys.stderr)
    sys.exit(1)
v = cls(schema, format_checker=fmt)
bad = 0
for path in sys.argv[2:]:
    errors = sorted(v.iter_errors(json.load(open(path))), key=str)
    for e in errors[:5]:
        print("%s: %s: %s" % (path, "/".join(map(str, e.absolute_path)), e.message), file=sys.stderr)
    bad += bool(errors)
sys.exit(1 if bad else 0)
