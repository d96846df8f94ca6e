"""One module of exercise checks per notebook (``nb00`` ... ``nb17``).

Each in-notebook check takes the student's answer (and whatever it needs from the cell), shows
one line of feedback through ``autograd_lab.teaching.exercises`` and returns a ``Feedback``.
Each module also registers its exercises (``EXERCISES``: a ``collect`` that runs the student's
code on the inputs of a variant and a ``judge`` that works out what is expected), which
``autograd_lab.teaching.grading`` gathers for grading. Import the module you need:
``from autograd_lab.teaching.checks import nb01``.
"""
