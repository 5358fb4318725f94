# roce.fabric developer entry points. `make demo` and `make test` are all a new machine needs:
# both set up .venv (and the Debian packages the tests use) on first run.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
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

.PHONY: setup demo test unit lint sanity molecule doc-check benchmark golden schema-doc ee clean

setup: $(STAMP) $(LINK)

$(STAMP): requirements.txt requirements-test.txt tools/setup-system.sh
	tools/setup-system.sh
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --disable-pip-version-check --upgrade pip 2>&1 | grep -v "^WARNING: Location" || true
	$(BIN)/pip install -q --disable-pip-version-check -r requirements-test.txt 2>&1 | grep -v "^WARNING: Location" || true
	$(BIN)/python -c "import ansible, molecule, testinfra, hypothesis, netaddr, libyang"
	touch $@

$(LINK):
	mkdir -p $(dir $@)
	ln -sfn ../../.. $@

demo: setup
	$(BIN)/ansible-playbook site.yml

test: unit lint doc-check sanity molecule

unit: setup
	$(BIN)/pytest -q tests/unit tests/integration

lint: setup
	$(BIN)/yamllint -s .
	$(BIN)/ansible-lint --profile production

doc-check: setup
	tools/doc-check.sh

sanity: setup
	tools/sanity.sh

molecule: setup
	$(BIN)/molecule test --all

benchmark: setup
	$(BIN)/python benchmarks/bench_plan.py

# Regenerate the golden files after an intended change of the rendered output (review the diff).
golden: setup
	rm -rf tests/golden/example
	$(BIN)/ansible-playbook site.yml -e switch_output_dir=$(CURDIR)/tests/golden/example

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
