"""RFC pages of the docs site: the index grouped by status, and one page per RFC with a metadata card."""

from __future__ import annotations

import re
from dataclasses import dataclass

from wopgen.corpus.conventions import looks_like_path
from wopgen.corpus.rfc import FIELDS, HEADER_ROW, Rfc
from wopgen.generate.site.context import Pages, SiteContext
from wopgen.generate.site.html import cell as escape
from wopgen.generate.site.paths import RFCS, Target, front_matter

INDEX = f"{RFCS}/index.md"
# Index order: what is in force first, then what is under way, then the record of the rest.
_GROUP_ORDER = ("Accepted", "Active", "Draft", "Superseded", "Withdrawn", "Rejected")
_TICKED = re.compile(r"`([^`]+)`")
_DATE = re.compile(r"^\s*(\d{4}-\d{2}-\d{2})\s*(.*)$", re.S)


@dataclass(frozen=True)
class RfcRow:
    number: str
    title: str
    status: str
    compatibility: str
    updated: str
    href: str


def label(rfc: Rfc) -> str:
    number = rfc.number if rfc.number is not None else rfc.file_number
    return f"RFC {number:04d}" if number is not None else rfc.path


def badge(status: str) -> str:
    css = re.sub(r"[^a-z]", "", status.lower()) or "unknown"
    return f'<span class="wop-badge wop-badge--{css}">{escape(status) or "unknown"}</span>'


def _ordered(site: SiteContext) -> list[Rfc]:
    return [site.corpus.rfcs[p] for p in sorted(site.corpus.rfcs)]


def index(site: SiteContext) -> str:
    groups: dict[str, list[RfcRow]] = {}
    for rfc in _ordered(site):
        row = RfcRow(
            number=label(rfc),
            title=escape(rfc.title or rfc.path),
            status=badge(rfc.status),
            compatibility=escape(rfc.compatibility or "—"),
            updated=escape(rfc.date("Updated") or rfc.date("Created") or "—"),
            href=site.paths.href(INDEX, Target(site.paths.rfc_page(rfc.path))),
        )
        groups.setdefault(rfc.status or "Unknown", []).append(row)
    order = [s for s in _GROUP_ORDER if s in groups] + sorted(s for s in groups if s not in _GROUP_ORDER)
    return site.render(
        "rfc-index.md.j2", groups=[(status, groups[status]) for status in order], total=len(site.corpus.rfcs)
    )


def _affects(site: SiteContext, page: str, cell: str) -> tuple[list[str], bool]:
    """Each item of the Affects cell, with every path the site shows turned into a link, and whether every
    item names a file. What `affects-paths` does not read as a path (a field, a route, an error code in
    backticks, when it is `path-like`) stays code; text outside backticks is escaped, code is not."""
    path_like = site.corpus.settings.conventions.affects_paths == "path-like"

    def shown(token: str) -> tuple[str, bool]:
        path = token.strip()
        if path_like and not looks_like_path(path):
            return f"`{token}`", False
        href = site.paths.href_to(page, path)
        return (f"[`{path}`]({href})" if href else f"`{path}` (repository file)"), True

    items, every_file = [], True
    for item in (part.strip() for part in cell.split("·")):
        if not item:
            continue
        pieces, named = [], False
        for index, part in enumerate(_TICKED.split(item)):
            if index % 2:
                text, is_path = shown(part)
                pieces.append(text)
                named = named or is_path
            else:
                pieces.append(escape(part))
        items.append("".join(pieces))
        every_file = every_file and named
    return items, every_file


def _related(site: SiteContext, page: str, rfc: Rfc, name: str) -> str:
    numbers = rfc.references(name)
    return ", ".join(site.rfc_link(page, n) for n in numbers) if numbers else "—"


def _more_rows(site: SiteContext, rfc: Rfc, lines: list[str]) -> list[tuple[str, str]]:
    """(name, value) of each row of the metadata table beyond the fields every RFC has (a `Withdrawal note`),
    in file order, its value as the page's `lines` hold it (links rewritten for the site)."""
    rows = []
    for name, found in rfc.header.items():
        row = HEADER_ROW.match(lines[found.line - 1].strip()) if name not in FIELDS else None
        if row is not None:
            rows.append((escape(name), site.paths.shown(row.group(2).strip())))
    return rows


def page(site: SiteContext, rfc: Rfc) -> str:
    path = site.paths.rfc_page(rfc.path)
    # Links are rewritten on the whole file, where the loader found them (no second parse), and
    # keep its lines; the front matter (put at the top of the page), the title and the metadata
    # table (shown as the card) are then cut out.
    lines = site.paths.rewrite_links(rfc.doc, path)
    front = rfc.doc.front_matter_lines
    title_line = rfc.doc.title.line if rfc.doc.title else 0
    table_start = rfc.table_line
    table_end = table_start
    while table_start and table_end < len(lines) and lines[table_end].strip().startswith("|"):
        table_end += 1
    body_lines = [
        line
        for number, line in enumerate(lines, start=1)
        if number > front and number != title_line and not (table_start and table_start <= number <= table_end)
    ]
    body = site.paths.shown("\n".join(body_lines).strip("\n") + "\n")
    updated = _DATE.match(rfc.get("Updated"))
    affected, every_file = _affects(site, path, rfc.get("Affects"))
    return site.render(
        "rfc.md.j2",
        front_matter=front_matter(rfc.doc),
        heading=escape(rfc.doc.title.text) if rfc.doc.title else label(rfc),
        status=badge(rfc.status),
        compatibility=escape(rfc.compatibility or "—"),
        authors=escape(rfc.get("Author(s)") or "—"),
        created=escape(rfc.date("Created") or rfc.get("Created") or "—"),
        updated=escape(updated.group(1) if updated else (rfc.get("Updated") or "—")),
        history=escape(updated.group(2).strip().strip("()").strip()) if updated else "",
        affects=affected,
        affects_files=every_file,
        supersedes=_related(site, path, rfc, "Supersedes"),
        superseded_by=_related(site, path, rfc, "Superseded by"),
        more=_more_rows(site, rfc, lines),
        index=site.paths.href(path, Target(INDEX)),
        body=body,
    )


def pages(site: SiteContext) -> Pages:
    out: Pages = {INDEX: index(site)}
    for rfc in _ordered(site):
        out[site.paths.rfc_page(rfc.path)] = page(site, rfc)
    return out
