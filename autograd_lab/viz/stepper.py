"""``BackwardStepper``: a widget that steps through a real backward pass.

It runs ``backward()`` once for real (:func:`record_backward`), then lets you walk the
recorded frames: Reset / Prev / Play / slider / Next (every control labelled, with a
tooltip). Each frame highlights the node that is running (SVG ids ``n_3``, edges ``e_5``),
draws the gradients each edge carried against its forward arrow, fades the saved tensors
already freed, and shows a table of every leaf's ``.grad`` (and retained grads) with
``old + new = total`` as they accumulate. "backward again" runs backward a second time on
the same graph and appends its frames
-- accumulation with ``retain_graph=True``, or torch's error once the graph was freed.

Everything is drawn through ``HTML`` widget values (no ``Output`` widget), so a
notebook that builds the widget stores no printed output.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as widgets

from ..tensor import Tensor
from .recording import Frame, Recording, Run, record_backward
from .stepper_keys import STEPPER_STYLE, hook_html

__all__ = ["BackwardStepper", "Frame", "Recording", "Run", "record_backward"]

# Shown only when the widget has no kernel behind it (a notebook reopened, a kernel restarted):
# ipywidgets then marks every view ``jupyter-widgets-disconnected``. The saved frame stays;
# the controls, which could do nothing, and the broken-link icons are hidden.
_OFFLINE_NOTE = """<style>
.autograd-lab-stepper .agl-offline-note { display: none; }
.autograd-lab-stepper.jupyter-widgets-disconnected .agl-offline-note {
  display: block; font-family: sans-serif; font-size: 14px; font-style: italic; color: #333;
  background: #fff8e1; border-left: 4px solid #ffb300; padding: 4px 8px; margin: 2px 0 6px; }
.autograd-lab-stepper.jupyter-widgets-disconnected .agl-controls { display: none !important; }
.autograd-lab-stepper.jupyter-widgets-disconnected::before,
.autograd-lab-stepper .jupyter-widgets-disconnected::before { display: none !important; }
STEPPER_STYLE
</style><div class="agl-offline-note">A saved frame of the recorded backward pass: run this
cell to step through it.</div>""".replace("STEPPER_STYLE", STEPPER_STYLE)

class BackwardStepper(widgets.VBox):
    """Step through ``root.backward(gradient, retain_graph, inputs=inputs)``, run for real.

    ``params`` names tensors in the drawing and the table; ``presenter=True`` uses big
    fonts and thick strokes (for a projector). The root widget has the CSS class
    ``autograd-lab-stepper``. The recording is ``.recording`` (``.to_html(path)`` exports it).
    """

    def __init__(self, root: Any, gradient: Tensor | None = None, retain_graph: bool = False,
                 inputs: Any = None, *, params: dict[str, Tensor] | None = None,
                 presenter: bool = False, max_nodes: int | None = 2000,
                 interval: int = 800) -> None:
        self.recording: Recording = record_backward(
            root, gradient, retain_graph, inputs, params=params, errors="record",
            presenter=presenter, max_nodes=max_nodes,
        )
        self.presenter = presenter
        last = len(self.recording) - 1
        font = "18px" if presenter else "13px"
        # the graph takes the width it has; the table wraps below it when the column is narrow
        self.graph = widgets.HTML(layout=widgets.Layout(overflow="auto", flex="1 1 420px",
                                                        min_width="0", max_width="100%"))
        self.caption = widgets.HTML()
        self.table = widgets.HTML(layout=widgets.Layout(flex="0 1 auto", max_width="100%",
                                                        overflow="auto"))
        self.note = widgets.HTML(_OFFLINE_NOTE)
        self.slider = widgets.IntSlider(value=0, min=0, max=last, description="step",
                                        continuous_update=True, tooltip="step",
                                        layout=widgets.Layout(flex="1 1 220px", min_width="180px",
                                                              max_width="360px"))
        # Play's own view draws three icon buttons without tooltips; it is kept (hidden) for its
        # timer, which runs in the browser, and driven by a labelled toggle linked to it there
        self.play = widgets.Play(value=0, min=0, max=last, interval=interval,
                                 description="play", layout=widgets.Layout(display="none"))
        widgets.link((self.play, "value"), (self.slider, "value"))
        self.play_button = widgets.ToggleButton(
            description="▶ Play", tooltip=f"play: one step every {interval} ms "
            "(click again to pause; Reset goes back to the first step)",
            layout=widgets.Layout(width="auto", height="auto", flex="0 0 auto"))
        self.play_button.style.font_size = font
        self.play_button.style.font_weight = "bold"
        widgets.jslink((self.play_button, "value"), (self.play, "playing"))
        self.reset_button = self._button("Reset", "go to the first step", font)
        self.prev_button = self._button("◀ Prev", "previous step", font)
        self.next_button = self._button("Next ▶", "next step", font)
        self.last_button = self._button("Last", "go to the last step", font)
        for b, name in ((self.reset_button, "agl-reset"), (self.prev_button, "agl-prev"),
                        (self.next_button, "agl-next"), (self.last_button, "agl-last")):
            b.add_class(name)  # the keys press these (stepper_keys)
        self.again_button = self._button("backward again", "run backward once more on the "
                                         "same graph and append its frames", font)
        self.reset_button.on_click(lambda _: self.reset())
        self.prev_button.on_click(lambda _: self.prev())
        self.next_button.on_click(lambda _: self.next())
        self.last_button.on_click(lambda _: self.go(len(self.recording) - 1))
        self.again_button.on_click(lambda _: self.backward_again())
        self.slider.observe(self._on_slider, names="value")
        controls = widgets.HBox([self.reset_button, self.prev_button, self.play_button, self.play,
                                 self.slider, self.next_button, self.last_button,
                                 self.again_button],
                                layout=widgets.Layout(flex_flow="row wrap", align_items="center",
                                                      max_width="100%"))
        controls.add_class("agl-controls")
        body = widgets.HBox([self.graph, self.table],
                            layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start",
                                                  max_width="100%", grid_gap="8px 16px"))
        # one sentence per step for screen readers (an aria-live region, set up in the browser)
        self.live = widgets.HTML()
        self.live.add_class("agl-live")
        self.live.add_class("agl-sr")
        self.graph.add_class("agl-graph")
        super().__init__(children=[self.note, controls, self.caption, self.live, body],
                         layout=widgets.Layout(max_width="100%"))
        self._drawn = False
        self.add_class("autograd-lab-stepper")
        if presenter:
            self.add_class("autograd-lab-presenter")
        self._draw(0)

    def __repr__(self) -> str:
        # short and stable: the default widget repr would embed every frame's SVG
        runs = len(self.recording.runs)
        return (f"BackwardStepper({len(self.recording)} frames, {runs} backward run"
                f"{'s' if runs != 1 else ''})")

    def _repr_mimebundle_(self, **kwargs: Any) -> dict:
        """The widget view, plus a static copy of every frame as ``text/html``.

        Front ends without a live kernel (a web page, a viewer, an untrusted notebook) show
        the ``text/html``: the recorded frames with Prev / Next / Play in plain JavaScript,
        or, where scripts do not run, the first frame and how to step.
        """
        data = super()._repr_mimebundle_(**kwargs)
        if data:
            data["text/html"] = self.recording.to_html_fragment()
        return data

    @staticmethod
    def _button(text: str, tip: str, font: str) -> widgets.Button:
        # never shrunk: a label always shows whole (the row wraps instead)
        b = widgets.Button(description=text, tooltip=tip,
                           layout=widgets.Layout(width="auto", height="auto", flex="0 0 auto"))
        b.style.font_size = font
        b.style.font_weight = "bold"
        return b

    # ---- navigation --------------------------------------------------------------------------

    @property
    def step(self) -> int:
        """The frame shown now."""
        return self.slider.value

    def go(self, i: int) -> None:
        """Show frame ``i`` (clipped to the recording)."""
        self.slider.value = max(0, min(len(self.recording) - 1, int(i)))

    def next(self) -> None:
        """Show the next step."""
        self.go(self.step + 1)

    def prev(self) -> None:
        """Show the previous step."""
        self.go(self.step - 1)

    def reset(self) -> None:
        """Stop playing and go back to the first step."""
        self.play.playing = False
        self.go(0)

    def backward_again(self, retain_graph: bool | None = None) -> Run:
        """Run backward once more on the same graph; jump to the first of its frames."""
        run = self.recording.backward_again(retain_graph)
        last = len(self.recording) - 1
        self.slider.max = self.play.max = last
        if self.slider.value == run.start:
            self._draw(run.start)
        self.go(run.start)
        return run

    # ---- drawing -----------------------------------------------------------------------------

    def _on_slider(self, change: dict) -> None:
        self._draw(change["new"])

    def _draw(self, i: int) -> None:
        rec = self.recording
        lit = [sid for sid, role in rec.style(i).nodes.items() if role in ("current", "error")]
        self.graph.value = rec.frame_svg(i) + hook_html(lit)
        self.caption.value = rec.caption_html(i)
        self.table.value = rec.table_html(i)
        # the first frame is shown, not announced: a new stepper says nothing on its own
        self.live.value = html.escape(rec.announcement(i)) if self._drawn else ""
        self._drawn = True
