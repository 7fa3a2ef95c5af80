"""Front matter on the site: what `check` passes, the site builds and uses as written (on prose pages
and RFCs alike); what `check` reports, `site build` refuses with the same finding before mkdocs runs."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from support.helpers import diagnose
from support.site_builds import snapshot
from wopgen.cli import cli
from wopgen.generate.writer import write_tree

DOC = "spec/v1/overview.md"
RFC = "spec/rfcs/0001-things.md"


def site_build(root: Path, out: Path) -> Any:
    return CliRunner().invoke(cli, ["--root", str(root), "site", "build", "--no-cache", "--out", str(out)])


def test_a_page_check_passes_builds_with_its_front_matter(make_corpus: Callable[..., Path], tmp_path: Path) -> None:
    def edit(files: dict[str, Any]) -> None:
        files[DOC] = (
            "---\ntitle: Overview & <script>alert(1)</script>\n"
            'description: \'The "run" surface"><script>alert(2)</script>\'\nhide: [navigation]\n---\n\n' + files[DOC]
        )
        files[RFC] = "---\ntitle: The RFC process\nhide:\n  - toc\n---\n" + files[RFC]

    root = make_corpus(edit)
    assert diagnose(root) == []
    result = site_build(root, tmp_path / "site")
    assert result.exit_code == 0, result.output
    built = snapshot(tmp_path / "site")
    overview = built["spec/v1/overview/index.html"].decode()
    assert "<title>Overview &amp; &lt;script&gt;alert(1)&lt;/script&gt; - " in overview
    assert '<meta name="description" content="The &quot;run&quot; surface&quot;&gt;&lt;script&gt;' in overview
    assert "alert(1)</script>" not in overview and "alert(2)</script>" not in overview
    assert 'data-md-type="navigation" hidden' in overview and 'data-md-type="toc" hidden' not in overview
    rfc = built["rfcs/0001-things/index.html"].decode()
    assert "<title>The RFC process - " in rfc and 'data-md-type="toc" hidden' in rfc
    for page in (overview, rfc):
        assert "hide:" not in page and "<hr" not in page  # the front matter is read, not shown


def test_site_build_refuses_what_check_reports_at_the_same_place(
    make_corpus: Callable[..., Path], tmp_path: Path
) -> None:
    def edit(files: dict[str, Any]) -> None:
        files[DOC] = "---\ntitle: Overview\ntemplate: ../../etc/passwd\n---\n" + files[DOC]
        files[RFC] = "---\nsearch: true\n---\n" + files[RFC]

    root = make_corpus(edit)
    assert [(d.rule, d.path, d.line) for d in diagnose(root)] == [
        ("doc-front-matter-value", RFC, 2),
        ("doc-front-matter-template", DOC, 3),
    ]
    out = tmp_path / "site"
    write_tree({"keep.txt": "previous build"}, out)
    before = snapshot(out)
    result = site_build(root, out)
    assert result.exit_code == 1
    assert "template '../../etc/passwd' is not a template of the site's theme" in result.output
    assert "search must be a mapping, not true" in result.output
    assert "problems that stop site build" in result.output and "mkdocs refused" not in result.output
    assert snapshot(out) == before
