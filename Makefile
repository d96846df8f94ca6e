# Convenience wrappers around scripts/. Every target sets up .venv first when needed.
TORCH_PYTHON ?= python
VENV_PY := .venv/bin/python

.PHONY: setup lab test site lint goldens bench figures student notebooks

setup:
	bash scripts/setup.sh

lab:
	bash scripts/lab.sh

test:
	bash scripts/test.sh

# The course website in build/site/ (open build/site/index.html).
site:
	bash scripts/site.sh

lint: setup
	.venv/bin/ruff check .

# Record reference values with real PyTorch 2.13; TORCH_PYTHON is an interpreter that has it
# (e.g. python -m venv ~/torch-oracle && ~/torch-oracle/bin/pip install torch==2.13.0 numpy,
# then make goldens TORCH_PYTHON=~/torch-oracle/bin/python).
# AREAS: some of the case modules in tests/golden_cases (default: all), e.g. AREAS="ops rng".
AREAS ?=
goldens:
	$(TORCH_PYTHON) scripts/oracle/record_goldens.py $(AREAS)

bench: setup
	$(VENV_PY) benchmarks/run.py

# Redraw figures/, then embed them into the notebooks that show them.
figures: setup
	$(VENV_PY) scripts/course/make_figures.py
	$(VENV_PY) scripts/course/embed_figures.py notebooks/[0-9][0-9]*_*.ipynb

# The student copies (answers removed) in notebooks/student/: tracked; edited copies are kept.
student: setup
	$(VENV_PY) scripts/course/make_student_notebooks.py

# Run every course notebook top to bottom in a fresh kernel and save its outputs (what nbval
# then compares) in a canonical form: no timestamps, stable widget ids, whole streams, so a
# re-run changes nothing but object addresses. Then refresh the student copies.
# After `make figures`, since the notebooks embed the figures.
notebooks: setup
	.venv/bin/python scripts/course/colab_cell.py --write notebooks/[0-9][0-9]*_*.ipynb
	.venv/bin/python scripts/course/embed_figures.py notebooks/[0-9][0-9]*_*.ipynb
	.venv/bin/python scripts/course/run_notebooks.py notebooks/[0-9][0-9]*_*.ipynb
	.venv/bin/python scripts/course/make_student_notebooks.py
