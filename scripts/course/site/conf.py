"""Sphinx configuration of the course website (built by ``scripts/course/build_site.py``).

The notebooks are rendered from their saved outputs (never executed here); everything the
pages load is served from the site itself (no CDN), so the site works offline.
"""

project = "autograd_lab"
author = "autograd_lab"
copyright = "autograd_lab contributors"  # noqa: A001 (Sphinx's name)

extensions = ["myst_nb", "sphinx_copybutton"]
# _extra: files served as they are (the student copies to download), not pages.
exclude_patterns = ["_build", "_doctrees", "_extra", "**.ipynb_checkpoints"]
root_doc = "index"

# ---- notebooks: saved outputs only --------------------------------------------------------------
nb_execution_mode = "off"
nb_merge_streams = True
# A BackwardStepper saves a static export (text/html: its recorded frames with Prev/Next/Play in
# plain JavaScript) beside its widget view. Without a kernel the widget cannot step, so the
# export wins; other widgets (a slider) still render through the bundled widget manager.
nb_mime_priority_overrides = [
    ("html", "text/html", 5),
    ("dirhtml", "text/html", 5),
    ("singlehtml", "text/html", 5),
]
nb_ipywidgets_js = {
    "widgets/require.js": {},
    "widgets-paths.js": {},
    "widgets/html-manager/embed-amd.js": {},
}
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "attrs_inline"]
myst_heading_anchors = 3

# ---- math: MathJax 3 bundled into _static/mathjax ----------------------------------------------
mathjax_path = "mathjax/tex-mml-chtml.js"

# ---- theme --------------------------------------------------------------------------------------
html_theme = "sphinx_book_theme"
html_title = "autograd_lab"
html_static_path = ["_static"]
html_extra_path = ["_extra"]
html_favicon = "_static/favicon.svg"
html_css_files = ["course.css"]
# After MathJax (also deferred): runs before the widget manager renders, at DOMContentLoaded.
html_js_files = [("widgets-mathjax.js", {"defer": "defer"})]
html_context = {"default_mode": "light"}  # the notebooks' figures are drawn on white
html_show_sourcelink = False
html_copy_source = False
html_last_updated_fmt = None
html_theme_options = {
    "show_navbar_depth": 1,
    "show_toc_level": 2,
    "use_download_button": False,
    "use_fullscreen_button": False,
    "use_repository_button": False,
    "search_bar_text": "Search the course...",
    "navigation_with_keys": True,
    "icon_links": [],
}
copybutton_exclude = ".linenos, .gp, .go"
