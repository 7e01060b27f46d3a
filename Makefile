# Framewright. `make run` starts the product on its embedded defaults; `make test` runs every check.
# Both install what is missing first (Debian packages, npm packages) and are quick when all is there.
SHELL := /bin/bash
# Node 24 and npm as scripts/install.sh provides them (.cache/node), first on PATH for every target.
export PATH := $(CURDIR)/.cache/node/bin:$(PATH)
.DEFAULT_GOAL := help

.PHONY: help install build images run test lint format typecheck test-only fuzz crds clients bench-movie bench-api bench-api-profile bench-render bench-e2e bench-operator bench-parallel bench-leases bench-player gpu-check soak clean

help: ## Show the targets
	@grep -E '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-14s %s\n", $$1, $$2}'

install: ## Install system and npm dependencies when missing
	@scripts/install.sh

build: install ## Compile to plain JavaScript in dist/ (what the images run; bin/framewright uses it when current)
	scripts/build.sh

images: install ## Build the images of ./Dockerfile (framewright, framewright-worker) into local storage, no Docker engine (scripts/images.sh)
	scripts/images.sh

run: install ## Start API + executor on the embedded defaults (PGlite, local disk)
	./bin/framewright serve

test: install ## Lint, typecheck, run every test against real services, fuzz the API
	npx biome check .
	npx tsc --noEmit
	scripts/test.sh

test-only: ## Run the tests without install, lint or typecheck (TESTS="file ..." to pick)
	scripts/test.sh $(TESTS)

fuzz: install ## Fuzz the API from its OpenAPI document (schemathesis, fixed seed; FUZZ_SEED= to vary)
	scripts/fuzz-api.sh

lint: ## Biome lint + format check
	npx biome check .

format: ## Apply Biome formatting and safe fixes
	npx biome check --write .

typecheck: ## tsc --noEmit
	npx tsc --noEmit

crds: ## Regenerate crds/ from the TypeBox schemas of lib/kube/render-resource.ts
	node --import tsx scripts/generate-crd.ts

clients: install ## Regenerate the typed API clients in clients/ (TypeScript, Python) from api/openapi.json
	node --import tsx scripts/generate-clients.ts

bench-movie: install ## Validation + resolution of a 500-scene document vs JSON.parse
	./bin/framewright bench movie

bench-api: install ## autocannon against the API vs a bare Fastify route
	scripts/with-services.sh ./bin/framewright bench api

bench-api-profile: install ## Where GET /v1/renders/{id} spends its CPU, per plugin and process (bench/profiles/)
	scripts/with-services.sh node --import tsx bench/api.ts --profile

# The commit `make bench-render` renders the three movies with beside this checkout, alternately:
# by default the last one that drew through Xvfb and GLX (gl 8), the CPU path EGL replaced. Give
# BENCH_BASE=HEAD~1 to hold a change to its parent.
BENCH_BASE ?= ed2d1a7

bench-render: install ## Render examples/bench-60s.json (and the text-heavy bench-60s-text.json, the motion-graphics bench-60s-motion.json) vs the ffmpeg encode floor, then all three against BENCH_BASE
	./bin/framewright bench render
	./bin/framewright bench render --against "$$(scripts/bench-baseline.sh $(BENCH_BASE))"

gpu-check: install ## The three bench movies through the GPU path and the CPU path (Mesa): renderer, draw/encode/end-to-end fps, largest pixel difference
	./bin/framewright bench gpu-check

bench-player: install ## The browser player in headless Chromium (SwiftShader): bench-60s at 540p and 1080p, playback fps, dropped frames, seek p50/p95/max vs the page's rAF rate
	./bin/framewright bench player

bench-parallel: install ## A 10-minute 1080p movie as 1, 4 and 8 segment pods: per-step CPU, computed N-node wall
	./bin/framewright bench parallel

bench-e2e: install ## 20 renders through the whole pipeline
	./bin/framewright bench e2e

bench-operator: install ## 1,000 Renders -> Jobs through the operator vs direct Job creates
	scripts/with-services.sh ./bin/framewright bench operator

bench-leases: install ## Claim, heartbeat and the abandoned sweep with 10,000 renders running vs the statements before
	scripts/with-services.sh ./bin/framewright bench leases

soak: install ## Random faults (database, Redis, S3, killed workers and serve) while renders run, SOAK_MINUTES (10); prints done, lost, charged twice, what is left after retention, serve's memory
	scripts/with-services.sh node --import tsx test/faults/soak.ts

clean: ## Remove local data and scratch files
	rm -rf data .tmp dist
