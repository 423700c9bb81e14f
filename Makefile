# The two commands of the README: `make bench` and `make test`. Both install
# what is missing (Debian's Chromium) before they start.

GO      ?= go
BIN     := bin/contractbench
SUITE   := benchmarks/webvoyager
SANDBOX := benchmarks/sandbox
GENERATED := benchmarks/generated

.PHONY: test bench bench-cpu bench-trace bench-speed bench-judge bench-reading bench-generated generated peers peers-bench build chromium fmt-check vet staticcheck

build:
	$(GO) build -ldflags "-X contractbench/internal/cli.stamped=$$(sh scripts/version.sh)" -o $(BIN) ./cmd/contractbench

chromium:
	@sh scripts/ensure-chromium.sh

fmt-check:
	@out="$$(gofmt -l cmd internal docs)"; \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

# staticcheck at a pinned version, run through the Go module proxy (no
# binary to install; the first run builds it).
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2

staticcheck:
	$(GO) run $(STATICCHECK) ./...

## test: gofmt check, go vet, staticcheck, and every test under the race
## detector, internal/architecture's import and process rules among them.
## The peer servers are installed first: their tests fail when they are
## missing (CONTRACTBENCH_SKIP_PEERS=1 skips them instead). The end-to-end
## packages run suites in real browsers; where a check covers a whole
## (every suite on every server, the null agents on every task, the
## generated suite's controls and alternates) make test plays a sample and
## a bench- target below the whole. go test's events go through
## cmd/testprogress, which prints each package as it starts and ends, a
## line a minute naming what still runs, each failed test's output, and a
## summary at the end; make test exits with go test's status.
test: chromium peers fmt-check vet staticcheck
	$(GO) build -o bin/testprogress ./cmd/testprogress
	bin/testprogress $(GO) test -json -race -count=1 -timeout 90m ./...

## bench: the WebVoyager suite with the replay agent on the hermetic fixture
## web, judged by contract, gated on baseline.json; then the sandbox suite
## (tasks that change things on the sandbox's own sites) and the generated
## suite (318 tasks from templates over five applications), each gated on
## its own baseline.json, each JOBS tasks at a time (three for each of
## the machine's processors: a replayed task waits for its pages to settle
## half its time or more, and more tasks keep the processors busy; JOBS=4
## make bench to choose). Writes the three
## reports into each suite's reports/ folder, and ends with a table of the three: score
## with its interval, gate, and the reports' paths. A suite that fails does
## not stop the others; make bench then fails.
JOBS ?= $(shell n=$$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2); echo $$((3 * n)))
BENCH_TABLE := bin/bench-summary.txt
bench: chromium build
	@rm -f $(BENCH_TABLE); status=0; \
	$(BIN) validate $(SUITE) && $(BIN) run --suite $(SUITE) --gate -j $(JOBS) --summary $(BENCH_TABLE) || status=1; \
	$(BIN) validate $(SANDBOX) && $(BIN) run --suite $(SANDBOX) --gate -j $(JOBS) --summary $(BENCH_TABLE) || status=1; \
	$(BIN) validate $(GENERATED) && $(BIN) run --suite $(GENERATED) --gate -j $(JOBS) --summary $(BENCH_TABLE) || status=1; \
	echo; echo "make bench:"; cat $(BENCH_TABLE) 2>/dev/null; exit $$status

## bench-speed: wall and CPU time, end to end, of the seed's ten tasks
## (median of 5 runs at -j 1, 2 and 3) and of the whole suite (median of 3
## runs at -j 2).
SEED := task-01 task-02 task-03 task-04 task-05 task-06 task-07 task-08 task-09 task-10
bench-speed: chromium build
	CONTRACTBENCH_BENCH_TASKS="$(SEED)" sh scripts/bench-speed.sh 5 1 2 3
	sh scripts/bench-speed.sh 3 2

## bench-cpu: what one task costs the processor, per kind of process
## (Chromium's browser, renderers, GPU process, network service; the
## harness; the tool server) and in all: the first instance of every
## template of the generated suite and the seed's ten, each with the replay
## and the noop agent, one task at a time, median of 3 runs
## (docs/benchmarks/browser.md). Every process of the run is counted in a
## cgroup of its own when one can be made.
bench-cpu: chromium build
	sh scripts/bench-cpu.sh 3

## bench-trace: Chromium's own trace of the first instance of each
## template of the generated suite, replayed one at a time with
## --trace off (cmd/chrometrace): the CPU time of each kind of process and
## thread in the tasks it ran, and the events that took the most of it
## themselves. The trace is bin/chrometrace.json (Perfetto's UI opens it);
## chrometrace -read prints its tables again
## (docs/benchmarks/browser.md).
FIRSTS = $(shell ls $(GENERATED)/tasks | sed -n 's/-01\.yaml$$/-01/p')
bench-trace: chromium build
	$(GO) run ./cmd/chrometrace -out bin/chrometrace.json -- --suite $(GENERATED) --trace off --out bin/chrometrace-reports $(addprefix --task ,$(FIRSTS))

## bench-judge: Go benchmarks of the contract judge and the screenshot hash.
bench-judge:
	$(GO) test -run '^$$' -bench . -benchmem -count 5 ./internal/contract ./internal/phash

## bench-reading: dom_text on real markup: up to twenty sentences of each
## page's expected text in the realpages corpus, looked for on the page by
## the judge (docs/benchmarks/reading.md). The corpus is not part of this
## repository; REALPAGES is its folder.
REALPAGES ?= ../shared/corpora/realpages
bench-reading: chromium
	CONTRACTBENCH_REALPAGES=$(REALPAGES) $(GO) test ./internal/judge -run TestRealPagesSentences -v -count=1 -timeout 30m

## peers: the pinned peer MCP servers (@playwright/mcp, chrome-devtools-mcp)
## in ./node_modules, for --server playwright|chrome-devtools. Downloads
## npm packages only, never a browser.
peers:
	@sh scripts/install-peers.sh

## peers-bench: the suite on every server of benchmarks/servers.yaml, side by
## side (docs/benchmarks/servers.md).
peers-bench: chromium peers build
	$(BIN) compare --suite $(SUITE) -j 2

## bench-capacity: how many tasks one machine holds open at a model's
## pace: both suites with the replay agent paced at 3 s a turn, at -j 1,
## 8, 16, 32 and 64, a browser per 8 workers; tasks per minute, time
## beyond the pacing, peak memory, CPU per task, errors
## (docs/benchmarks/capacity.md).
.PHONY: bench-capacity bench-chaos bench-soak bench-null bench-servers bench-web
bench-capacity: chromium build
	sh scripts/bench-capacity.sh 1 8 16 32 64

## bench-chaos: the long chaos test: a paced suite at -j 32 over four
## browsers while a seeded schedule kills browsers and tool servers and
## makes the web answer 500 or drop connections for a moment; every attempt ends with one result, and no fault is blamed on the agent.
bench-chaos: chromium
	CONTRACTBENCH_CHAOS=long $(GO) test ./internal/cli -run TestChaos -v -count=1 -timeout 60m

## bench-soak: both suites, every task 20 times with the replay agent
## (860 attempts); every attempt must end as its task's first did, with
## the same replies (docs/benchmarks/capacity.md).
bench-soak: chromium
	CONTRACTBENCH_SOAK=20 $(GO) test ./internal/cli -run TestSoak -v -count=1 -timeout 120m

## generated: write benchmarks/generated again from its seed and count,
## and record its reference transcripts (every task on the built-in
## server, the first two instances of every template on each peer). Run
## it after changing a template or a page of the sandbox's applications.
generated: chromium build peers
	sh scripts/generated-suite.sh

## bench-null: both null agents (noop, random --seed 1) on every task of
## the hand-written suites; each must score 0 (make test: the random agent
## on every fourth task). The generated suite's are bench-generated's.
bench-null: chromium
	CONTRACTBENCH_LONG=1 $(GO) test ./internal/cli -run '^TestNullAgentsScoreZero$$' -v -count=1 -timeout 120m

## bench-servers: every suite's reference transcripts replayed and gated
## on the server they were recorded on, every one of them (make test:
## a share on each peer).
bench-servers: chromium peers
	CONTRACTBENCH_LONG=1 $(GO) test ./internal/cli -run '^TestEverySuiteOnEveryServer$$' -v -count=1 -timeout 180m

## bench-web: web check on every task of every suite: each task's
## reference played on its hermetic web, every request it makes answered
## from the archive or the sandbox's sites (make test: a sample of each).
bench-web: chromium build
	@status=0; for s in $(SUITE) $(SANDBOX) $(GENERATED); do $(BIN) web check --suite $$s -j $(JOBS) || status=1; done; exit $$status

## bench-generated: the whole generated suite: every task replayed on the
## built-in server and gated, every near-miss control played (each must
## fail on its clause), every alternate played (each must pass), both null
## agents (each must score 0), and the random agent with seeds 1 to 20 on
## every task that cannot be done (each must fail), with the time of each
## (docs/benchmarks/generated.md).
bench-generated: chromium build
	sh scripts/bench-generated.sh
