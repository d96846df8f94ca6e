// Saved ipywidgets typeset their labels through MathJax 2's API (MathJax.Hub.Queue); the site
// bundles MathJax 3, so the widgets get that one call in MathJax 3's terms.
if (window.MathJax && !window.MathJax.Hub) {
  window.MathJax.Hub = {
    Queue: function (job) {
      var element = job && job[2];
      if (element && window.MathJax.typesetPromise) window.MathJax.typesetPromise([element]);
    },
  };
}
