# The two commands a fresh Debian machine needs: `make run` and `make test`.
SWIFT ?= swift
BIN := .build/release/livetranscriber
DEMO_HOME ?= $(CURDIR)/.build/demo-library
LIBRIVOX := /usr/share/pocketsphinx/test/data/librivox
# whisper.cpp's pkg-config file, written by scripts/install-whisper.sh.
export PKG_CONFIG_PATH := $(CURDIR)/.deps/whisper/lib/pkgconfig$(if $(PKG_CONFIG_PATH),:$(PKG_CONFIG_PATH))

.PHONY: run test deps build release bench clean

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

clean:
	rm -rf .build
