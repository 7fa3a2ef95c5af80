"""Front matter rules: each fails on front matter the site would fail on, show as text or misuse, at
the page and line that hold it, and passes front matter the site uses as written."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import material
import pytest

from support.helpers import hits
from wopgen.checks.site_theme import PAGE_TEMPLATES, STATUSES, site_theme
from wopgen.diagnostics import Diagnostic
from wopgen.templates import site_config

DOC = "spec/v1/overview.md"
RFC = "spec/rfcs/0001-things.md"
CHANGELOG = "CHANGELOG.md"
Findings = Callable[..., list[Diagnostic]]


def _front(findings: Findings, pages: dict[str, str]) -> list[Diagnostic]:
    """The front matter findings when each page of `pages` opens with the text given for it."""

    def edit(files: dict[str, Any]) -> None:
        for path, top in pages.items():
            files[path] = top + files[path]

    return [d for d in findings(edit) if d.rule.startswith("doc-front-matter-")]


def test_front_matter_the_site_uses_as_written_passes(findings: Findings) -> None:
    def edit(files: dict[str, Any]) -> None:
        files[DOC] = '---\ntitle: Overview of "things" & more\nhide: [navigation]\nunknown: kept\n---\n\n' + files[DOC]
        files[RFC] = (
            "---\ntemplate: main.html\nhide:\n  - toc\n  - footer\nsearch:\n  exclude: true\nstatus: new\n"
            "icon: material/file-document\ntags: [process, 2026]\ndescription: The <process>\n---\n" + files[RFC]
        )
        files[CHANGELOG] = "---\ntitle: Changes\nsearch: {boost: 2.5}\nauthor: The editors\n---\n" + files[CHANGELOG]

    assert findings(edit) == []


@pytest.mark.parametrize(
    ("template", "message"),
    [
        ("../../etc/passwd", "is not a template of the site's theme"),
        ("nothing.html", "is not a template of the site's theme"),
        ("404.html", "is a file of the site's theme, but not one it renders a page with"),
        ("partials/header.html", "is a file of the site's theme, but not one it renders a page with"),
        ("5", "must name a file of the theme, not be a number"),
    ],
)
def test_a_template_the_theme_renders_no_page_with(findings: Findings, template: str, message: str) -> None:
    found = _front(findings, {DOC: f"---\ntitle: Overview\ntemplate: {template}\n---\n"})
    assert hits(found, "doc-front-matter-template") == [(DOC, 3)]
    assert message in found[0].message
    assert found[0].hint.endswith("base.html, main.html")


@pytest.mark.parametrize("template", ["main.html", "base.html", "/main.html"])
def test_the_themes_page_templates_pass(findings: Findings, template: str) -> None:
    assert _front(findings, {DOC: f"---\ntemplate: {template}\n---\n"}) == []


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("title: [a, b]", "title must be text, not a list"),
        ("title: yes", "title must be text, not true"),
        ("title: 1.10", "title must be text, not a number"),
        ("description:", "description must be text, not empty"),
        ("hide: navigation", "hide must be a list of the parts to hide, not text"),
        ("hide: 5", "hide must be a list of the parts to hide, not a number"),
        ("hide: [navigaton, toc]", "hide names 'navigaton', which the theme does not hide"),
        ("search: true", "search must be a mapping, not true"),
        ("search: {exclude: 'no'}", "search: exclude must be true or false, not text"),
        ("search: {boost: high}", "search: boost must be a number, not text"),
        ("status: shiny", "status 'shiny' is not one the theme shows"),
        ("icon: material/no-such-icon", "icon 'material/no-such-icon' is not an icon of the site's theme"),
        ("icon: ../main", "icon '../main' is not an icon of the site's theme"),
        ("tags: events", "tags must be a list, not text"),
        ("tags: [events, [nested]]", "tags holds a list"),
    ],
)
def test_a_key_the_site_reads_with_a_value_it_cannot_use(findings: Findings, line: str, message: str) -> None:
    found = _front(findings, {RFC: f"---\nsubtitle: fine\n{line}\n---\n"})
    assert hits(found, "doc-front-matter-value") == [(RFC, 3)]
    assert found[0].message.startswith(message)


@pytest.mark.parametrize(
    ("top", "line", "message"),
    [
        ("---\ntitle: [open\n---\n", 3, "front matter is not valid YAML"),
        ("---\n- title: Overview\n---\n", 2, "front matter is a list, not a mapping"),
        ("---\n---\n", 1, "front matter is empty"),
        ("\n---\ntitle: Overview\n---\n", 2, "front matter starts on line 2, not on the page's first line"),
        ("---\ntitle: A\nhide: [toc]\ntitle: B\n---\n", 4, "front matter gives 'title' twice (first on line 2)"),
    ],
)
@pytest.mark.parametrize("page", [DOC, RFC, CHANGELOG])
def test_front_matter_the_site_cannot_read(findings: Findings, top: str, line: int, message: str, page: str) -> None:
    found = _front(findings, {page: top})
    assert hits(found, "doc-front-matter-invalid") == [(page, line)]
    assert found[0].message.startswith(message)


def test_first_lines_the_site_takes_for_metadata(findings: Findings) -> None:
    found = _front(findings, {DOC: "Editors: the working group\nStatus: draft\n\n"})
    assert hits(found, "doc-front-matter-implicit") == [(DOC, 1)]
    assert "(editors, status)" in found[0].message
    assert _front(findings, {DOC: "\n"}) == []


# --- what the theme offers, read from the installed theme itself --------------------------------

THEME = Path(material.__file__).parent / "templates"


def test_hide_names_are_those_the_installed_themes_templates_ask_for() -> None:
    asked = {
        name
        for template in THEME.rglob("*.html")
        for name in re.findall(r'"(\w+)" in page\.meta\.hide', template.read_text(encoding="utf-8"))
    }
    hidden = set(site_theme(site_config()).hidden)
    assert {"navigation", "toc"} <= hidden  # every version of the theme hides these
    assert hidden == asked  # and no more: a part another version hides (path) is refused where it does nothing


def test_statuses_are_those_the_themes_stylesheet_draws() -> None:
    drawn = {
        name
        for sheet in THEME.glob("assets/stylesheets/main.*.css")
        for name in re.findall(r"md-status--(\w+)", sheet.read_text(encoding="utf-8"))
    }
    assert drawn - {"encrypted"} == set(STATUSES)  # (encrypted: the encryption plugin's, set by the theme itself)


def test_the_sites_theme_offers_its_page_templates_and_a_custom_folders(tmp_path: Path) -> None:
    theme = site_theme(site_config())
    assert theme.page_templates == set(PAGE_TEMPLATES) and all(theme.has(name) for name in PAGE_TEMPLATES)
    assert theme.icon("material/file-document") and not theme.icon("material/../main")
    (tmp_path / "overrides/partials").mkdir(parents=True)
    for name in ("home.html", "404.html", "partials/extra.html"):
        (tmp_path / "overrides" / name).write_text("{% extends 'main.html' %}\n", encoding="utf-8")
    config = tmp_path / "mkdocs.yml"
    config.write_text("theme:\n  name: material\n  custom_dir: overrides\n", encoding="utf-8")
    custom = site_theme(config)
    assert custom.page_templates == {"main.html", "base.html", "home.html"}
    assert custom.page_template("home.html") and not custom.page_template("partials/extra.html")
