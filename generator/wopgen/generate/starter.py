"""`wopgen init`: the files of a minimal corpus that `wopgen check` passes at once.

Settings (pyproject.toml with [tool.wopgen], naming the site title, the repository URL and the `$id`
base), one schema with a valid and an invalid example, one RFC from the RFC template, one prose page
and a changelog. Pure: returns {relative path: text}; the CLI writes it.
"""

from __future__ import annotations

import datetime as dt

from wopgen.generate.rfc import one_line, slug
from wopgen.templates import environment

FIRST_RFC_TITLE = "Start the specification"


class StarterError(ValueError):
    """An init option cannot give a corpus that checks clean (the message says which)."""


def _one_line(value: str, what: str) -> None:
    if not one_line(value):
        raise StarterError(f"{what} must be one line of UTF-8 text, without control characters (got {value!r})")


def starter_files(title: str, id_base: str, repository_url: str, author: str, today: dt.date) -> dict[str, str]:
    if not title.strip():
        raise StarterError("the site title must not be empty")
    for value, what in ((title, "--title"), (id_base, "--id-base"), (repository_url, "--repository-url")):
        _one_line(value, what)
    _one_line(author, "--author")
    if not id_base.endswith("/") or "://" not in id_base:
        raise StarterError(f"--id-base must be an absolute URL ending with '/' (got {id_base!r})")
    if repository_url and not repository_url.startswith(("https://", "http://")):
        raise StarterError(f"--repository-url must be an http(s) URL (got {repository_url!r})")
    init = environment("init")
    rfc_file = f"0001-{slug(FIRST_RFC_TITLE)}.md"
    values = {"title": title.strip(), "id_base": id_base, "repository_url": repository_url, "rfc_file": rfc_file}
    rfc = (
        environment("rfc")
        .get_template("rfc.md.j2")
        .render(number="0001", title=FIRST_RFC_TITLE, author=author, date=today.isoformat())
    )
    return {
        "pyproject.toml": init.get_template("pyproject.toml.j2").render(**values),
        "schemas/greeting.schema.json": init.get_template("greeting.schema.json.j2").render(**values),
        "schemas/examples/greeting/valid/hello.json": init.get_template("valid.json.j2").render(),
        "schemas/examples/greeting/invalid/empty-text.json": init.get_template("invalid.json.j2").render(),
        "schemas/examples/greeting/invalid/empty-text.why": init.get_template("invalid.why.j2").render(),
        "spec/v1/overview.md": init.get_template("overview.md.j2").render(**values),
        f"spec/rfcs/{rfc_file}": rfc,
        "CHANGELOG.md": init.get_template("CHANGELOG.md.j2").render(**values),
    }
