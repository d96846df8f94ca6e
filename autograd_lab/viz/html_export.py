"""The recorded frames as HTML that steps without a kernel: a standalone page
(:meth:`Recording.to_html`) built from the same frames the widget shows.
"""

from __future__ import annotations

import html
import json

from .backward_log import BackwardLog
from .frame_html import caption_html, table_html
from .frame_state import style
from .restyle import SvgCanvas

__all__ = ["page"]


def page(log: BackwardLog, svg: str, title: str) -> str:
    """A standalone HTML page with every frame: no kernel, no network (inline SVG + JS)."""
    canvas = SvgCanvas(svg, "agl", log.presenter)
    svg, _ = canvas.parts()
    frames = []
    for i in range(len(log.frames)):
        st = style(log, i)
        frames.append({"css": canvas.css(st), "labels": canvas.overlay(st),
                       "caption": caption_html(log, i), "table": table_html(log, i)})
    data = json.dumps(frames, ensure_ascii=True).replace("</", "<\\/")
    return _PAGE.format(title=html.escape(title), svg=svg, n=len(frames) - 1, data=data)


_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
body {{ font-family: sans-serif; margin: 16px; }}
.controls button {{ font-size: 15px; margin-right: 4px; }}
.controls input {{ width: 320px; vertical-align: middle; }}
.row {{ display: flex; gap: 24px; align-items: flex-start; margin-top: 8px; }}
</style></head>
<body><div class="autograd-lab-stepper">
<div class="controls"><button id="reset">Reset</button><button id="prev">&#x25C0; Prev</button>
<button id="play">&#x25B6; Play</button><input id="slider" type="range" min="0" max="{n}" value="0">
<button id="next">Next &#x25B6;</button></div>
<div id="caption"></div>
<div class="row"><div id="graph">{svg}</div><div id="table"></div></div>
</div>
<script>
const FRAMES = {data};
const slider = document.getElementById("slider");
const style = document.querySelector("#graph style.agl-style");
const labels = document.querySelector("#graph g.agl-labels");
let timer = null;
function show(i) {{
  i = Math.max(0, Math.min(FRAMES.length - 1, i));
  slider.value = i;
  const f = FRAMES[i];
  style.textContent = f.css;
  labels.innerHTML = f.labels;
  document.getElementById("caption").innerHTML = f.caption;
  document.getElementById("table").innerHTML = f.table;
}}
function stop() {{ if (timer) {{ clearInterval(timer); timer = null; }} }}
slider.addEventListener("input", () => {{ stop(); show(+slider.value); }});
document.getElementById("prev").onclick = () => {{ stop(); show(+slider.value - 1); }};
document.getElementById("next").onclick = () => {{ stop(); show(+slider.value + 1); }};
document.getElementById("reset").onclick = () => {{ stop(); show(0); }};
document.getElementById("play").onclick = () => {{
  if (timer) {{ stop(); return; }}
  timer = setInterval(() => {{
    if (+slider.value >= FRAMES.length - 1) {{ stop(); return; }}
    show(+slider.value + 1);
  }}, 700);
}};
show(0);
</script></body></html>
"""

