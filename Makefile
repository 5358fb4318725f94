# roce.fabric developer entry points. `make demo` and `make test` are all a new machine needs:
# both set up .venv on first run - demo with what the collection needs (requirements.txt), test
# with the test lab on top (requirements-test.txt and the Debian packages the tests use).
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
RUNTIME := $(VENV)/.runtime
LINK := .collections/ansible_collections/roce/fabric
export PATH := $(CURDIR)/$(BIN):$(PATH)
export ANSIBLE_COLLECTIONS_PATH := $(CURDIR)/.collections
# Nothing of the demo or the tests lives in ~/.ansible (tools that install the collection under
# test, like ansible-lint, write below .ansible/ here instead).
export ANSIBLE_HOME := $(CURDIR)/.ansible
# A lab id per checkout (1-249): the namespace labs' names, subnets (198.19.<id>.0/24) and paths
# carry it, so two checkouts can run their tests side by side.
ROCE_LAB_ID ?= $(shell printf '%s' '$(CURDIR)' | cksum | awk '{print $$1 % 249 + 1}')
export ROCE_LAB_ID
export PYTEST_ADDOPTS ?= -p no:cacheprovider

.PHONY: setup demo test unit lint sanity molecule doc-check benchmark golden schema-doc changelog ee clean

setup: $(STAMP) $(LINK)

# What the main job needs (requirements.txt): `make demo` installs nothing more - no Debian
# package, no test tool, nothing as root.
$(RUNTIME): requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --disable-pip-version-check --upgrade pip 2>&1 | grep -v "^WARNING: Location" || true
	$(BIN)/pip install -q --disable-pip-version-check -r requirements.txt 2>&1 | grep -v "^WARNING: Location" || true
	$(BIN)/python -c "import ansible, netaddr, jinja2, jsonschema"
	touch $@

# The test lab on top: the Debian packages the tests use (tools/setup-system.sh) and the test
# and lint tools (requirements-test.txt).
$(STAMP): $(RUNTIME) requirements-test.txt tools/setup-system.sh
	tools/setup-system.sh
	$(BIN)/pip install -q --disable-pip-version-check -r requirements-test.txt 2>&1 | grep -v "^WARNING: Location" || true
	$(BIN)/python -c "import ansible, molecule, testinfra, hypothesis, netaddr, libyang"
	touch $@

$(LINK):
	mkdir -p $(dir $@)
	ln -sfn ../../.. $@

demo: $(RUNTIME) $(LINK)
	$(BIN)/ansible-playbook site.yml

test: unit lint doc-check sanity molecule

# Every test but the network-namespace labs on every CPU (pytest-xdist), and beside them the labs
# one after another: they share the lab's names and management subnet (tests/conftest.py,
# netns_lab) and mostly wait for their routers, so they run while the rest uses the CPUs; their
# output follows the rest's, and either failing fails the target.
LABS_LOG := .ansible/netns-labs.log
unit: setup
	@mkdir -p $(dir $(LABS_LOG)); \
	$(BIN)/pytest -q -m netns_lab tests/integration > $(LABS_LOG) 2>&1 & labs=$$!; \
	$(BIN)/pytest -q -n auto -m "not netns_lab" tests/unit tests/integration; rest=$$?; \
	wait $$labs; labs_rc=$$?; echo "netns labs (one at a time, beside the rest):"; \
	cat $(LABS_LOG); [ $$rest -eq 0 ] && [ $$labs_rc -eq 0 ]

# The hooks of .pre-commit-config.yaml over every file: ruff, mypy (mypy.ini), yamllint, the
# generated doc tables, antsibull-changelog lint, ansible-lint (pre-commit's own state stays in
# the checkout).
lint: setup
	PRE_COMMIT_HOME=$(CURDIR)/.ansible/pre-commit $(BIN)/pre-commit run --all-files --show-diff-on-failure

# CHANGELOG.rst with the next release's section made from changelogs/fragments (a preview: the
# fragments stay; `antsibull-changelog release` at release time consumes them).
changelog: setup
	tools/changelog-preview.sh

doc-check: setup
	tools/doc-check.sh

sanity: setup
	tools/sanity.sh

molecule: setup
	$(BIN)/molecule test --all

benchmark: setup
	$(BIN)/python benchmarks/bench_plan.py
	$(BIN)/python benchmarks/bench_site_scale.py

# Regenerate the golden files after an intended change of the rendered output (review the diff):
# every scenario under tests/golden/ (example: the whole fabric; the others one feature each),
# each through ansible-playbook site.yml on its inventory. `make golden GOLDEN=three-tier`: one.
golden: setup
	$(BIN)/python tools/golden.py $(GOLDEN)

# Regenerate the input-schema and name-grammar tables of docs/fabric-and-checks.md.
schema-doc: setup
	$(BIN)/python tools/schema-doc.py

# Execution environment build context (.build/ee/context); build the image with
# `.venv/bin/ansible-builder build -f execution-environment.yml` where podman or docker runs.
ee: setup
	rm -rf .build/ee && mkdir -p .build/ee
	$(BIN)/ansible-galaxy collection build --output-path .build/ee .
	mv .build/ee/roce-fabric-*.tar.gz .build/ee/roce-fabric.tar.gz
	$(BIN)/ansible-builder create -f execution-environment.yml -c .build/ee/context

clean:
	rm -rf $(VENV) .collections .build .ansible tests/output
