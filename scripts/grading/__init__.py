"""The grader of a class's notebooks (``bash scripts/grade.sh``); see grade.py."""
