// Saved widgets: the widget manager (embed-amd.js) finds its icon fonts relative to the URL
// RequireJS gives its modules; map them to the folder it is served from, whatever the page.
(function () {
  var here = document.currentScript.src.replace(/[^/]*$/, "");
  require.config({ paths: { "@jupyter-widgets": here + "widgets/html-manager" } });
})();
