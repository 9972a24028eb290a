# Two commands do all the set-up:  make book  |  make test
# Both create .venv (Python 3.11+) if needed and install the exact pins of requirements.txt
# plus svmtext itself (editable).

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.svmtext-installed
MATHJAX_VERSION := 3.2.2
MATHJAX := _vendor/mathjax/tex-mml-chtml.js
JOBS ?= 2

# Use the canonical data copies beside the repository when present;
# otherwise svmtext downloads what it needs into a per-user cache.
ifneq ($(wildcard ../shared/data/README.md),)
export SVMTEXT_DATA ?= $(abspath ../shared/data)
endif
export MPLBACKEND := Agg
export PYDEVD_DISABLE_FILE_VALIDATION := 1

.PHONY: help venv book test test-unit test-portable test-chapters experiments recertify smoke-coverage experiments-smoke lint coverage mutation bench lab notebooks fetch-data fresh-check clean assignments grade test-assignments test-pages check-zip wheel test-lab book-student slides export-manual

help:
	@echo "make book   build the HTML book into _build/html (executes every chapter)"
	@echo "make test   unit tests + every chapter executed through nbval"
	@echo "make fetch-data  download every data set into the data home (then the book runs offline)"
	@echo "make fresh-check  make test + make book in a fresh clone without ../shared (local download mirror)"
	@echo "make test-portable  unit tests under each OpenBLAS kernel set (OPENBLAS_CORETYPE)"
	@echo "make experiments  rerun the cached experiments whose code or configuration changed"
	@echo "make recertify  re-stamp the caches whose code moved but whose smoke results did not"
	@echo "make lint   ruff's checks over the code (zero findings expected)"
	@echo "make bench  SMOSVC against LIBSVM and oneDAL (requirements-bench.txt): every target as a ratio"
	@echo "make coverage  unit tests with per-module coverage of svmtext (HTML in _build/coverage)"
	@echo "make mutation  mutation testing of the KKT and SMO core (tests/MUTATION.md; not in CI)"
	@echo "make lab    install JupyterLab + jupyterlab-myst (requirements-lab.txt) and open the book"
	@echo "make notebooks  every chapter as .ipynb in _build/notebooks"
	@echo "make notebooks STUDENT=1  every chapter without its solutions in _build/student-notebooks"
	@echo "make assignments  student notebooks + autograders (otter-grader) in _build/assignments"
	@echo "make grade A=smo SUBMISSIONS=dir  grade a class's notebooks (CSV in dir; TIMEOUT=300 ROSTER=csv SANDBOX=1)"
	@echo "make export-manual SUBMISSIONS=dir  PDFs of the hand-graded answers (dir/manual, offline)"
	@echo "make wheel  the svmtext wheel students install (_build/wheel)"
	@echo "make book-student  the student edition (no exercise solutions) in _build/student/_build/html"
	@echo "make test-pages  every built page in headless Chromium (after make book)"
	@echo "make slides  a reveal.js deck per chapter from its tagged cells in _build/slides (offline)"
	@echo "make clean  remove _build and the vendored MathJax"

$(STAMP): requirements.txt pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	$(PY) -m pip install --quiet --no-deps -e .
	@touch $@

venv: $(STAMP)

# MathJax 3 served from the built site, so math renders without internet.
# Falls back to a loader that fetches MathJax from a CDN when npm cannot install it.
$(MATHJAX): tools/vendor_mathjax.sh
	bash tools/vendor_mathjax.sh $(MATHJAX_VERSION) _vendor/mathjax

# The inline backend: with Agg (exported above for the tests) no figure reaches the book.
book: $(STAMP) $(MATHJAX)
	rm -rf _build/.doctrees _build/html _build/jupyter_execute
	MPLBACKEND=module://matplotlib_inline.backend_inline \
	    $(VENV)/bin/jupyter-book build -W -n --keep-going .

test: $(STAMP)
	$(PY) -m pytest -n $(JOBS) --dist loadfile --nbval-lax --nbval-current-env \
	    --nbval-cell-timeout=300 --require-all-chapters -q tests book

test-unit: $(STAMP)
	$(PY) -m pytest -n $(JOBS) -q tests

# SMOSVC against LIBSVM (scikit-learn's SVC) and oneDAL (sklearnex.svm.SVC, the pins of
# requirements-bench.txt), alternating fits in one process; prints every target as a ratio.
bench: $(STAMP)
	$(PY) -m pip install --quiet -r requirements-bench.txt
	$(PY) benchmarks/targets.py

# Maintainers' tools (requirements-dev.txt): ruff's checks ([tool.ruff] in pyproject.toml)
# at zero findings, and the unit tests' coverage of svmtext per module ([tool.coverage]).
DEV_STAMP := $(VENV)/.dev-installed
LINT_PATHS := svmtext tests tools benchmarks assignments conftest.py

$(DEV_STAMP): requirements-dev.txt $(STAMP)
	$(PY) -m pip install --quiet -r requirements-dev.txt
	@touch $@

lint: $(DEV_STAMP)
	$(VENV)/bin/ruff check $(LINT_PATHS)

coverage: $(DEV_STAMP)
	$(PY) -m pytest -n $(JOBS) -q -m "not chapters" --cov=svmtext \
	    --cov-report=term --cov-report=html:_build/coverage tests

# Mutation testing of kkt.py and smo/_core.py on clones of HEAD (not in CI): cosmic-ray from
# requirements-mutation.txt, all 445 selected mutants in two sessions per module, two at a
# time (about 1.5 hours on 2 cores); survivors in tests/MUTATION.md. MUTATION_RECHECK=1 then
# runs the survivors again with HEAD's tests.
MUTATION_SHARDS ?= 2
MUTATION_JOBS ?= 2
mutation: $(STAMP)
	$(PY) -m pip install --quiet -r requirements-mutation.txt
	MUTATION_SHARDS=$(MUTATION_SHARDS) MUTATION_JOBS=$(MUTATION_JOBS) PY=$(abspath $(PY)) \
	    nice bash tools/mutation.sh

# The unit tests under each OpenBLAS kernel set: the last bits of every BLAS result
# change with the kernels, so a test passes only if it checks what the mathematics
# pins down. <core type>:<CPU flag its kernels need>; a core type whose instructions
# this CPU lacks cannot run (illegal instruction) and is reported as skipped. (Zen is not
# among them: its products have Haswell's bits -- gemm, gemv, dot and a solve, float64 and
# float32, 7 shapes from 1 x 1 to 1000 x 784, through NumPy and SciPy -- being built from
# Haswell's kernels, OpenBLAS's kernel/x86_64/KERNEL.ZEN.)
CORETYPES ?= Prescott:pni Sandybridge:avx Haswell:avx2 SkylakeX:avx512f
PORTABLE_LOGS := _build/test-portable
# scikit-learn's estimator checks (API conformance, ~1,700 cases) run once, in make test.
# The recertification test compares smoke results with those recorded under this machine's
# default kernels (rtol 1e-9), so it too runs once, in make test, as does the table of
# inputs (tests/test_robust_inputs.py: input handling, not arithmetic). So do the tests of
# what computes no numbers of its own: the course package (assignments, grading, quizzes,
# the manual), the pages, slides and toc, the notation and macros, the compiled-code cache,
# and the task runner's backends and resumption (which run the same tasks as make test).
PORTABLE_SKIP := test_fresh_reader test_recertify test_robust_inputs test_assignments \
    test_assignments_chapters test_assignments_grading test_book_citations test_chapter_layout \
    test_course test_export_manual test_imports test_lab_browser test_macros test_notation \
    test_page_check test_pages_browser test_quiz test_slides test_student_book test_toc \
    test_smo_numba_cache test_tasks test_experiments_cli
PORTABLE_ARGS := -m "not chapters" $(foreach t,$(PORTABLE_SKIP),--ignore=tests/$(t).py) \
    -k "not sklearn_compatible and not dask_local_cluster and not interrupted_run_resumes"

test-portable: $(STAMP)
	@mkdir -p $(PORTABLE_LOGS); status=0; \
	for entry in $(CORETYPES); do \
	  core=$${entry%%:*}; flag=$${entry##*:}; log=$(PORTABLE_LOGS)/$$core.log; \
	  if [ -r /proc/cpuinfo ] && ! grep -qw "$$flag" /proc/cpuinfo; then \
	    echo "OPENBLAS_CORETYPE=$$core: skipped, this CPU lacks $$flag (needed by these kernels)"; \
	    continue; \
	  fi; \
	  OPENBLAS_CORETYPE=$$core $(PY) -m pytest -n $(JOBS) -q $(PORTABLE_ARGS) tests \
	      > $$log 2>&1 || status=1; \
	  echo "OPENBLAS_CORETYPE=$$core: $$(tail -n 1 $$log)"; \
	  grep -E '^(FAILED|ERROR) ' $$log | sed 's/^/    /' || true; \
	done; \
	if [ $$status -ne 0 ]; then echo "test-portable: failures (logs in $(PORTABLE_LOGS)/)"; fi; \
	exit $$status

test-chapters: $(STAMP)
	$(PY) -m pytest -n $(JOBS) --dist loadfile --nbval-lax --nbval-current-env \
	    --nbval-cell-timeout=300 --require-all-chapters -q book

# Rerun every experiment whose committed cache is stale (other configuration or
# other svmtext code than the script imports now).
experiments: $(STAMP)
	$(PY) -m svmtext.experiments --stale

# caches whose code moved: rerun each smoke configuration, re-stamp if its numbers did not move
recertify: $(STAMP)
	$(PY) -m svmtext.experiments --recertify

# each smoke configuration calls every function of its full run's first task (minutes)
smoke-coverage: $(STAMP)
	SVMTEXT_SMOKE_COVERAGE=1 $(PY) -m pytest -n 0 -q tests/test_smoke_coverage.py

experiments-smoke: $(STAMP)
	$(PY) -m svmtext.experiments --smoke

# JupyterLab with jupyterlab-myst (MyST directives and roles in markdown cells),
# pinned in requirements-lab.txt so that `make test` stays lean. Chapters are
# MyST-markdown notebooks: jupytext (in requirements.txt) opens book/*.md as notebooks.
LAB_STAMP := $(VENV)/.svmtext-lab-installed
LAB_SETTINGS := $(VENV)/share/jupyter/lab/settings

# overrides.json: a double click opens a markdown chapter as a notebook (jupytext);
# every cell rendered (no windowing), so that all formulas are typeset.
$(LAB_STAMP): requirements-lab.txt $(STAMP)
	$(PY) -m pip install --quiet -r requirements.txt -r requirements-lab.txt
	@mkdir -p $(LAB_SETTINGS)
	@echo '{"@jupyterlab/docmanager-extension:plugin": {"defaultViewers":' \
	      '{"markdown": "Jupytext Notebook", "myst": "Jupytext Notebook"}},' \
	      '"@jupyterlab/notebook-extension:tracker": {"windowingMode": "none"}}' \
	      > $(LAB_SETTINGS)/overrides.json
	@touch $@

lab: $(LAB_STAMP)
	MPLBACKEND=module://matplotlib_inline.backend_inline \
	    $(VENV)/bin/jupyter lab book/intro.md

# A chapter in JupyterLab through headless Chromium: double click opens it as a notebook,
# Run All, formulas and errors counted, saved, compared (tests/test_lab_browser.py; ~1 min).
test-lab: $(LAB_STAMP)
	SVMTEXT_LAB=1 $(PY) -m pytest -n 0 -q -s tests/test_lab_browser.py

# Every chapter as a classic .ipynb in _build/notebooks (outside book/, ignored by git
# and by the book build).
NOTEBOOKS := _build/notebooks

# STUDENT=1: the exercises without their solutions, in _build/student-notebooks.
notebooks: $(STAMP)
ifeq ($(STUDENT),1)
	$(PY) assignments/student_chapters.py --out _build/student-notebooks
else
	@mkdir -p $(NOTEBOOKS)
	@for md in $$(grep -l '^jupytext:' book/*.md); do \
	  $(VENV)/bin/jupytext --quiet --to ipynb --output $(NOTEBOOKS)/$$(basename $$md .md).ipynb $$md \
	  && echo "$(NOTEBOOKS)/$$(basename $$md .md).ipynb"; \
	done
endif

# The student edition: every chapter without its exercise solutions (assignments/student_book.py),
# HTML in _build/student/_build/html; `make book` is the instructor edition.
# STUDENT_EXECUTE=0 builds without running the cells (a quick look).
book-student: $(STAMP) $(MATHJAX)
	$(PY) assignments/student_book.py $(if $(filter 0,$(STUDENT_EXECUTE)),--no-execute)
	$(PY) -m pytest -n 0 -q tests/test_student_book.py

# Course assignments (otter-grader, assignments/<name>/<name>.md): a student notebook and an
# autograder per assignment in _build/assignments; each solution is graded against all its
# tests. `make grade A=smo SUBMISSIONS=dir` grades every .ipynb of dir (otter run, no Docker).
assignments: $(STAMP)
	$(PY) assignments/make_assignments.py --out _build/assignments --jobs $(JOBS)

# TIMEOUT: seconds per submission (a hang scores 0, "timed out"); ROSTER=roster.csv adds
# student IDs and Canvas/Moodle import files; SANDBOX=1: no network, memory limit.
TIMEOUT ?= 300
grade: $(STAMP)
	$(PY) assignments/make_assignments.py grade $(A) $(SUBMISSIONS) --out _build/assignments \
	    --jobs $(JOBS) --timeout $(TIMEOUT) $(if $(ROSTER),--roster $(ROSTER)) $(if $(SANDBOX),--sandbox)

# PDFs of the hand-graded (derivation) answers of a class, offline: SUBMISSIONS/manual/*.pdf
# (assignments/export_manual.py: otter's filtering, the vendored MathJax, headless Chromium).
export-manual: $(STAMP) $(MATHJAX)
	$(PY) assignments/export_manual.py $(SUBMISSIONS)

# The autograder zip of assignment A unzipped into a fresh venv (its own svmtext wheel
# and otter-grader from the package index), grading A's solution there.
check-zip: $(STAMP)
	$(PY) assignments/check_zip.py $$(ls _build/assignments/$(A)/autograder/$(A)-autograder_*.zip | tail -n 1) \
	    _build/assignments/$(A)/autograder/$(A).ipynb

# What students install: a svmtext wheel (the package only, no assignment or solution).
wheel: $(STAMP)
	$(PY) -c "import sys; sys.path.insert(0, 'assignments'); import make_assignments as m; print(m.build_wheel('_build/wheel'))"

# A slide deck per chapter from the cells tagged slide/subslide/fragment/notes in it
# (tools/make_slides.py): _build/slides/<chapter>.slides.html beside reveal.js (npm's copy,
# fetched once) and the vendored MathJax, so the folder works offline. Each chapter is run for
# its figures (SLIDES_EXECUTE=0: no outputs, seconds); then every deck is checked in headless
# Chromium (tools/check_slides.py: slides, math, overflow, network).
slides: $(STAMP) $(MATHJAX)
	MPLBACKEND=module://matplotlib_inline.backend_inline \
	    $(PY) tools/make_slides.py $(if $(filter 0,$(SLIDES_EXECUTE)),--no-execute)
	$(PY) tools/check_slides.py

# Every page of the built book in headless Chromium (after `make book`; needs chromium).
test-pages: $(STAMP)
	SVMTEXT_REQUIRE_PAGES=1 $(PY) -m pytest -n $(JOBS) -q tests/test_page_check.py \
	    tests/test_pages_browser.py

# The tests of the assignments' tests through the otter command line (slow: ~4 min).
test-assignments: $(STAMP)
	SVMTEXT_FULL_ASSIGNMENTS=1 $(PY) -m pytest -n $(JOBS) -q tests/test_assignments.py \
	    tests/test_assignments_chapters.py

# Every data set into the data home ($$SVMTEXT_DATA, else ~/.cache/svmtext), e.g. before
# teaching offline.
fetch-data: $(STAMP)
	$(PY) -m svmtext.datasets fetch --all

# A reader's fresh clone with no ../shared: make test and make book, every download served
# by a local mirror of the public sources built from ../shared/data.
# FRESH_FLAGS=--link-venv reuses this .venv instead of installing a new one.
fresh-check:
	bash tools/fresh_clone_check.sh $(FRESH_FLAGS) ../shared/data

clean:
	rm -rf _build _vendor
