"""One module of exercise checks per notebook (``nb01`` ... ``nb16``).

Each check takes the student's answer (and whatever it needs from the cell), prints one
line of feedback through ``autograd_lab.teaching.exercises`` and returns a ``Feedback``.
Import the module you need: ``from autograd_lab.teaching.checks import nb01``.
"""
