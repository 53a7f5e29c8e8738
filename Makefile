# d3dsim: `make test` is what CI runs (.ci/run) and what the README tells
# developers to run.

GO       ?= go
# An execution count, not a duration: a duration ends in "context deadline
# exceeded" when it runs out during a slow input (seen in CI).
# 20,000 inputs a target: the suite's fuzz pass is a bounded smoke run (the
# corpus grows from the seeds each time); longer runs are `go test -fuzz`'s.
FUZZTIME ?= 20000x
# Fewer for the targets whose inputs cost more (DIR:TARGET=COUNT): about two
# seconds of inputs on two workers at the rate a loaded CI run measured, at
# most FUZZTIME. FuzzTranslateHostile translates generated programs of up to
# 20,000 nested blocks (some 60 a second; 3,000 of them found nothing new);
# FuzzTypeCheckLayoutGen, FuzzCompile and FuzzRun compile HLSL or run whole
# scenarios (350-2,700 a second); the scenario parser, the fxc header parser
# and the trace reader 1,500-5,600. The seed corpora run in make unit.
FUZZCOUNTS ?= ./core/umd/translate:FuzzTranslateHostile=300x ./core/hlsl:FuzzTypeCheckLayoutGen=1000x \
	./core/hlsl:FuzzCompile=3000x ./core/scenario:FuzzRun=3000x ./core/scenario:FuzzParse=5000x \
	./core/dxbc:FuzzParseFxcHeader=10000x ./core/apitrace:FuzzReader=10000x
# go_js_wasm_exec (runs GOOS=js test binaries under node) lives here.
WASMEXEC := $(shell $(GO) env GOROOT)/lib/wasm

.PHONY: run wasm site test test-go fmt vet check-timing unit race test-wasm fuzz soak test-browser figures bench

# Build what is stale and serve the app on http://127.0.0.1:8080/.
run:
	$(GO) run .

# Build web/main.wasm and web/wasm_exec.js (when stale) without serving.
wasm:
	$(GO) run . -build-only

# The static site in dist/ (docs/embedding.md): the page, main.wasm and
# main.wasm.gz, wasm_exec.js, the scenarios and tutorials as files, the
# gallery. Relative paths only: copy dist/ to any static host, any sub-path.
# Rebuilt from scratch, so a file removed from web/ leaves dist/ too.
# BASE=URL: the address the site will be published at (the gallery's cards
# link there).
site:
	rm -rf dist
	$(GO) run . -site dist $(if $(BASE),-base $(BASE))

# Everything: the Go checks, then the browser tests. internal/testall runs
# each target to its end even when one fails, prints a line per target with
# its duration, and ends with a summary: the targets that passed and failed,
# the tests that failed, the slowest ten Go tests and browser tests. Each
# target's output is kept in out/test/TARGET.log. Exit status 1 if any failed.
# The browser tests run beside the Go targets, from the start (TEST_BESIDE):
# they wait on pages far more than they compute (819 s of wall clock for
# 300 s of CPU when they ran after the others on 2 cores), so side by side
# the suite takes about as long as its longer half. The WebAssembly tests
# run beside too (a comma-separated list): 74 s of wall clock for 90 s of
# CPU on 2026-11-28, when the Go targets in a row (906 s) were the long pole
# and the whole run used 1.14 of the 2 cores on average.
TEST_TARGETS ?= fmt vet check-timing unit race test-wasm fuzz test-browser
TEST_BESIDE ?= test-browser,test-wasm
test:
	@$(GO) build -o out/test/testall ./internal/testall && out/test/testall -logs out/test -alongside '$(TEST_BESIDE)' $(TEST_TARGETS)

# The Go parts only (the same runner and summary).
test-go:
	@$(GO) build -o out/test/testall ./internal/testall && out/test/testall -logs out/test $(filter-out test-browser,$(TEST_TARGETS))

# Flags for the `go test` runs of check-timing, unit, race and test-wasm: make test passes
# -json, which internal/testall reads for the summary.
GOTESTFLAGS ?=
# go test's own limit on a package's run, a hang detector, not a speed
# check: its default of 10 minutes ended core/scenario on a 2-core machine
# at a load average of 16 (a loaded machine is slow, not broken).
TESTTIMEOUT ?= 60m

fmt:
	@out="$$(gofmt -l .)"; if [ -n "$$out" ]; then echo "gofmt -l: these files need gofmt -w:"; echo "$$out"; exit 1; fi

# GOEXPERIMENT=simd: the gpu package's vector rows (gpu/spanrow_simd.go,
# docs/performance.md) and the shader machine's vector kernels
# (gpu/shader/kernels_simd.go), which the default build leaves out, are
# vetted and tested too (unit).
vet:
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./wasm
	GOEXPERIMENT=simd $(GO) vet ./gpu ./gpu/shader

# No test asserts on wall-clock time, and no browser test sleeps for a fixed
# time (timing_test.go: TestNoTimedAssertions; make unit runs it too).
check-timing:
	$(GO) test $(GOTESTFLAGS) -count=1 -run '^(TestNoTimedAssertions|TestTimedAssertionPatterns)$$' .

# -vet=off: make vet runs every analyzer over the same packages and files
# (make test runs it first); go test's own shorter list would type-check each
# package from source once more. test-wasm keeps it: GOOS=js has files of
# its own (gpu/tiles_wasm.go) that make vet does not see.
unit:
	$(GO) test $(GOTESTFLAGS) -vet=off -timeout $(TESTTIMEOUT) ./...
	GOEXPERIMENT=simd $(GO) test $(GOTESTFLAGS) -short -vet=off -timeout $(TESTTIMEOUT) ./gpu ./gpu/shader

# The packages that start goroutines (the GPU's tile workers, the quad
# evaluator, the scenario runner's free-threaded calls and stress tests) or
# import unsafe, under the race detector (short) but the free-threaded
# stress tests, then those at full size. RACE_PKGS is checked by
# race_test.go (TestRacePackages): a package that starts a goroutine must be
# in it. The packages that only call into them (the importer, the CLI, the
# shader-test runner) ran the same code 5-15 times slower under the
# detector, with no goroutine of their own for it to watch.
RACE_PKGS := core/dxgk core/hlsl core/scenario core/sim core/trace core/xsync gpu gpu/shader
# In core/hlsl only the tests that start goroutines run under the detector
# (RACE_HLSL_RUN: the compile cache's, and RunQuad's four invocations of a
# quad, one goroutine each): its other tests compile and evaluate
# on the test's own goroutine (no other test there calls t.Parallel or RunQuad),
# where the detector has no second goroutine to compare with; they took 194
# s of wall clock at a load of 25 (37 CPU-seconds), TestLimitsRaised alone 55.
RACE_HLSL_RUN := ^(TestCache|TestRunQuad)
# In core/scenario the tests whose property is a bound or a count kept on
# the test's goroutine (the heap of failing creations, HLSL's load budget,
# the tutorials' quoted figures, debug messages, the frame cap, the time
# budget, the verifier's dispatch) run in make unit only: the scenarios they
# run are ones the other tests (TestTutorials, TestGoldenImages, the
# free-threaded ones) run under the detector and in node, and they were 100
# of the package's 304 s of wall clock under the detector in the CI run before.
BOUND_TESTS := TestFailingCreationsHeapBounded|TestHLSLLoadBudget|TestTutorialFigures|TestMessagesBounded|TestFrameCap|TestTimeBudget|TestDispatchSame
# In gpu the tests that hold a unit against its slow reference (the
# rasterizer, the line walk, the sampler) call the unit on the test's
# goroutine, with no rig and no tile workers (tileWorker is gpu's only
# goroutine): make unit runs them; under the detector they were 11.4
# CPU-seconds of gpu's 45 (2026-11-28, at a load of 6-10).
REFERENCE_TESTS := TestRasterMatchesReference|TestSampleAgainstReference|TestLineWalkMatchesReference
RACE_SKIP := ^(TestRace.*|$(BOUND_TESTS)|$(REFERENCE_TESTS))$$
race:
	$(GO) test $(GOTESTFLAGS) -timeout $(TESTTIMEOUT) -race -short -skip '$(RACE_SKIP)' $(addprefix ./,$(filter-out core/hlsl,$(RACE_PKGS)))
	$(GO) test $(GOTESTFLAGS) -timeout $(TESTTIMEOUT) -race -short -run '$(RACE_HLSL_RUN)' ./core/hlsl
	$(GO) test $(GOTESTFLAGS) -timeout $(TESTTIMEOUT) -race -run '^TestRace' ./core/scenario

# The scenario runner and the GPU (its golden images, hard-wired and shader
# ISA, and every other test: 33 s under node) under WebAssembly, where
# float->int conversions and the like differ from amd64 and the tile
# workers do not exist (docs/architecture.md "Time and determinism").
test-wasm:
	PATH="$(WASMEXEC):$$PATH" GOOS=js GOARCH=wasm $(GO) test $(GOTESTFLAGS) -timeout $(TESTTIMEOUT) -skip '^($(BOUND_TESTS))$$' ./core/scenario/... ./gpu/shader/...
	PATH="$(WASMEXEC):$$PATH" GOOS=js GOARCH=wasm $(GO) test $(GOTESTFLAGS) -timeout $(TESTTIMEOUT) ./gpu

# A bounded run of every Fuzz target in the repo, found by grep so new ones
# are picked up. Every target runs even when one fails; the failed ones are
# named at the end.
fuzz:
	@failed=""; \
	for file in $$(grep -rlE --include='*_test.go' --exclude-dir=node_modules --exclude-dir=.git '^func Fuzz[A-Za-z0-9_]*\(' . | sort); do \
		dir="$$(dirname "$$file")"; \
		for fn in $$(sed -nE 's/^func (Fuzz[A-Za-z0-9_]*)\(.*/\1/p' "$$file"); do \
			n=$(FUZZTIME); for c in $(FUZZCOUNTS); do case "$$c" in "$$dir:$$fn="*) n="$${c#*=}";; esac; done; \
			echo "fuzz: $$fn in $$dir for $$n"; \
			$(GO) test -timeout $(TESTTIMEOUT) -run '^$$' -fuzz "^$$fn\$$" -fuzztime $$n "$$dir" || failed="$$failed $$fn ($$dir)"; \
		done; \
	done; \
	if [ -n "$$failed" ]; then echo "fuzz: failed:$$failed"; exit 1; fi

# The page's figures on the full sizes the docs quote (docs/performance.md):
# 1,000 Draw calls a frame played with the panel open (frames per second,
# median and p99 frame time over 600 frames), the editor's check of the
# largest tutorial shader and the CPU an idle page costs over 15 s
# (tests/browser/figures.mjs; FIGURES=draws,play,editor,idle picks), the state of an event
# in a 1,000,000-event trace and a pixel history of a 1,000-draw frame (the
# suite checks those on 10,000 events and 200 draws). Printed, not asserted.
figures: wasm
	cd tests/browser && npm ci --no-audit --no-fund && node figures.mjs && D3DSIM_FIGURES=full node --test --test-name-pattern='^figures' inspect.test.mjs

# The long tests on their own (make unit runs them smaller; -short skips
# them): the soak, 1,000 rounds of the example scenarios in one process
# (make unit: 100), the hostile scenarios at 2,000,000 API calls each with
# the default trace ring (make unit: 400,000, a ring of 40,000 events), and
# the runaway loop at the default step budget of 10,000,000 API calls (make
# unit: the default read from the run, the loop stopped at 100,000).
soak:
	$(GO) test -count=1 -timeout $(TESTTIMEOUT) -run '^(TestSoak|TestHostile|TestStepBudgetDefault)$$' -v ./core/scenario -args -soak.rounds=1000 -hostile.steps=2000000 -budget.default

# Headless Chromium (/usr/bin/chromium) through playwright-core; the test
# builds and starts the server itself. npm ci installs playwright-core from
# the npm registry (or npm's cache). NODETESTFLAGS: make test adds a JUnit
# report for its summary.
# BROWSER_JOBS: test files run at once (each its own server and Chromium;
# a file's tests one after the other), started longest first by
# tests/browser/run.mjs (node --test would start them by name, and the
# longest ran alone at the end). main.wasm is built first, once, not by the
# first servers at the same time.
NODETESTFLAGS ?=
BROWSER_JOBS ?= 2
test-browser:
	@echo "test-browser: npm ci in tests/browser (playwright-core, pinned by package-lock.json, from the npm registry unless npm's cache has it)"
	$(GO) run . -build-only
	cd tests/browser && npm ci --no-audit --no-fund && node run.mjs --jobs $(BROWSER_JOBS) $(NODETESTFLAGS)

bench:
	$(GO) run ./cmd/d3dsim bench

# Redraw every picture README.md and docs/ show (docs/*.png) from the browser
# tests that put the page into each state (tests/browser/shots.mjs); without
# UPDATE_SCREENSHOTS=1 the same tests compare the committed pictures with
# what the page draws (make test-browser).
.PHONY: screenshots
screenshots:
	cd tests/browser && npm ci --no-audit --no-fund && UPDATE_SCREENSHOTS=1 node --test screenshots.test.mjs newcomer-shots.test.mjs
