"""Serve one course notebook as a standalone app page with Voila (widgets live, code hidden).

    .venv/bin/python scripts/course/voila_app.py notebooks/04_multiple_paths.ipynb [voila options]

This is ``voila NOTEBOOK [options]`` with one fix: Voila inlines the images of Markdown cells
through its contents manager, which rejects a link outside the notebook's folder -- such as
the course's ``../figures/*.svg`` -- with an error that aborts the whole page. Here such a
link is read from disk relative to the notebook and inlined as a ``data:`` URL instead.
"""

from __future__ import annotations

import base64
import mimetypes
import os
import sys

from voila.app import main
from voila.exporter import NB_CONVERT_760, VoilaMarkdownRenderer


class CourseMarkdownRenderer(VoilaMarkdownRenderer):
    """Voila's renderer, plus images linked relative to the notebook but outside its folder."""

    def image(self, text: str, url: str, title: str | None = None) -> str:
        src = url if NB_CONVERT_760 else text  # nbconvert < 7.6 passes (url, text)
        data = _inline(self.contents_manager.root_dir, src)
        if data is None:
            return super().image(text, url, title)
        # skip Voila's contents-manager lookup; the parent class renders the <img> tag
        if NB_CONVERT_760:
            return super(VoilaMarkdownRenderer, self).image(text, data, title)
        return super(VoilaMarkdownRenderer, self).image(data, url, title)


def _inline(root: str, src: str) -> str | None:
    """``src`` as a ``data:`` URL when it is a relative link to a local image, else None."""
    if "://" in src or src.startswith(("data:", "attachment:", "/")):
        return None
    path = os.path.normpath(os.path.join(root, src.split("#")[0].split("?")[0]))
    mime, _ = mimetypes.guess_type(path)
    if mime is None or not mime.startswith("image/") or not os.path.isfile(path):
        return None
    with open(path, "rb") as fh:
        return f"data:{mime};base64,{base64.b64encode(fh.read()).decode('ascii')}"


if __name__ == "__main__":
    sys.argv[1:1] = ["--VoilaExporter.markdown_renderer_class=__main__.CourseMarkdownRenderer"]
    sys.exit(main())
