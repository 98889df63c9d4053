# The two commands a fresh Debian machine needs: `make run` and `make test`.
SWIFT ?= swift
BIN := .build/release/livetranscriber
DEMO_HOME ?= $(CURDIR)/.build/demo-library
LIBRIVOX := /usr/share/pocketsphinx/test/data/librivox

.PHONY: run test deps build release bench bench-pipe clean

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

# Records real speech (librivox recordings from pocketsphinx-testdata) in real time
# with the live view, saves it to a demo library, and prints the saved recording.
run: release
	@scripts/make-demo-audio.sh .build/demo.wav
	LIVETRANSCRIBER_HOME=$(DEMO_HOME) $(BIN) record --input .build/demo.wav --name "Sense and Sensibility (demo)" --tags demo,librivox
	LIVETRANSCRIBER_HOME=$(DEMO_HOME) $(BIN) show latest

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

bench: release
	scripts/bench.sh

# Only the long pipe/raw input memory section of BENCHMARKS.md (issue 8, item 15).
bench-pipe: release
	python3 scripts/bench.py pipe-memory

clean:
	rm -rf .build
