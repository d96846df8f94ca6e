"""axe-core in the browser tests: inject the pinned copy, run the WCAG A/AA rules, and read
what it reports.

axe-core comes from the npm tarball cached by ``scripts/course/site_assets.py`` (pinned with
its integrity hash, like the site's own packages); nothing is fetched at test time.
"""

from __future__ import annotations

import functools
import importlib.util
import sys
from collections import Counter

from e2e_support import REPO, artifact

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
BLOCKING = ("serious", "critical")


def site_assets():
    """``scripts/course/site_assets.py`` (registered before it runs: it defines dataclasses)."""
    if "site_assets" not in sys.modules:
        path = REPO / "scripts" / "course" / "site_assets.py"
        spec = importlib.util.spec_from_file_location("site_assets", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules["site_assets"] = module
        spec.loader.exec_module(module)
    return sys.modules["site_assets"]


@functools.cache
def axe_source() -> str:
    """``axe.min.js`` of the pinned axe-core (checked against its integrity hash)."""
    return site_assets().read("axe-core", "axe.min.js").decode("utf-8")


RUN_JS = """async ([context, tags]) => {
  const r = await axe.run(context, {runOnly: {type: 'tag', values: tags},
                                    resultTypes: ['violations']});
  return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map(n => ({target: n.target.join(' '), html: n.html.slice(0, 300),
                              summary: (n.failureSummary || '').slice(0, 300)}))}));
}"""


def run_axe(page, context: object = None) -> list[dict]:
    """axe's violations on ``page`` (``context``: axe's include/exclude, default the document)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(content=axe_source())
    return page.evaluate(RUN_JS, [context if context is not None else {"exclude": []}, TAGS])


def blocking(violations: list[dict]) -> list[dict]:
    """The serious and critical ones."""
    return [v for v in violations if v["impact"] in BLOCKING]


def counts(violations: list[dict]) -> Counter:
    """Elements per rule (``rule (impact)`` -> how many elements fail it)."""
    return Counter({f"{v['id']} ({v['impact']})": len(v["nodes"]) for v in violations})


def describe(violations: list[dict], limit: int = 4) -> str:
    """Each violation with a few of its elements, for an assertion message."""
    out = []
    for v in violations:
        out.append(f"{v['id']} ({v['impact']}): {v['help']} -- {len(v['nodes'])} element(s)")
        out += [f"    {n['target']}: {n['html']}\n      {n['summary']}" for n in v["nodes"][:limit]]
    return "\n".join(out)


# ---- in JupyterLab -------------------------------------------------------------------------------

# the course's content inside JupyterLab: outputs (incl. widgets) and rendered Markdown
SCOPE = {"include": [[".jp-NotebookPanel .jp-OutputArea-output"],
                     [".jp-NotebookPanel .jp-MarkdownCell .jp-RenderedMarkdown"]]}

# <img> in outputs (SVG and PNG outputs render as one) without a real text alternative
UNNAMED_IMAGES_JS = """() => [...document.querySelectorAll(
    '.jp-NotebookPanel .jp-OutputArea-output img')]
  .filter(i => i.offsetParent !== null && !(i.getAttribute('alt') || '').trim())
  .map(i => i.closest('.jp-OutputArea-output').dataset.mimeType + ' ' + (i.src || '').slice(0, 60))"""

READY_JS = """() => [...document.querySelectorAll('.jp-NotebookPanel img')].every(i => i.complete)
  && !document.querySelector('.jp-NotebookPanel .jupyter-widgets .widget-loading')"""


def set_theme(page, name: str) -> None:
    """JupyterLab's theme through its Settings menu ("JupyterLab Light" / "JupyterLab Dark")."""
    page.click('.lm-MenuBar-item:has-text("Settings")')
    page.hover('.lm-Menu-item:has-text("Theme")')
    page.click(f'.lm-Menu-item:has-text("{name}")')
    light = "false" if "Dark" in name else "true"
    page.wait_for_function(f"() => document.body.dataset.jpThemeLight === '{light}'",
                           timeout=15_000)
    page.wait_for_timeout(500)


def check_scope(page, where: str) -> dict:
    """axe over the course's content on the page: no serious or critical finding, no output
    image without alt text; the rest counted by rule."""
    page.wait_for_function(READY_JS, timeout=30_000)
    found = run_axe(page, SCOPE)
    assert blocking(found) == [], f"{where}:\n" + describe(blocking(found))
    assert page.evaluate(UNNAMED_IMAGES_JS) == [], f"{where}: output images without alt text"
    return dict(counts(found))


def check_lab_outputs(page, stem: str) -> dict[str, dict]:
    """axe over a notebook that has just run, in JupyterLab's light theme and then its dark one
    (left light again); for 03 a screenshot of a graph and its feedback in the dark theme."""
    found = {"light": check_scope(page, f"{stem} (light)")}
    set_theme(page, "JupyterLab Dark")
    try:
        found["dark"] = check_scope(page, f"{stem} (dark)")
        if stem.startswith("03"):
            graph = page.locator('.jp-OutputArea-output svg[role="img"]').first
            graph.evaluate("e => e.scrollIntoView({block: 'start'})")
            page.wait_for_timeout(300)
            page.screenshot(path=str(artifact(f"a11y-lab-{stem}-dark.png")))
    finally:
        set_theme(page, "JupyterLab Light")
    return found
