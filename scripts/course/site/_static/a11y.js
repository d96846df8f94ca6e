// Saved ipywidgets sliders (noUiSlider) give their handle no accessible name: name it after the
// slider's label. Widgets render after load, so new ones are named as they appear.
(function () {
  function name(root) {
    for (const handle of root.querySelectorAll(".noUi-handle:not([aria-label])")) {
      const slider = handle.closest(".widget-slider, .jupyter-widgets");
      const label = slider && slider.querySelector(".widget-label");
      const text = label && label.textContent.trim();
      handle.setAttribute("aria-label", text || "slider");
    }
  }
  function start() {
    name(document);
    new MutationObserver(() => name(document)).observe(document.body,
      {childList: true, subtree: true});
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
