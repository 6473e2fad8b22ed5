# Two commands on a fresh machine: `make run` and `make test` (README.md).
# Both install what is missing: Debian packages (bubblewrap, compilers) and a virtualenv in .venv.
VENV        := .venv
PY          := $(VENV)/bin/python
SUDO        := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)
# bubblewrap: the sandbox; gcc/g++/libc6-dev: C and C++ (static linking); fp-compiler: Pascal;
# pypy3: PyPy; openjdk-17-jdk-headless: Java; kotlin: Kotlin (on that JDK); rustc: Rust; golang-go: Go;
# nodejs: JavaScript; python3: the submissions' Python;
# chromium: the browser tests/web drives; npm (the pages' front-end files, package-lock.json) comes
# with some nodejs builds and is installed from Debian only where no `npm` command exists.
# pandoc: LaTeX problem statements (Kattis format packages) turned into HTML.
# libpango-1.0-0 libpangoft2-1.0-0 fonts-dejavu-core: WeasyPrint's text layout and fonts (the printouts,
# judge.printouts); poppler-utils: pdftotext and pdftoppm, with which the tests read those PDFs.
APT_PACKAGES := bubblewrap gcc g++ libc6-dev python3 fp-compiler pypy3 openjdk-17-jdk-headless kotlin rustc golang-go \
                nodejs chromium pandoc \
                libpango-1.0-0 libpangoft2-1.0-0 fonts-dejavu-core poppler-utils
# problemtools' verifyproblem (make test) builds every statement to HTML and PDF: pandoc, LuaLaTeX
# with Latin and Cyrillic fonts, tidy, ghostscript. Installed without recommends (TeX is large).
PROBLEMTOOLS_APT := pandoc tidy ghostscript texlive-luatex texlive-latex-recommended texlive-latex-extra \
                    texlive-fonts-recommended texlive-plain-generic texlive-lang-european texlive-lang-cyrillic
# Another apt or dpkg (unattended-upgrades, a second `make`) may hold apt's locks: wait for them, up to
# APT_LOCK_WAIT seconds, instead of failing at once. `apt-get install` waits by itself with
# DPkg::Lock::Timeout (apt >= 1.9.11); `apt-get update` takes the package lists' lock, which that
# option does not cover (apt 2.6), so it is retried every 5 s while its error is a held lock.
APT_LOCK_WAIT ?= 600
APT_GET := $(SUDO) apt-get -o DPkg::Lock::Timeout=$(APT_LOCK_WAIT)
APT_UPDATE = waited=0; until out=$$($(APT_GET) update -qq 2>&1); do \
	  case "$$out" in *"Could not get lock"*) ;; *) echo "$$out" >&2; exit 1;; esac; \
	  if [ $$waited -ge $(APT_LOCK_WAIT) ]; then echo "$$out" >&2; exit 1; fi; \
	  [ $$waited -gt 0 ] || echo "another apt holds its lock; waiting up to $(APT_LOCK_WAIT) s"; \
	  sleep 5; waited=$$((waited + 5)); \
	done

.PHONY: install system-packages problemtools run lint test bench clean

install: system-packages $(VENV)/.installed node_modules/.installed

system-packages:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	command -v npm >/dev/null || missing="$$missing npm"; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  $(APT_UPDATE) && DEBIAN_FRONTEND=noninteractive $(APT_GET) install -y -qq $(APT_OPTIONS) $$missing; \
	fi

$(VENV)/.installed: pyproject.toml
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q -e '.[test]'
	touch $@

# htmx and its server-sent-events extension, exactly as package-lock.json pins them; served by
# judge/web from node_modules (no build step). --ignore-scripts: nothing of theirs runs here.
node_modules/.installed: package.json package-lock.json
	npm ci --ignore-scripts --no-audit --no-fund
	touch $@

run: install
	$(VENV)/bin/judge serve

# What Kattis' verifier (problemtools, a test extra in pyproject.toml) needs from Debian;
# tests/verify/test_problemtools.py runs it.
problemtools: install
	@$(MAKE) --no-print-directory system-packages APT_PACKAGES="$(PROBLEMTOOLS_APT)" APT_OPTIONS=--no-install-recommends

# The suite on two pytest-xdist workers (tests/slots.py moves each worker's sandbox slots and
# folders apart); --dist worksteal: an idle worker takes half of the other's remaining tests.
# Every shipped package passes `judge problem verify` there (tests/verify/test_shipped_packages.py).
PYTEST_WORKERS ?= 2
test: install problemtools lint
	$(VENV)/bin/pytest -q -ra -n $(PYTEST_WORKERS) --dist worksteal

# ruff (lint and format) and mypy over the whole tree; configured in pyproject.toml.
lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

# wrk: the HTTP load generator of benchmarks/load.py (a C program: the load costs the server's two
# cores little). Installed by `make bench` only.
BENCH_APT := wrk

bench: install
	@$(MAKE) --no-print-directory system-packages APT_PACKAGES="$(BENCH_APT)"
	for b in benchmarks/[!_]*.py; do PYTHONPATH=$(CURDIR) $(PY) $$b || exit 1; done

clean:
	rm -rf $(VENV) var node_modules
