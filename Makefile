# jgym: run "make help" for the list of targets.
SHELL := /bin/bash
GO ?= go
BIN := bin/jgym
VENV ?= .venv
PY := $(VENV)/bin/python
BUF := $(GO) run github.com/bufbuild/buf/cmd/buf@v1.75.0

.DEFAULT_GOAL := help

help: ## list the targets
	@awk 'BEGIN{FS=":.*## "} /^[a-zA-Z_-]+:.*## /{printf "  \033[36m%-14s\033[0m %s\n", $$1, $$2}' $(MAKEFILE_LIST)

build: ## build bin/jgym
	$(GO) build -o $(BIN) ./cmd/jgym

setup: build ## build jgym and create the Python venv (.venv) with the client
	scripts/setup-python.sh $(VENV)

demo: ## the main job: train from scratch against Demo (65,536 env steps), evaluate, write a replay
	@if [ ! -x $(PY) ] || ! $(PY) -c 'import torch' 2>/dev/null; then \
	  echo "make demo: first the Python environment $(VENV), jgym[train] alone (scripts/setup-python.sh, the lock"; \
	  echo "  python-client/constraints-train.txt): 6 to 10 minutes on a busy 2-core machine, mostly downloads."; \
	  echo "  PyTorch's CPU build where download.pytorch.org answers; else PyPI's build, whose CUDA libraries"; \
	  echo "  are 1.7 GB of the venv's 3.3 GB (benchmarks/notebook/first-hour.md). Then 5 to 8 minutes of"; \
	  echo "  training on two cores (benchmarks/notebook/results-history.md, 'The newcomer path') and two evaluations"; \
	fi
	$(MAKE) --no-print-directory build
	JGYM_PY_EXTRAS=$${JGYM_PY_EXTRAS:-train} scripts/setup-python.sh $(VENV)
	VENV=$(VENV) scripts/demo.sh

generate: ## regenerate the gRPC code (Go and Python) from api/, and python-client/jgym/_games.py and env/GAME/def_gen.go from the game definitions
	cd api && $(BUF) generate
	python-client/scripts/gen_proto.sh
	$(GO) test ./cmd/jgym -run 'TestGenerated(Python|Go)' -update

lint-proto: ## buf lint and check the generated code is fresh
	cd api && $(BUF) lint
	scripts/check-generated.sh

test-go: ## Go: vet, and the tests (the race detector on all but the game packages' single-goroutine tests: scripts/test-go.sh)
	$(GO) vet ./...
	GO=$(GO) scripts/test-go.sh

test-py: ## Python: ruff, type check and pytest (needs make setup)
	scripts/test-python.sh $(VENV)

wheel: ## the wheel with the server inside (this platform) and the sdist, in dist/ (its own build venv: .venv-build)
	scripts/build-wheel.sh host

wheels: ## the wheels of every platform (cross-compiled: Linux x86_64/aarch64, macOS) and the sdist
	scripts/build-wheel.sh all

test-wheel: wheel ## install the wheel in a fresh venv, no Go on PATH, and run the README's Python quick-start; make wheel on a fresh clone
	scripts/test-wheel.sh

test-deploy: ## build the Docker image's server binary, run 3 replicas and a client spread over them
	scripts/build-server.sh bin/jgym-linux
	VENV=$(VENV) JGYM_BIN=bin/jgym-linux scripts/replicas.sh check 3

test-docs: build ## run the docs' shell and Python blocks (docs/docs-harness.md; needs make setup)
	$(PY) scripts/docs_harness.py --venv $(VENV) --jobs 2

test: lint-proto test-go test-py test-wheel test-deploy test-docs ## run every test

bench: build ## run the Go benchmarks and print figures
	$(GO) test -run '^$$' -bench . -benchmem ./env/... ./vec/... ./server/...
	$(BIN) bench --games 200
	$(BIN) bench --games 200 --trace

bench-server: ## env-steps/s in process and through the server (benchmarks/README.md#server)
	$(GO) run ./benchmarks/grpcbench -envs 1,16,64,256 -duration 3s -repeat 3 -out benchmarks/results/grpcbench.json
	$(GO) run ./benchmarks/grpcecho

serve: build ## start a server on 127.0.0.1:50051
	$(BIN) serve

.PHONY: help build setup demo generate lint-proto test-go test-py wheel wheels test-wheel test-deploy test-docs test bench bench-server serve
