"""``python -m grading SUBMISSIONS_DIR --out OUT_DIR`` (with scripts/ on the path)."""

import sys

from .grade import main

sys.exit(main())
