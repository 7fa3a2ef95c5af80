"""The docs site as a pure function of the corpus: `render(corpus) -> {path: text}`.

The tree is a mkdocs project: `mkdocs.yml` (which inherits the base configuration `site/mkdocs.yml`
and adds the nav) and `docs/` with every page, the stylesheet and the raw schemas. `wopgen site
build` writes it to a private staging folder and runs mkdocs on it (see `wopgen.generate.site.build`).
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape as escape_html
from pathlib import Path

import yaml

from wopgen import templates
from wopgen.corpus import Corpus
from wopgen.corpus.events import event_types
from wopgen.corpus.rfc import Rfc
from wopgen.diagnostics import Rule
from wopgen.generate.host import missing_schemas
from wopgen.generate.site import api as site_api
from wopgen.generate.site import events as site_events
from wopgen.generate.site import reference as site_reference
from wopgen.generate.site import rfcs as site_rfcs
from wopgen.generate.site import schemas as site_schemas
from wopgen.generate.site import tryit
from wopgen.generate.site.blocks import BLOCKS
from wopgen.generate.site.context import EDIT_URI, Pages, SiteContext
from wopgen.generate.site.paths import CHANGELOG, RFCS, SCHEMAS, SECURITY, Target
from wopgen.generate.site.tables import TABLES

# The base configuration ships with the toolchain (site/mkdocs.yml, see wopgen.templates).
BASE_CONFIG = templates.site_config()
DOCS = "docs"

_BANNER = re.compile(r"^>\s*\*\*Status:\s*([A-Za-z]+)\*\*\s*(?:[·:\-]\s*)?(.*)$")
_ADMONITION = {
    "stable": "success",
    "stabilizing": "info",
    "draft": "warning",
    "experimental": "example",
    "deprecated": "danger",
}
_RELEASE_DATE = re.compile(r"^## \[[^\]]+\] - (\d{4}-\d{2}-\d{2})\s*$", re.M)


def _banner(markdown: str, line: int) -> str:
    """Replace the status banner blockquote on `line` (1-based) with an admonition."""
    lines = markdown.split("\n")
    match = _BANNER.match(lines[line - 1].strip())
    if match is None:
        return markdown
    level, rest = match.groups()
    kind = _ADMONITION.get(level.lower(), "note")
    block = [f'!!! {kind} "Status: {level}"']
    if rest.strip():
        block += ["", f"    {rest.strip()}"]
    lines[line - 1 : line] = block
    return "\n".join(lines)


def spec_pages(site: SiteContext) -> Pages:
    out: Pages = {}
    for path in sorted(site.corpus.docs):
        doc = site.corpus.docs[path]
        page = site.paths.doc_page(path)
        # Links first, on the text the reader parsed: the banner's admonition body is indented.
        text = site.paths.rewrite(doc, page)
        banner = doc.first_blockquote()
        if banner is not None:
            text = _banner(text, banner[0])
        out[page] = site.render("prose.md.j2", body=text)
    return out


@dataclass(frozen=True)
class Parts:
    """The optional pages the corpus has material for. A page without any (a corpus `wopgen init` wrote
    has no API, events or invariants) is left out, with its place in the nav and on the home page,
    rather than published to say there is nothing to show."""

    events: bool  # the event catalogue: a `RunEventType` enum
    capabilities: bool  # a discovery schema with an `executionModel`
    api: bool  # an API folder with files (pages that cannot render say why)
    security: bool  # an invariants file
    conformance: bool  # the schemas `wopgen conformance` holds a host to, without which it refuses to run
    changelog: bool


def parts(site: SiteContext) -> Parts:
    corpus = site.corpus
    return Parts(
        events=bool(event_types(corpus)),
        capabilities=site_events.execution_model(site) is not None,
        api=bool(corpus.api),
        security=corpus.invariants is not None,
        conformance=not missing_schemas(corpus),
        changelog=corpus.changelog is not None,
    )


def changelog_page(site: SiteContext) -> Pages:
    log = site.corpus.changelog
    return {} if log is None else {CHANGELOG: site.render("prose.md.j2", body=site.paths.rewrite(log, CHANGELOG))}


def _spec_order(site: SiteContext) -> list[str]:
    """Prose pages, the overview first, then by path."""
    return sorted(site.corpus.docs, key=lambda p: (Path(p).stem != "overview", p))


def _title(site: SiteContext, path: str) -> str:
    """A page's title as the home page and the navigation show it: its H1, where raw HTML is text unless
    `[tool.wopgen.site] raw-html = true`, as it is in the page's own heading."""
    heading = site.corpus.docs[path].title
    text = heading.text if heading is not None else Path(path).stem
    return text if site.corpus.settings.site.raw_html else escape_html(text, quote=False)


def home(site: SiteContext, shown: Parts) -> str:
    corpus = site.corpus
    specs = [
        {
            "title": _title(site, p),
            "href": site.paths.href("index.md", Target(site.paths.doc_page(p))),
        }
        for p in _spec_order(site)
    ]
    accepted = sum(1 for r in corpus.rfcs.values() if r.status == "Accepted")
    count = len(site_events.events(site))
    catalogue = f"the [event catalogue]({site_events.EVENTS}) ({count} event type{'' if count == 1 else 's'})"
    further = [catalogue] if shown.events else []
    further += [f"the [capabilities]({site_events.CAPABILITIES}) a host advertises"] if shown.capabilities else []
    reference = [f"the [rule catalogue]({site_reference.RULES}) of `wopgen check`"]
    reference += [f"the [security invariants]({SECURITY})"] if shown.security else []
    reference += [f"the [conformance scenarios]({site_reference.CONFORMANCE})"] if shown.conformance else []
    reference += [f"the [changelog]({CHANGELOG})"] if shown.changelog else []
    return site.render(
        "home.md.j2",
        title=corpus.settings.conventions.site_title,
        summary=corpus.settings.site.description.strip().rstrip("."),
        specs=specs,
        schemas=len(corpus.schemas),
        examples=len(corpus.examples),
        rfcs=len(corpus.rfcs),
        accepted=accepted,
        schema_pages="".join((" and " if 0 < n == len(further) - 1 else ", ") + item for n, item in enumerate(further)),
        api=shown.api,
        reference=_series(reference),
    )


def _series(items: list[str]) -> str:
    """`a`, `a and b`, `a, b and c`, the first letter capitalised."""
    text = items[-1] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
    return text[:1].upper() + text[1:]


def nav(site: SiteContext, shown: Parts) -> list[object]:
    """The navigation every page embeds. Its size does not grow with the corpus's schemas or RFCs:
    each of those sections lists its index page, and the pages it links to stay out of the nav
    (`not_in_nav`), found from the index and by search. Pages the corpus has no material for are not
    in it (see `Parts`)."""
    spec: list[object] = []
    for path in _spec_order(site):
        spec.append({_title(site, path): site.paths.doc_page(path)})
    schemas: list[object] = [site_schemas.INDEX]
    schemas += [{"Event catalogue": site_events.EVENTS}] if shown.events else []
    schemas += [{"Capabilities": site_events.CAPABILITIES}] if shown.capabilities else []
    reference: list[object] = [{"Rule catalogue": site_reference.RULES}]
    reference += [{"Security invariants": SECURITY}] if shown.security else []
    reference += [{"Conformance scenarios": site_reference.CONFORMANCE}] if shown.conformance else []
    reference += [{"Changelog": CHANGELOG}] if shown.changelog else []
    api: list[object] = [{"API": [*site_api.nav(site), *tryit.nav(site)]}] if shown.api else []
    return [
        {"Home": "index.md"},
        {"Specification": spec},
        {"RFCs": [site_rfcs.INDEX]},
        {"Schemas": schemas},
        *api,
        {"Reference": reference},
    ]


# Pages that are not in the nav: every page of a folder whose index page is (gitignore patterns).
NOT_IN_NAV = tuple(pattern for folder in (RFCS, SCHEMAS) for pattern in (f"/{folder}/**/*.md", f"!/{folder}/index.md"))


def build_date(corpus: Corpus) -> str:
    """The newest date the corpus states (RFC dates, release dates): the site's date, never today."""
    dates: list[str] = []
    rfc: Rfc
    for rfc in corpus.rfcs.values():
        dates += [d for d in (rfc.date("Created"), rfc.date("Updated")) if d]
    if corpus.changelog is not None:
        dates += _RELEASE_DATE.findall(corpus.changelog.text)
    return max((d for d in dates if _real_date(d)), default="1970-01-01")


def _real_date(text: str) -> bool:
    """Whether `text` is a calendar date (`2026-13-45` is written like one but is not; rfc-date reports it)."""
    try:
        dt.date.fromisoformat(text)
    except ValueError:
        return False
    return True


PAGE_HOOK = Path(__file__).resolve().with_name("page_hook.py")


def config(site: SiteContext, shown: Parts, base: Path, hooks: tuple[Path, ...] = ()) -> str:
    """The staging mkdocs.yml: the base configuration, the nav, the hooks, and what
    `[tool.wopgen.site]` says (repository and edit links, a version label in the footer)."""
    settings = site.corpus.settings.site
    repo_url = site.repository[0] if site.repository else ""
    title = site.corpus.settings.conventions.site_title
    version_label = ""
    if settings.version:  # in the footer of every page (a header label is cut short on a phone)
        version_label = json.dumps(f"{title} · version {settings.version}", ensure_ascii=False)
    return site.render(
        "mkdocs.yml.j2",
        base=json.dumps(str(base)),
        hooks=[json.dumps(str(h)) for h in (PAGE_HOOK, *hooks)],
        docs=DOCS,
        title=json.dumps(title),
        nav=yaml.safe_dump(nav(site, shown), sort_keys=False, allow_unicode=True, width=1000),
        not_in_nav=NOT_IN_NAV,
        version_label=version_label,
        repo_url=json.dumps(repo_url) if repo_url else "",
        edit_uri=json.dumps(settings.edit_uri or EDIT_URI),
    )


def sources(site: SiteContext) -> dict[str, str]:
    """Each page rendered from one corpus file -> that file (for the page's edit link)."""
    corpus, paths = site.corpus, site.paths
    table = {paths.doc_page(p): p for p in corpus.docs}
    table.update({paths.rfc_page(r.path): r.path for r in corpus.rfcs.values()})
    table.update({paths.schema_page(p): p for p in corpus.schemas})
    table.update(site_api.sources(site))
    if corpus.changelog is not None:
        table[CHANGELOG] = corpus.changelog.path
    return dict(sorted(table.items()))


def render(
    corpus: Corpus,
    base: Path = BASE_CONFIG,
    hooks: tuple[Path, ...] = (),
    *,
    rules: Sequence[Rule],
    known: Mapping[str, str] | None = None,
    used: dict[str, str] | None = None,
) -> dict[str, str | bytes]:
    """The staging tree: `mkdocs.yml` plus every file under `docs/`. `hooks` are mkdocs hook files
    (the live preview uses one to re-render the corpus on every rebuild); `rules` is the rule
    catalogue the reference page lists; `known`, the pieces of HTML an earlier rendering made with
    the same code (highlighted code blocks, tables: see `staged`), by key. `used`, when given, is
    filled with the pieces this rendering's pages name, for the next one."""
    site = SiteContext(corpus, rules, known)
    shown = parts(site)
    pages: Pages = {"index.md": home(site, shown), "assets/wop.css": site.render("assets/wop.css.j2")}
    pages.update(spec_pages(site))
    pages.update(site_rfcs.pages(site))
    pages.update(site_schemas.pages(site))
    if shown.events:
        pages[site_events.EVENTS] = site_events.events_page(site)
    if shown.capabilities:
        pages[site_events.CAPABILITIES] = site_events.capabilities_page(site)
    if shown.api:
        pages.update(site_api.pages(site))
        pages.update(tryit.pages(site, pages))
    pages[site_reference.RULES] = site_reference.rules_page(site)
    if shown.security:
        pages[SECURITY] = site_reference.security_page(site)
    if shown.conformance:
        pages[site_reference.CONFORMANCE] = site_reference.conformance_page(site)
    pages.update(changelog_page(site))
    for path, text in pages.items():  # the pipe tables wopgen writes as HTML itself
        if path.endswith(".md") and isinstance(text, str):
            pages[path] = site.tables.place(text)
    tree: dict[str, str | bytes] = {f"{DOCS}/{path}": text for path, text in sorted(pages.items())}
    tree["mkdocs.yml"] = config(site, shown, base, hooks)
    tree["sources.json"] = json.dumps(sources(site), indent=2) + "\n"
    tree[BLOCKS] = site.blocks.dumps()
    tree[TABLES] = site.tables.dumps()
    if used is not None:
        used.update(site.blocks.html)
        used.update(site.tables.html)
    return tree
