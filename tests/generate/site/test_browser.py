"""The built docs site in a real browser: headless Chromium over loopback, driven by Selenium.

Builds the site from the repository's own corpus, serves it on 127.0.0.1 with a stdlib HTTP
server, and checks what a reader sees: the home page, an RFC page with its folded card, a schema page, the
schema index reaching every schema page, the event catalogue, the API reference with its examples and the
offline Swagger UI page, a cross-page anchor, and the built-in search. Screenshots at a desktop and a phone
width go to build/screenshots/. When Chromium or its driver is missing the test skips, except on CI (CI
set), where it fails and says how to install them.

What wopgen adds to the theme (its stylesheet, the RFC card, the Swagger UI page) is also judged by
axe-core (pinned in tools/package-lock.json; `scripts/setup-tests` installs it), in the light and the
dark scheme; without it those tests skip, or fail on CI.
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from wopgen.catalogue import catalogue
from wopgen.corpus import load
from wopgen.generate.site.build import build

REPO = Path(__file__).resolve().parents[3]
AXE = REPO / "tools" / "node_modules" / "axe-core" / "axe.min.js"
SHOTS = REPO / "build" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1280,900",
)


def _missing() -> str:
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not (os.path.exists(p) or shutil.which(Path(p).name))]
    try:
        import selenium  # noqa: F401
    except ImportError:
        missing.append("the selenium package (pip install -e '.[dev]')")
    return ", ".join(missing)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def site_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    out = tmp_path_factory.mktemp("browser") / "site"
    build(load(REPO), out, rules=catalogue())
    handler = functools.partial(_QuietHandler, directory=str(out))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    missing = _missing()
    if missing:
        message = f"headless Chromium is not available (missing: {missing}); install it with scripts/setup-chromium"
        if os.environ.get("CI"):
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="wopgen-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    service = Service(executable_path=shutil.which("chromedriver") or CHROMEDRIVER)
    driver = webdriver.Chrome(service=service, options=options)
    driver.set_page_load_timeout(30)
    SHOTS.mkdir(parents=True, exist_ok=True)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def _wait(driver: Any, css: str, timeout: float = 10) -> Any:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout).until(ec.visibility_of_element_located((By.CSS_SELECTOR, css)))


def _shoot(driver: Any, name: str) -> None:
    """Screenshots of the page as it is, at a desktop and at a phone width."""
    for width, height, suffix in ((1280, 900, "desktop"), (390, 844, "phone")):
        driver.set_window_size(width, height)
        driver.save_screenshot(str(SHOTS / f"{name}-{suffix}.png"))
    driver.set_window_size(1280, 900)


def _text(driver: Any, css: str) -> str:
    from selenium.webdriver.common.by import By

    return str(driver.find_element(By.CSS_SELECTOR, css).text)


def test_home_page_shows_the_sections(browser: Any, site_url: str) -> None:
    browser.get(site_url)
    _wait(browser, "article h1")
    assert "OpenWOP v1" in browser.title
    assert _text(browser, "article h1") == "OpenWOP v1"
    tabs = _text(browser, ".md-tabs")
    for tab in ("Specification", "RFCs", "Schemas", "Reference"):
        assert tab in tabs, f"tab {tab!r} missing from {tabs!r}"
    cards = _text(browser, ".grid.cards")
    rfcs = len(load(REPO).rfcs)
    assert "Run events" in cards and f"{rfcs} RFCs" in cards, cards
    _shoot(browser, "home")


def test_rfc_page_shows_its_metadata_card(browser: Any, site_url: str) -> None:
    from selenium.webdriver.common.by import By

    browser.get(site_url + "rfcs/0090-verifier-turn/")
    heading = _wait(browser, "article h1").text
    assert heading.startswith("RFC 0090: Verifier turn")
    assert _text(browser, ".wop-card .wop-badge") == "Accepted"
    # each label heads its row, so a screen reader reads "Status: Accepted"; no row of blank headers
    labels = [th.text for th in browser.find_elements(By.CSS_SELECTOR, ".wop-card table th")]
    assert labels[:3] == ["Status", "Compatibility", "Updated"], labels
    assert len(browser.find_elements(By.CSS_SELECTOR, ".wop-card table th[scope=row]")) == len(labels)
    assert not browser.find_elements(By.CSS_SELECTOR, ".wop-card thead")
    card_links = [a.get_attribute("href") for a in browser.find_elements(By.CSS_SELECTOR, ".wop-card a")]
    assert site_url + "schemas/run-event-payloads/" in card_links
    assert site_url + "spec/v1/multi-agent-execution/" in card_links
    _shoot(browser, "rfc-0090")


def test_schema_page_shows_fields_refs_and_examples(browser: Any, site_url: str) -> None:
    from selenium.webdriver.common.by import By

    browser.get(site_url + "schemas/run-event-payloads/#def-agentVerified")
    _wait(browser, "#def-agentVerified")
    article = _text(browser, "article")
    assert "AgentVerifiedPayload" in article
    assert "verdict" in article
    assert "Why it fails:" in article
    # a $ref into another schema becomes a link to that schema's page
    hrefs = [a.get_attribute("href") or "" for a in browser.find_elements(By.CSS_SELECTOR, "article a")]
    assert any(h.startswith(site_url + "schemas/run-snapshot/#def-") for h in hrefs), "no cross-page $ref link"
    _shoot(browser, "schema-run-event-payloads")


def _active_tab(driver: Any) -> str:
    return _text(driver, ".md-tabs__item--active")


def test_schema_index_reaches_every_schema_page(browser: Any, site_url: str) -> None:
    from selenium.webdriver.common.by import By

    corpus = load(REPO)
    browser.get(site_url + "schemas/")
    _wait(browser, "article h1")
    assert _active_tab(browser) == "Schemas"
    links = {a.get_attribute("href") for a in browser.find_elements(By.CSS_SELECTOR, "article table td:first-child a")}
    assert links == {site_url + f"schemas/{corpus.schema_name(p)}/" for p in corpus.schemas}
    sidebar = _text(browser, ".md-nav--primary")
    assert "Event catalogue" in sidebar and "RunEventPayloads" not in sidebar  # the nav lists no schema page
    _shoot(browser, "schemas-index")
    browser.find_element(By.CSS_SELECTOR, "article td a[href='run-event-payloads/']").click()
    assert _wait(browser, "article h1").text == "RunEventPayloads"
    assert _active_tab(browser) == "Schemas"  # the reader still sees which section they are in
    _shoot(browser, "schema-out-of-nav")


def test_cross_page_anchor_lands_on_its_heading(browser: Any, site_url: str) -> None:
    from selenium.webdriver.common.by import By

    browser.get(site_url + "spec/v1/capabilities/")
    link = browser.find_element(By.CSS_SELECTOR, "article a[href$='multi-agent-execution/#loop-bound-and-breach']")
    link.click()
    target = _wait(browser, "#loop-bound-and-breach")
    assert browser.current_url.endswith("/spec/v1/multi-agent-execution/#loop-bound-and-breach")
    assert "Loop bound" in target.text


def test_search_finds_agent_verified(browser: Any, site_url: str) -> None:
    from selenium.webdriver.common.by import By

    browser.get(site_url)
    _wait(browser, "article h1")
    browser.find_element(By.CSS_SELECTOR, "label.md-search__icon, .md-search__input").click()
    box = _wait(browser, "input.md-search__input")
    box.send_keys("agent.verified")
    first = _wait(browser, ".md-search-result__item a.md-search-result__link", timeout=15)
    title = first.find_element(By.CSS_SELECTOR, "h1, h2").text
    browser.save_screenshot(str(SHOTS / "search-agent-verified.png"))
    first.click()
    heading = _wait(browser, "article h1").text
    assert browser.current_url != site_url
    assert heading == title, f"the first result said {title!r} but opened {heading!r}"
    assert "agent.verified" in _text(browser, "article")
    browser.save_screenshot(str(SHOTS / "search-first-result.png"))


def test_rfc_card_folds_affects(browser: Any, site_url: str) -> None:
    from selenium.webdriver.common.by import By

    browser.get(site_url + "rfcs/0901-verification-gates-rubrics-and-structured-findings/")
    _wait(browser, ".wop-card")
    folded = browser.find_element(By.CSS_SELECTOR, ".wop-card details")
    assert folded.get_attribute("open") is None and "Affects" in folded.text
    card = browser.find_element(By.CSS_SELECTOR, ".wop-card")
    assert card.size["height"] < 300, card.size  # the essentials fit on the first screen
    _shoot(browser, "rfc-0901")


_LINE_BREAKS = r"""
const breaks = [];
for (const code of document.querySelectorAll("article table td code")) {
  const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
  let top = null, before = null;
  while (walker.nextNode()) {
    const node = walker.currentNode;
    for (let i = 0; i < node.length; i++) {
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const box = range.getBoundingClientRect();
      if (/\s/.test(node.data[i])) { before = " "; continue; }  // a space is a fine place to wrap
      if (box.width === 0) continue;
      if (top !== null && Math.abs(box.top - top) > 2) breaks.push(before + "|" + node.data[i]);
      top = box.top;
      before = node.data[i];
    }
  }
}
return breaks;
"""


def test_event_identifiers_wrap_only_at_dots_slashes_and_hyphens(browser: Any, site_url: str) -> None:
    browser.get(site_url + "events/")
    _wait(browser, "article table")
    _shoot(browser, "events")
    for width in (1280, 390):
        browser.set_window_size(width, 844)
        breaks = browser.execute_script(_LINE_BREAKS)
        assert all(pair[0] in "./- " for pair in breaks), [p for p in breaks if p[0] not in "./- "]
    browser.set_window_size(1280, 900)


def test_api_page_has_examples_and_swagger_ui_works_offline(browser: Any, site_url: str) -> None:
    from selenium.webdriver.common.by import By

    browser.get(site_url + "api/")
    _wait(browser, "article h1")
    examples = browser.find_elements(By.CSS_SELECTOR, "article details.example")
    assert len(examples) >= len(browser.find_elements(By.CSS_SELECTOR, "article h3"))
    _shoot(browser, "api")
    browser.get(site_url + "api/try/")
    _wait(browser, "#swagger-ui .opblock", timeout=20)
    operations = browser.find_elements(By.CSS_SELECTOR, "#swagger-ui .opblock")
    assert len(operations) >= 10
    assert "so no other file is needed" in _text(browser, "#swagger-ui .info")  # the description, whole
    scripts = [s.get_attribute("src") or "" for s in browser.find_elements(By.CSS_SELECTOR, "script[src]")]
    assert all(s.startswith(site_url) for s in scripts), scripts  # nothing from another host
    _shoot(browser, "api-try")


@pytest.fixture(scope="module")
def axe() -> str:
    if not AXE.exists():
        message = f"axe-core is not installed ({AXE.relative_to(REPO)}); run scripts/setup-tests"
        if os.environ.get("CI"):
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    return AXE.read_text(encoding="utf-8")


_AXE_RUN = """
const [context, rules, done] = arguments;
const options = {resultTypes: ["violations"]};
if (rules) options.runOnly = {type: "rule", values: rules};
else options.runOnly = {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]};
window.axe.run(context, options).then(
  (result) => done(result.violations.flatMap((v) => v.nodes.map((n) => [v.id, n.target.join(" "), n.failureSummary]))),
  (error) => done([["axe failed", String(error), ""]]),
);
"""


def _axe(driver: Any, source: str, context: object, rules: list[str] | None = None) -> list[list[str]]:
    """axe-core's violations on the page as it is now, as [rule, element, why]: `rules` alone, or all
    of WCAG 2.1 A and AA."""
    if not driver.execute_script("return !!window.axe"):
        driver.execute_script(source)
    driver.set_script_timeout(120)
    return list(driver.execute_async_script(_AXE_RUN, context, rules))


def _scheme(driver: Any, scheme: str) -> None:
    """The page in the theme's light (`default`) or dark (`slate`) scheme, as its palette toggle sets
    it, without remembering the choice for the pages after."""
    driver.execute_script("document.body.setAttribute('data-md-color-scheme', arguments[0])", scheme)


def test_try_it_page_is_as_readable_in_the_dark_scheme(browser: Any, site_url: str, axe: str) -> None:
    """Swagger UI has light colours only: the dark scheme must not put its dark text on a dark page.
    What axe finds of Swagger UI's own design in the light scheme is Swagger UI's; the dark scheme
    adds nothing to it."""
    browser.get(site_url + "api/try/")
    _wait(browser, "#swagger-ui .opblock", timeout=20)
    light = _axe(browser, axe, "#swagger-ui", ["color-contrast"])
    _scheme(browser, "slate")
    try:
        dark = _axe(browser, axe, "#swagger-ui", ["color-contrast"])
        _shoot(browser, "api-try-dark")
    finally:
        _scheme(browser, "default")
    assert {tuple(v[:2]) for v in dark} <= {tuple(v[:2]) for v in light}, [
        v for v in dark if tuple(v[:2]) not in {tuple(w[:2]) for w in light}
    ][:10]


_BADGES = """
const article = document.querySelector("article");
const statuses = new Set(["unknown"]);
for (const sheet of document.styleSheets) {
  if (!(sheet.href || "").endsWith("/wop.css")) continue;
  for (const rule of sheet.cssRules) for (const m of (rule.selectorText || "").matchAll(/\\.wop-badge--([a-z]+)/g)) statuses.add(m[1]);
}
for (const status of statuses) {
  const badge = document.createElement("span");
  badge.className = "wop-badge wop-badge--" + status;
  badge.textContent = status;
  article.append(badge, " ");
}
return [...statuses];
"""


def test_every_status_badge_is_readable(browser: Any, site_url: str, axe: str) -> None:
    """A badge of each status the stylesheet colours (and of one it does not), in both schemes."""
    browser.get(site_url + "rfcs/")
    _wait(browser, "article .wop-badge")
    statuses = browser.execute_script(_BADGES)
    assert {"draft", "accepted", "unknown"} <= set(statuses), statuses
    found = _axe(browser, axe, ".wop-badge", ["color-contrast"])
    _scheme(browser, "slate")
    try:
        found += _axe(browser, axe, ".wop-badge", ["color-contrast"])
    finally:
        _scheme(browser, "default")
    assert not found, found


def test_task_list_checkboxes_have_names(browser: Any, site_url: str, axe: str) -> None:
    """An RFC's acceptance criteria are a task list: each checkbox is named by its item."""
    from selenium.webdriver.common.by import By

    browser.get(site_url + "rfcs/0001-rfc-process/")
    _wait(browser, "article .task-list")
    boxes = browser.find_elements(By.CSS_SELECTOR, "article .task-list-item input[type=checkbox]")
    assert boxes and all((b.accessible_name or "").strip() for b in boxes), [b.accessible_name for b in boxes]
    assert _axe(browser, axe, "article .task-list") == []
