# Convenience wrappers around scripts/. Every target sets up .venv first when needed.
TORCH_PYTHON ?= python
VENV_PY := .venv/bin/python

.PHONY: setup lab test lint goldens bench figures

setup:
	bash scripts/setup.sh

lab:
	bash scripts/lab.sh

test:
	bash scripts/test.sh

lint: setup
	.venv/bin/ruff check .

# Record reference values with real PyTorch; TORCH_PYTHON is an interpreter that has torch.
goldens:
	$(TORCH_PYTHON) scripts/record_goldens.py

bench: setup
	$(VENV_PY) benchmarks/run.py

figures: setup
	$(VENV_PY) scripts/make_figures.py
