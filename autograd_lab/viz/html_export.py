"""The recorded frames as HTML that steps without a kernel.

:func:`fragment` is an embeddable ``<div>``: the graph (one Graphviz layout), every frame as
data (which node and edge has which role, the edge labels, caption and ``.grad`` table), and
a small script with Reset / Prev / Play / slider / Next. Every id in it carries a prefix
unique to the recording, so several fragments can live on one page. Without the script
(a sanitizing viewer, an untrusted notebook) it still shows the first frame, as an image,
and says how to step. :func:`page` wraps one fragment into a standalone HTML file. Nothing
is fetched.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json

from .a11y_html import name_svg, text_version
from .backward_log import BackwardLog
from .frame_html import STEPPER_CSS, caption_html, table_html
from .frame_state import announcement, style
from .restyle import MAX_HEIGHT, SvgCanvas

__all__ = ["fragment", "page"]

NOTE_STATIC = "A saved frame of the recorded backward pass: run this cell to step through it."
NOTE_LIVE = ("The recorded backward pass, stepping without a kernel "
             "(run the cell for the live stepper). Keys: ← → step, Home / End jump to the ends.")


# for the eye hidden, for a screen reader there (inline: the region leaves the stepper's scope)
SR_ONLY = ("position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;"
           "clip:rect(0,0,0,0);white-space:nowrap;border:0")


def frames_data(log: BackwardLog) -> dict:
    """Every frame as roles, labels, caption and a table index (tables are shared)."""
    tables: list[str] = []
    index: dict[str, int] = {}
    frames = []
    for i in range(len(log.frames)):
        st = style(log, i)
        t = table_html(log, i)
        if t not in index:
            index[t] = len(tables)
            tables.append(t)
        frames.append({"n": st.nodes, "e": st.edges, "l": st.labels,
                       "c": caption_html(log, i), "t": index[t], "a": announcement(log, i)})
    return {"frames": frames, "tables": tables}


def _uid(data: str, serial: int) -> str:
    """Ids that differ between recordings on one page yet are the same on every run."""
    digest = hashlib.sha1(data.encode("utf-8")).hexdigest()[:8]
    return f"agl{serial}x{digest}"


def fragment(log: BackwardLog, svg: str, serial: int = 0) -> str:
    """An embeddable ``<div class="agl-static">`` that steps through every frame."""
    data = frames_data(log)
    payload = json.dumps(data, ensure_ascii=True, sort_keys=True, separators=(",", ":"))
    uid = _uid(payload, serial)
    canvas = SvgCanvas(svg, uid, log.presenter, prefix=f"{uid}-")
    btn = "17px" if log.presenter else "13px"
    css = "\n".join([
        f".{uid} img.agl-frame{{max-width:100%;height:auto;max-height:{MAX_HEIGHT}}}",
        f".{uid} .agl-bar{{display:flex;flex-wrap:wrap;gap:6px;align-items:center;margin:4px 0}}",
        f".{uid} .agl-bar button{{font-size:{btn};font-weight:bold;white-space:nowrap;"
        "padding:2px 10px;flex:0 0 auto}",
        f".{uid} .agl-bar input{{flex:1 1 160px;min-width:120px;max-width:360px}}",
        f".{uid} .agl-row{{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start}}",
        f".{uid} .agl-graph{{flex:1 1 420px;min-width:0;max-width:100%;overflow:auto}}",
        f".{uid} .agl-table{{flex:0 1 auto;max-width:100%;overflow-x:auto}}",
        f".{uid} .agl-note{{font-family:sans-serif;font-size:13px;color:#444;"
        "font-style:italic;margin:2px 0}",
        STEPPER_CSS.replace("ROOT", f".{uid}"),
    ])
    first = data["frames"][0]
    # The graph travels as an image: a viewer that strips SVG and scripts (an untrusted
    # notebook) still shows the first frame; the script turns it into inline SVG to restyle.
    alt = log.spec.dot.describe(svg)
    named = name_svg(canvas.static_svg(style(log, 0)), alt.summary)
    image = base64.b64encode(named.encode("utf-8")).decode("ascii")
    body = (f'<img class="agl-frame" alt="{html.escape(alt.summary)}; step 1: '
            f'{html.escape(announcement(log, 0))}" '
            f'src="data:image/svg+xml;base64,{image}">')
    script = _SCRIPT.replace("UID", uid).replace("NOTE_LIVE", json.dumps(NOTE_LIVE))
    data_js = payload.replace("</", "<\\/")
    return (f'<div class="agl-static autograd-lab-stepper {uid}" id="{uid}" role="group" '
            f'aria-label="backward pass stepper">'
            f"<style>{css}</style>"
            f'<div class="agl-note">{html.escape(NOTE_STATIC)}</div>'
            f'<div class="agl-bar"></div>'
            f'<div class="agl-caption-slot">{first["c"]}</div>'
            f'<div class="agl-live" aria-live="polite" aria-atomic="true" style="{SR_ONLY}">'
            "</div>"
            f'<div class="agl-row"><div class="agl-graph">{body}</div>'
            f'<div class="agl-table">{data["tables"][first["t"]]}</div></div>'
            f"{text_version(alt, 'graph')}"
            f'<script type="application/json" class="agl-data">{data_js}</script>'
            f"<script>{script}</script></div>")


# Runs once per fragment; finds its root by id, so fragments on one page do not interfere.
_SCRIPT = """(function () {
  const root = document.getElementById("UID");
  if (!root || root.dataset.ready) return;
  root.dataset.ready = "1";
  const data = JSON.parse(root.querySelector("script.agl-data").textContent);
  const frames = data.frames, last = frames.length - 1, P = "UID-";
  const bar = root.querySelector(".agl-bar");
  function button(text, tip) {
    const b = document.createElement("button");
    b.textContent = text; b.title = tip; b.type = "button"; bar.appendChild(b); return b;
  }
  const reset = button("Reset", "go to the first step");
  const prev = button("\\u25C0 Prev", "previous step");
  const play = button("\\u25B6 Play", "play: step forward every 0.7 s (click again to pause)");
  const slider = document.createElement("input");
  slider.type = "range"; slider.min = 0; slider.max = last; slider.value = 0;
  slider.title = "step"; slider.className = "agl-slider"; bar.appendChild(slider);
  slider.setAttribute("aria-label", "step");
  const next = button("Next \\u25B6", "next step");
  const end = button("Last", "go to the last step");
  reset.className = "agl-reset"; prev.className = "agl-prev";
  play.className = "agl-play"; next.className = "agl-next"; end.className = "agl-last";
  // the aria-live region moves to the page's end: what it says never changes the stepper
  const live = root.querySelector(".agl-live");
  live.id = P + "live"; document.body.appendChild(live);
  const graph = root.querySelector(".agl-graph");
  graph.tabIndex = 0;  // a graph wider than the column scrolls: the keyboard reaches it too
  root.querySelector(".agl-note").textContent = NOTE_LIVE;
  const img = root.querySelector("img.agl-frame");
  const bytes = Uint8Array.from(atob(img.src.split(",")[1]), c => c.charCodeAt(0));
  img.outerHTML = new TextDecoder().decode(bytes);
  root.querySelector("style.agl-first").remove();
  const caption = root.querySelector(".agl-caption-slot");
  const table = root.querySelector(".agl-table");
  let lit = [], timer = null;
  function show(i, announce) {
    i = Math.max(0, Math.min(last, i));
    slider.value = i;
    for (const [el, cls] of lit) el.classList.remove(cls);
    lit = [];
    for (const text of root.querySelectorAll("text.agl-label")) {
      text.textContent = ""; text.classList.remove("agl-active");
    }
    const f = frames[i];
    slider.setAttribute("aria-valuetext", "step " + (i + 1) + " of " + (last + 1));
    for (const text of root.querySelectorAll("text.agl-mark")) {
      const role = f.n[text.dataset.node];
      const word = role === "current" ? "runs" : role === "error" ? "error" : "";
      text.textContent = word ? text.dataset.pointer.replace("{}", word) : "";
    }
    const mark = (id, cls) => {
      const el = document.getElementById(P + id);
      if (el) { el.classList.add(cls); lit.push([el, cls]); }
    };
    for (const id in f.n) mark(id, "agl-" + f.n[id]);
    for (const id in f.e) mark(id, "agl-" + f.e[id]);
    for (const id in f.l) {
      const text = root.querySelector('text.agl-label[data-edge="' + id + '"]');
      if (text) {
        text.textContent = f.l[id];
        if (f.e[id] === "active") text.classList.add("agl-active");
      }
    }
    caption.innerHTML = f.c;
    table.innerHTML = data.tables[f.t];
    if (announce) live.textContent = f.a;
    // after a click in this stepper, keep the running node on screen
    const cur = lit.find(([el, cls]) => cls === "agl-current" || cls === "agl-error");
    if (cur && root.contains(document.activeElement)) {
      cur[0].scrollIntoView({block: "nearest", inline: "nearest"});
    }
  }
  function stop() {
    if (timer) { clearInterval(timer); timer = null; play.textContent = "\\u25B6 Play"; }
  }
  slider.addEventListener("input", () => { stop(); show(+slider.value, true); });
  prev.onclick = () => { stop(); show(+slider.value - 1, true); };
  next.onclick = () => { stop(); show(+slider.value + 1, true); };
  reset.onclick = () => { stop(); show(0, true); };
  end.onclick = () => { stop(); show(last, true); };
  // the keyboard: anywhere in the stepper (the range input steps by itself)
  root.addEventListener("keydown", (ev) => {
    if (ev.altKey || ev.ctrlKey || ev.metaKey || ev.target === slider) return;
    const to = {ArrowLeft: +slider.value - 1, ArrowRight: +slider.value + 1,
                Home: 0, End: last}[ev.key];
    if (to === undefined) return;
    ev.preventDefault(); stop(); show(to, true);
  });
  play.onclick = () => {
    if (timer) { stop(); return; }
    if (+slider.value >= last) show(0);
    play.textContent = "Pause";
    timer = setInterval(() => {
      if (+slider.value >= last) { stop(); return; }
      show(+slider.value + 1, true);
    }, 700);
  };
  show(0);
})();"""


def page(log: BackwardLog, svg: str, title: str) -> str:
    """A standalone HTML page with every frame: no kernel, no network (inline SVG + JS)."""
    return _PAGE.format(title=html.escape(title), body=fragment(log, svg))


_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body {{ font-family: sans-serif; margin: 16px; }}</style></head>
<body>{body}</body></html>
"""
