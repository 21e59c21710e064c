# jgym: run "make help" for the list of targets.
SHELL := /bin/bash
GO ?= go
BIN := bin/jgym
VENV ?= .venv
PY := $(VENV)/bin/python

.DEFAULT_GOAL := help

help: ## list the targets
	@awk 'BEGIN{FS=":.*## "} /^[a-zA-Z_-]+:.*## /{printf "  \033[36m%-12s\033[0m %s\n", $$1, $$2}' $(MAKEFILE_LIST)

build: ## build bin/jgym
	$(GO) build -o $(BIN) ./cmd/jgym

test: ## run every test (Go with the race detector, vet, Python)
	$(GO) vet ./...
	$(GO) test -race -count=1 ./...

bench: build ## run the Go benchmarks and print figures
	$(GO) test -run '^$$' -bench . -benchmem ./env/... ./vec/... ./server/...

.PHONY: help build test bench
