"""The rules the corpus loader and the API reader report: files that cannot be read, parts that
are missing, JSON and YAML that do not parse, misplaced examples, an API description of the wrong shape.

They are defined here, outside the corpus package, and listed in the catalogue like every other
rule module; the corpus package only builds diagnostics from them.
"""

from __future__ import annotations

from wopgen.diagnostics import define

MAX_LISTED = 200_000  # the most files the one walk of the disk lists (corpus/files.py)

UNREADABLE = define(
    "corpus-unreadable",
    "error",
    "A corpus file cannot be read as UTF-8 text (permissions, encoding, byte-order mark, size, a named pipe "
    "or device rather than a regular file), its name is not UTF-8, or it would be reached through a link to a "
    "folder (such links are not followed); or a folder is named like the files a part reads (`x.schema.json/`).",
)
OUTSIDE_ROOT = define(
    "corpus-outside-root",
    "error",
    "A corpus path resolves outside the corpus root (for example through a symlink); it is not read.",
)
MISSING_PART = define(
    "corpus-missing",
    "warning",
    "A part of the corpus does not exist: any folder or file that [tool.wopgen] names (an error, since the "
    "checks of that part would pass in silence), or the default schemas, docs or rfcs folder (a warning).",
)
INVALID_YAML = define("corpus-invalid-yaml", "error", "A YAML file in the corpus does not parse.")
FILE_LIMIT = define(
    "corpus-file-limit",
    "warning",
    f"The repository holds more than {MAX_LISTED:,} files outside ignored folders; only the first are listed, "
    "so a check that looks a file up may call a later one missing.",
)
SCHEMA_INVALID_JSON = define(
    "schema-invalid-json",
    "error",
    "A schema file is not valid JSON, or holds a number no reader keeps as one (NaN, Infinity, a number past "
    "the range of a double such as 1e400); the position of the error is given.",
)
EXAMPLE_INVALID_JSON = define(
    "example-invalid-json",
    "error",
    "An example file is not valid JSON, or holds a number no reader keeps as one (NaN, Infinity, a number past "
    "the range of a double such as 1e400); the position of the error is given.",
)
EXAMPLE_MISPLACED = define(
    "example-misplaced",
    "error",
    "A file under the examples folder is not at <schema-name>/valid/*.json or <schema-name>/invalid/*.json.",
)
API_SHAPE = define(
    "api-shape",
    "error",
    "The API description breaks its format: an unknown or missing key, or a value of the wrong kind.",
)

DUPLICATE_KEY = define(
    "corpus-duplicate-key",
    "error",
    "A JSON object or YAML mapping writes the same key twice; parsers keep only the later value, so the "
    "earlier one is silently lost.",
    '{"required": ["a"], "type": "object", "required": ["b"]}',
)
EMPTY = define(
    "corpus-empty",
    "error",
    "No schema, no RFC and no prose page was found: every check would pass on nothing (a wrong --root or "
    "[tool.wopgen] folder setting).",
)
API_FORMAT = define(
    "api-format",
    "error",
    "The API folder holds neither the declarative operations.yaml/channels.yaml nor an OpenAPI 3.1 or "
    "AsyncAPI 3.x document, so nothing in it would be checked.",
)
INSTANCE_INVALID_JSON = define(
    "instance-invalid-json",
    "error",
    "A file an `instances` glob of [tool.wopgen] matches is not valid JSON, or holds a number no reader keeps "
    "as one (NaN, Infinity, a number past the range of a double such as 1e400); the position of the error is "
    "given.",
)
INSTANCE_UNMATCHED = define(
    "instance-unmatched",
    "warning",
    "An `instances` glob of [tool.wopgen] matches no file of the corpus (or only files `exclude` names), so "
    "nothing is validated against its schema (a mistyped folder or extension would otherwise check nothing in "
    "silence).",
)
