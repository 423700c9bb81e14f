# The two commands of the README: `make bench` and `make test`. Both install
# what is missing (Debian's Chromium) before they start.

GO      ?= go
BIN     := bin/contractbench
SUITE   := benchmarks/webvoyager

.PHONY: test bench bench-speed bench-judge peers peers-bench build chromium fmt-check vet

build:
	$(GO) build -o $(BIN) ./cmd/contractbench

chromium:
	@sh scripts/ensure-chromium.sh

fmt-check:
	@out="$$(gofmt -l cmd internal)"; \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

## test: gofmt check, go vet, and every test under the race detector. The
## timeout is go test's per-package limit, raised from its 10 minutes: on a
## busy 2-core machine the end-to-end packages take longer, and whether the
## tests pass must not depend on how busy the machine is.
test: chromium fmt-check vet
	$(GO) test -race -count=1 -timeout 45m ./...

## bench: the WebVoyager suite with the replay agent on the hermetic fixture
## web, judged by contract, gated on baseline.json; writes the report.
bench: chromium build
	$(BIN) validate $(SUITE)
	$(BIN) run --suite $(SUITE) --gate

## bench-speed: wall and CPU time of the whole suite, end to end, median of 5 runs
## at -j 1, 2 and 3.
bench-speed: chromium build
	sh scripts/bench-speed.sh 5 1 2 3

## bench-judge: Go benchmarks of the contract judge and the screenshot hash.
bench-judge:
	$(GO) test -run '^$$' -bench . -benchmem -count 5 ./internal/contract ./internal/phash

## peers: the pinned peer MCP servers (@playwright/mcp, chrome-devtools-mcp)
## in ./node_modules, for --server playwright|chrome-devtools. Downloads
## npm packages only, never a browser.
peers:
	@sh scripts/install-peers.sh

## peers-bench: the suite on every server of benchmarks/servers.yaml, side by
## side (docs/benchmarks/servers.md).
peers-bench: chromium peers build
	$(BIN) compare --suite $(SUITE) -j 2
