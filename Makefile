# The two commands a fresh Debian machine needs: `make run` and `make test`.
SWIFT ?= swift
BIN := .build/release/livetranscriber
DEMO_HOME ?= $(CURDIR)/.build/demo-library
LIBRIVOX := /usr/share/pocketsphinx/test/data/librivox

.PHONY: run test deps build release bench clean ios-check

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

# Type-checks the iOS app and widget (Apple/) and the core against an iPhoneOS SDK folder the
# user supplies: make ios-check IOS_SDK=/path/to/iPhoneOS26.2.sdk (see docs/ios.md).
ios-check:
	@if [ -z "$(IOS_SDK)" ]; then \
	  echo "ios-check: skipped: no iPhoneOS SDK given. The SDK is Apple's and not in this repository;"; \
	  echo "ios-check: run 'make ios-check IOS_SDK=/path/to/iPhoneOS26.2.sdk' (docs/ios.md says how to get one)."; \
	else scripts/ios-check.sh "$(IOS_SDK)"; fi
