"""The live stepper's keyboard, screen-reader and theme support, in the browser.

Core ipywidgets give no key events and no ARIA attributes, and an ``HTML`` widget replaces
its whole content on every update. ipywidgets sets HTML values with ``innerHTML``, where a
``<script>`` never runs but an image's load handler does: every frame of the graph carries a
blank 1x1 GIF whose ``onload`` (:func:`hook_html`) sets the stepper up once --

- ←/→ press Prev/Next, Home/End press Reset/Last (anywhere in the stepper except the slider,
  whose handle steps by itself); the graph box joins the Tab order (it scrolls when wide);
- the announcement widget (``agl-live``, visually hidden) becomes an ``aria-live`` region,
  so each step is read out in one sentence;
- the slider's handle gets an accessible name ("step");

and then keeps the running node on screen after a click or key press inside this stepper
(focus is in it), so opening a notebook or running a cell never scrolls the page.
:data:`STEPPER_STYLE` gives the widget a light card (its colours keep their contrast in
JupyterLab's dark theme too) and a visible focus ring.
"""

from __future__ import annotations

import html

from .frame_html import STEPPER_CSS

__all__ = ["STEPPER_STYLE", "hook_html"]

ROOT = ".autograd-lab-stepper"

# ipywidgets' own controls inside the card: dark-theme colours would be light on white
STEPPER_STYLE = (STEPPER_CSS.replace("ROOT", ROOT) + f"""
{ROOT} .widget-label,{ROOT} .widget-readout,{ROOT} .widget-html-content{{color:#111}}
{ROOT} .jupyter-button{{background:#f3f3f3;color:#111;border:1px solid #767676}}
{ROOT} .jupyter-button.mod-active{{background:#c9d7ee}}
{ROOT} .noUi-target{{background:#d6d6d6;border:1px solid #767676}}
{ROOT} .noUi-handle{{background:#1a56db;border:1px solid #0b2e7a}}""")

_BLANK_GIF = "data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"

_SETUP = """var r=this.closest('.autograd-lab-stepper');if(!r)return;
if(!r.dataset.aglKeys){r.dataset.aglKeys='1';
r.setAttribute('role','group');r.setAttribute('aria-label','backward pass stepper');
var lv=r.querySelector('.agl-live');
if(lv){lv.setAttribute('aria-live','polite');lv.setAttribute('aria-atomic','true');}
var g=r.querySelector('.agl-graph');if(g)g.tabIndex=0;
r.addEventListener('keydown',function(e){
if(e.altKey||e.ctrlKey||e.metaKey||e.target.closest('.noUi-handle,input,[contenteditable]'))return;
var c={ArrowLeft:'agl-prev',ArrowRight:'agl-next',Home:'agl-reset',End:'agl-last'}[e.key];
var b=c&&r.querySelector('button.'+c);if(!b)return;e.preventDefault();b.click();});}
var h=r.querySelectorAll('.noUi-handle');
for(var k=0;k<h.length;k++)
if(!h[k].getAttribute('aria-label'))h[k].setAttribute('aria-label','step');
var n=SEL&&r.querySelector(SEL);
if(n&&r.contains(document.activeElement))n.scrollIntoView({block:'nearest',inline:'nearest'});"""


def hook_html(lit: list[str]) -> str:
    """The hidden image whose load sets the stepper up and follows the nodes ``lit``."""
    sel = "'" + ",".join(f"#{sid}" for sid in lit) + "'" if lit else "''"
    js = "(function(){" + _SETUP.replace("SEL", sel).replace("\n", "") + "}).call(this)"
    return (f'<img alt="" src="{_BLANK_GIF}" style="display:none" '
            f'onload="{html.escape(js, quote=False).replace(chr(34), "&quot;")}">')
