# The README's commands. `make run` shows the demo; `make test` runs every test.
# Both install what they need first (scripts/install-deps skips what is there).

SWIFT ?= swift
ORIENTD_EVAL_DIR ?= $(abspath ../shared/eval)
export ORIENTD_EVAL_DIR

.PHONY: all deps build release run demo test lint format bench latency clean

all: build

deps:
	@scripts/install-deps

build:
	$(SWIFT) build

release:
	$(SWIFT) build -c release --product orientd --static-swift-stdlib

run demo: deps
	@scripts/demo

test: deps lint
	$(SWIFT) build --build-tests
	ORIENTD_PYTHON=$$(scripts/python-with-numpy) $(SWIFT) test
	@echo "== demo (short run)"
	@out=$$(SCENARIOS=rotate scripts/demo) && echo "$$out" && \
		count=$$(echo "$$out" | grep -c '"device"') && test "$$count" -gt 1 && \
		echo "demo: $$count classifications printed"

lint:
	$(SWIFT) format lint --strict --recursive Sources Tests Benchmarks Package.swift

format:
	$(SWIFT) format format --in-place --recursive Sources Tests Benchmarks Package.swift

bench:
	$(SWIFT) package --disable-sandbox benchmark

# Event latency of the release daemon on an emulated accelerometer (figures, not a test).
latency: deps
	$(SWIFT) build -c release --product orientd
	scripts/latency.py $$($(SWIFT) build -c release --show-bin-path)/orientd --changes 200

clean:
	rm -rf .build
