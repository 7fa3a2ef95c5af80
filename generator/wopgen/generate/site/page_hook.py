"""mkdocs hook of every `wopgen site build`: reading comfort that Markdown cannot express.

- Inline code gets a line-break opportunity (`<wbr>`) after each dot and slash, so a long
  identifier such as `agent.invocation.started` or `schemas/run-event.schema.json` wraps only at
  those points; the stylesheet forbids breaks anywhere else. Code blocks are left alone. This is
  done once the search plugin has indexed the page, so its parser does not meet the extra tags.
- Machine-written code blocks (JSON examples) come highlighted from `blocks.json`, written next to
  the staging mkdocs.yml; the page names each by a comment, replaced once the search plugin has
  indexed the page (see `wopgen.generate.site.blocks`).
- Pipe tables wopgen wrote as HTML itself come from `tables.json`, written next to the staging
  mkdocs.yml; the page names each by a comment, replaced as soon as the page is converted (so the
  search plugin reads the tables as before), and their links are resolved and checked there by
  mkdocs' own link resolver: the same relative URLs, the same warnings for a missing page, and
  anchors checked with the page's other links (see `wopgen.generate.site.tables`).
- A page's edit link points at the corpus file it was rendered from (`sources.json`, written next
  to the staging mkdocs.yml), not at the generated Markdown, which is in no repository. The theme
  shows it only when the site names a repository; a site without one is built as before.
- The text a page's front matter gives the theme to write into the page (`title`, `description`,
  `author`, `subtitle`) is escaped, so it shows as written: the theme writes it into the HTML as it
  is, where a `<` would open a tag and a `"` end the attribute it stands in.
- The RFC card's table (a pipe table of label and value, under an empty header row) names each
  label as the header of its row (`<th scope="row">`), without the empty header row: a screen
  reader then reads "Status: Accepted", not a table with blank column headers.
- The repository link the theme shows when the site names a repository stays a plain link: the
  theme's script would otherwise ask the forge's web API (api.github.com and the like) for the
  repository's stars and latest release on every page a reader opens, a request to another host
  that fails, with an error in the console, wherever the site is read offline (see `SOURCE`).
- A task list item's checkbox (pymdownx.tasklist writes it in an empty `<label>`, the item's text
  after it) is named by the item's text, so assistive technology says which item is done rather
  than announcing a checkbox with no name.
- A page left out of the navigation (a schema page, an RFC page: the nav lists only their index,
  so no page embeds a link to every schema) belongs to the section of the nearest index page in
  the nav above it, so its tab and section stay highlighted while it is read. It is not added to
  the section's entries.
"""

from __future__ import annotations

import html
import json
import posixpath
import re
from pathlib import Path
from typing import Any

from mkdocs.plugins import event_priority, get_plugin_logger
from mkdocs.structure.pages import _RelativePathTreeprocessor  # mkdocs 1.6's own link resolver (tests pin it)

_log = get_plugin_logger("wopgen")  # a warning here fails a --strict build, as mkdocs' own do

_PRE = re.compile(r"(<pre\b.*?</pre>)", re.S)
_CODE = re.compile(r"<code>([^<]+)</code>")
_BREAK_AFTER = re.compile(r"([./])(?=[^./])")
SOURCES = "sources.json"
BLOCKS = "blocks.json"
BLOCK_COMMENT = "<!-- wopgen-block:{} -->"
_BLOCK = re.compile(r"<!-- wopgen-block:([0-9a-f]+) -->(?:\n(?=\n))?")  # the blank line Markdown leaves after it
TABLES = "tables.json"
TABLE_COMMENT = "<!-- wopgen-table:{} -->"
_TABLE = re.compile(r"<!-- wopgen-table:([0-9a-f]+) -->(?:\n(?=\n))?")
_HREF = re.compile(r'<a href="([^"]*)">')
_ANCHOR_TAGS = re.compile(r'<a href="[^"]*">|</a>')
_STRUCTURE = re.compile(r"(?:\n?</?(?:table|thead|tbody|tr|th|td)>)+\n?")
# A table's search text on the page while the search plugin reads it, then the table again.
_SEARCHED = "<!-- wopgen-searched -->{}<!-- /wopgen-searched -->"
_SEARCHED_TABLE = re.compile(r"<!-- wopgen-searched -->.*?<!-- /wopgen-searched -->", re.S)
_placed: dict[str, list[str]] = {}  # page -> its tables, resolved, in page order, until put back
# Front matter keys whose text the theme writes into a page's HTML unescaped.
PLAIN_META = ("title", "description", "author", "subtitle")
# An ampersand that does not start an entity: Python-Markdown writes such an `&` (in text or in an
# attribute) as `&amp;` and leaves entities as they are.
AMP = re.compile(r"&(?!(?:\#[0-9]+|\#x[0-9a-f]+|[0-9a-z]+);)", re.I)


# The RFC card (rfc.md.j2): its table's empty header row, and a row's bold first cell (its label).
_CARD_TABLE = re.compile(r'(<div class="wop-card">\s*<table>)(.*?)(</table>)', re.S)
_EMPTY_HEAD = re.compile(r"\s*<thead>\s*<tr>\s*(?:<th></th>\s*)+</tr>\s*</thead>")
_LABEL_CELL = re.compile(r"<tr>(\s*)<td><strong>(.*?)</strong></td>", re.S)


def card_row_headers(html: str) -> str:
    """The RFC card's labels as row headers, without the empty header row (see the module)."""

    def rows(match: re.Match[str]) -> str:
        body = _LABEL_CELL.sub(r'<tr>\1<th scope="row">\2</th>', _EMPTY_HEAD.sub("", match[2], count=1))
        return match[1] + body + match[3]

    return _CARD_TABLE.sub(rows, html)


# A task list item as pymdownx.tasklist writes it: the checkbox in an empty label, then the item's
# text up to the end of its line (a nested list, a closing tag or a new line ends it).
_TASK = re.compile(
    r'(<label class="task-list-control"><input type="checkbox"(?![^>]*aria-label))([^>]*>'
    r'(?:<span class="task-list-indicator"></span>)?</label>)([^\n]*?)(?=</li>|</p>|<ul|<ol|\n|$)'
)
_TAG = re.compile(r"<[^>]*>")


def name_tasks(content: str) -> str:
    """Each task list checkbox named by its item's text (see the module)."""

    def named(match: re.Match[str]) -> str:
        text = " ".join(html.unescape(_TAG.sub("", match[3])).split())
        if not text:
            return match[0]
        return match[1] + ' aria-label="' + html.escape(text, quote=True) + '"' + match[2] + match[3]

    return _TASK.sub(named, content)


def wrap_identifiers(html: str) -> str:
    parts = _PRE.split(html)
    for index in range(0, len(parts), 2):  # the even parts lie outside <pre> blocks
        parts[index] = _CODE.sub(
            lambda m: "<code>" + _BREAK_AFTER.sub(r"\1<wbr>", m.group(1)) + "</code>", parts[index]
        )
    return "".join(parts)


@event_priority(-100)  # after the search plugin has indexed the page: `<wbr>` adds no words to it
def on_page_context(context: Any, page: Any, config: Any, nav: Any) -> Any:
    content = page.content
    if "<!-- wopgen-searched -->" in content:
        found = iter(_placed.pop(page.file.src_uri))
        content = _SEARCHED_TABLE.sub(lambda m: next(found), content)
    content = wrap_identifiers(content)
    if 'class="task-list-control"' in content:
        content = name_tasks(content)
    if '<div class="wop-card">' in content:
        content = card_row_headers(content)
    if "<!-- wopgen-block:" in content:
        blocks = _table(Path(config.config_file_path).with_name(BLOCKS))
        content = _BLOCK.sub(lambda m: _named(blocks, m, page) or m[0], content)
    page.content = content
    return context


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    """Each table named on the page with its links resolved and checked; what the search plugin
    reads in its place is its text alone (see `search_text`), the table itself is put back once
    the page is indexed (`on_page_context`)."""
    if "<!-- wopgen-table:" not in html:
        return html
    tables = _table(Path(config.config_file_path).with_name(TABLES))
    links = _RelativePathTreeprocessor(page.file, files, config)  # what mkdocs does to a link in Markdown

    def resolved(match: re.Match[str]) -> str:
        url = AMP.sub("&amp;", links.path_to_url(match[1]))
        return '<a href="' + url.replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;") + '">'

    placed: list[str] = []
    _placed[page.file.src_uri] = placed  # (a fresh list: a build stopped by an error leaves no tables behind)

    def place(match: re.Match[str]) -> str:
        table = _named(tables, match, page)
        if table is None:
            return match[0]
        placed.append(_HREF.sub(resolved, table))
        return _SEARCHED.format(search_text(placed[-1]))

    html = _TABLE.sub(place, html)
    if page.links_to_anchors is not None:  # mkdocs checks these anchors once every page is converted
        for target, anchors in links.links_to_anchors.items():
            known = page.links_to_anchors.setdefault(target, {})
            for anchor, url in anchors.items():
                known.setdefault(anchor, url)
    return html


def _named(found: dict[str, str], match: re.Match[str], page: Any) -> str | None:
    """The HTML a comment of the staged page names; None, with a warning, when the staging tree lost
    it: a page never silently misses a table or an example."""
    html = found.get(match[1])
    if html is None:
        _log.warning("%s: the staged HTML named %s is missing; rebuild the site", page.file.src_uri, match[0].strip())
    return html


def search_text(table: str) -> str:
    """What the search plugin indexes of `table`, with less markup for its parser to walk: the
    plugin keeps the text and the `<code>` tags of a table and turns each run of white space
    between its tags into one space; so the cells' HTML without the table's own tags and the
    links' tags, one line apart, is indexed the same. The comments keep the white space before
    and after the table apart from the cells' text, as the table's tags did."""
    return "\n<!---->" + _STRUCTURE.sub("\n", _ANCHOR_TAGS.sub("", table)).strip("\n") + "<!---->\n"


_read: dict[Path, tuple[tuple[int, int], dict[str, str]]] = {}


def _table(table: Path) -> dict[str, str]:
    """A JSON object written next to the staging mkdocs.yml (`sources.json`, `blocks.json`), read
    once per version of the file (not once per page, which would make a build's time grow with the
    square of its page count)."""
    try:
        stat = table.stat()
    except OSError:
        return {}
    version = (stat.st_mtime_ns, stat.st_size)
    known = _read.get(table)
    if known is None or known[0] != version:
        known = (version, dict(json.loads(table.read_text(encoding="utf-8"))))
        _read[table] = known
    return known[1]


# The theme's repository link, as its `partials/source.html` writes it: the attribute is what its
# script looks for to fetch the repository's facts from the forge's API; without it the link, its
# icon and the repository's name show as before.
SOURCE = ' class="md-source" data-md-component="source"'


def _plain_source(html: str) -> str:
    return html.replace(SOURCE, ' class="md-source"')


def on_post_page(output: str, page: Any, config: Any) -> str:
    return _plain_source(output)


def on_post_template(output_content: str, template_name: str, config: Any) -> str:
    """The same for the pages the theme writes from a template alone (404.html)."""
    return _plain_source(output_content)


EDIT_BUTTON = "content.action.edit"  # the theme feature that shows a page's edit link


def on_config(config: Any) -> Any:
    """With a repository named, the theme shows the edit link each page has (`on_page_markdown`)."""
    if config.get("repo_url") and config.get("edit_uri"):
        features = list(config.theme.get("features") or [])
        if EDIT_BUTTON not in features:
            config.theme["features"] = [*features, EDIT_BUTTON]
    return config


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    for key in PLAIN_META:
        value = page.meta.get(key)
        if isinstance(value, str):
            page.meta[key] = html.escape(value)
    repo, edit = config.get("repo_url"), config.get("edit_uri")
    if not repo or not edit:
        return markdown
    source = _table(Path(config.config_file_path).with_name(SOURCES)).get(page.file.src_uri)
    page.edit_url = repository_file(repo, edit, source) if source else None
    return markdown


def repository_file(repository: str, edit_uri: str, path: str) -> str:
    """The URL of the repository file `path` (a URL path, quoted as it should be) under `edit_uri`."""
    return repository.rstrip("/") + "/" + edit_uri.strip("/") + "/" + path


def on_nav(nav: Any, config: Any, files: Any) -> Any:
    listed = {page.file.src_uri: page for page in nav.pages}
    for file in files.documentation_pages():
        page = file.page
        if page is None or file.src_uri in listed:
            continue
        folder = posixpath.dirname(file.src_uri)
        while folder:
            index = listed.get(f"{folder}/index.md")
            if index is not None:
                page.parent = index.parent
                break
            folder = posixpath.dirname(folder)
    return nav
