# The two commands a fresh Debian machine needs: `make run` and `make test`.
SWIFT ?= swift
BIN := .build/release/livetranscriber
DEMO_HOME ?= $(CURDIR)/.build/demo-library
LIBRIVOX := /usr/share/pocketsphinx/test/data/librivox
# whisper.cpp's and sherpa-onnx's pkg-config files, written by scripts/install-whisper.sh and
# scripts/install-speakers.sh.
export PKG_CONFIG_PATH := $(CURDIR)/.deps/whisper/lib/pkgconfig:$(CURDIR)/.deps/sherpa-onnx/lib/pkgconfig$(if $(PKG_CONFIG_PATH),:$(PKG_CONFIG_PATH))

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR := $(DESTDIR)$(PREFIX)/bin
MANDIR := $(DESTDIR)$(PREFIX)/share/man/man1
BASHDIR := $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHDIR := $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHDIR := $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
# The full program, whisper.cpp's libraries and the models: <prefix>/lib/livetranscriber (the full
# program finds the libraries through its $ORIGIN run path) and <prefix>/share/livetranscriber/models.
ENGINELIBDIR := $(DESTDIR)$(PREFIX)/lib/livetranscriber
MODELDIR := $(DESTDIR)$(PREFIX)/share/livetranscriber/models
# The installed binary carries the Swift runtime (static), so it needs only the Debian libraries
# and the pocketsphinx model that scripts/install-deps.sh installs; built apart from .build/release.
# Static Foundation networking links -lcurl, but Debian's libcurl4 (which the toolchain already
# needs) has no unversioned libcurl.so without the -dev package: a link to it is made here.
# Two programs (docs/architecture.md, "Two programs"): <prefix>/bin/livetranscriber runs the library
# commands (list, show, search, export, rename, tag, delete) with only SQLite loaded and hands every other command to
# <prefix>/lib/livetranscriber/livetranscriber-full, which finds whisper.cpp next to itself ($ORIGIN).
# (-Xlinker --as-needed cannot drop libsphinxad, which pocketsphinx's pkg-config file names: SwiftPM
# puts -Xlinker flags after the libraries on the link line, where --as-needed no longer applies.)
INSTALL_BUILD := .build/install
INSTALL_BIN := $(INSTALL_BUILD)/release/livetranscriber
INSTALL_FULL := $(INSTALL_BUILD)/release/livetranscriber-full
INSTALL_FLAGS := -c release --static-swift-stdlib --scratch-path $(INSTALL_BUILD) \
	-Xlinker -L$(CURDIR)/$(INSTALL_BUILD)/link -Xlinker -rpath -Xlinker '$$ORIGIN/../lib/livetranscriber' -Xlinker -rpath -Xlinker '$$ORIGIN'

# The folders install puts files in, relative to the prefix. install records in INSTALLED_FOLDERS
# which of them (and of their parents, and the prefix itself) it had to create, deepest first;
# uninstall removes exactly those, each only when it is empty, so folders that were there before
# (an empty /usr/local/bin on Debian) and folders other programs put files in stay.
INSTALL_FOLDERS := bin share/man/man1 share/bash-completion/completions share/zsh/site-functions \
	share/fish/vendor_completions.d lib/livetranscriber share/livetranscriber/models
INSTALLED_FOLDERS := $(ENGINELIBDIR)/installed-folders

.PHONY: run test deps build release bench bench-live bench-quality bench-speakers bench-pipe bench-serve clean test-quick sanitize fuzz soak install install-folders install-path-check uninstall ios-check

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
	python3 scripts/ios-bundle.py check

# The core's tests and the store's (SQLite in temp folders, both stores' conformance suites):
# no speech models, no built program; about a minute once built. `make test` runs everything.
test-quick: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --filter 'LiveTranscriberCoreTests\.|LiveTranscriberLinuxTests\.(Library|Draft|Recording|SQLite|WAVFile)'

bench: release
	scripts/bench.sh

# Only the long pipe/raw input memory section of BENCHMARKS.md (issue 8, item 15).
bench-pipe: release
	python3 scripts/bench.py pipe-memory

clean:
	rm -rf .build

# Installs livetranscriber under $(PREFIX) (default /usr/local; DESTDIR for staging), with bash,
# zsh and fish completions and a man page, all generated from the commands' help.
install: install-path-check deps
	@mkdir -p $(INSTALL_BUILD)/link
	@ln -sf "$$(/sbin/ldconfig -p | awk '/libcurl\.so\.4 /{print $$NF; exit}')" $(INSTALL_BUILD)/link/libcurl.so
	$(SWIFT) build $(INSTALL_FLAGS) --product livetranscriber-full
	$(SWIFT) build $(INSTALL_FLAGS) --product livetranscriber
	@$(MAKE) --no-print-directory install-folders
	install -m 0755 $(INSTALL_BIN) $(BINDIR)/livetranscriber
	install -m 0755 $(INSTALL_FULL) $(ENGINELIBDIR)/livetranscriber-full
	cp -a .deps/whisper/lib/libwhisper.so* .deps/whisper/lib/libggml*.so* $(ENGINELIBDIR)/
	install -m 0644 .deps/sherpa-onnx/lib/libsherpa-onnx-c-api.so .deps/sherpa-onnx/lib/libonnxruntime.so $(ENGINELIBDIR)/
	install -m 0644 .deps/models/ggml-base.bin .deps/models/ggml-silero-vad.bin $(MODELDIR)/
	install -m 0644 .deps/models/speaker-segmentation.onnx .deps/models/speaker-embedding.onnx $(MODELDIR)/
	$(INSTALL_BIN) manpage > $(MANDIR)/livetranscriber.1
	$(INSTALL_BIN) completion bash > $(BASHDIR)/livetranscriber
	$(INSTALL_BIN) completion zsh > $(ZSHDIR)/_livetranscriber
	$(INSTALL_BIN) completion fish > $(FISHDIR)/livetranscriber.fish
	chmod 0644 $(MANDIR)/livetranscriber.1 $(BASHDIR)/livetranscriber $(ZSHDIR)/_livetranscriber $(FISHDIR)/livetranscriber.fish
	@echo "Installed $(BINDIR)/livetranscriber, $(ENGINELIBDIR)/livetranscriber-full, whisper.cpp, sherpa-onnx and their models, its man page and bash, zsh and fish completions."

# Creates the folders install puts files in, adding the ones it had to create to INSTALLED_FOLDERS
# (kept from an earlier install, so installing twice forgets nothing).
install-folders: install-path-check
	@root="$(DESTDIR)$(PREFIX)"; created=""; \
	[ -d "$$root" ] || created="."; \
	path=$$(dirname "$$root"); while [ ! -d "$$path" ]; do created="$$created $$path"; path=$$(dirname "$$path"); done; \
	for folder in $(INSTALL_FOLDERS); do \
	  path="$$folder"; \
	  while [ "$$path" != "." ]; do [ -d "$$root/$$path" ] || created="$$created $$path"; path=$$(dirname "$$path"); done; \
	done; \
	earlier=$$(cat "$(INSTALLED_FOLDERS)" 2>/dev/null); \
	install -d $(addprefix "$$root"/,$(INSTALL_FOLDERS)) || exit 1; \
	printf '%s\n' $$created $$earlier | sort -ru > "$(INSTALLED_FOLDERS).new"; \
	{ grep -v '^[./]' "$(INSTALLED_FOLDERS).new"; grep -x '\.' "$(INSTALLED_FOLDERS).new"; grep '^/' "$(INSTALLED_FOLDERS).new"; } \
	  > "$(INSTALLED_FOLDERS)"; rm -f "$(INSTALLED_FOLDERS).new"

# Removes exactly what install put there (the library of recordings is never touched): its files,
# then the folders it created, each only when empty. (pywhispercpp.libs/ is where installs made
# before whisper.cpp was built from source kept the ggml libraries.)
uninstall: install-path-check
	@created=$$(cat "$(INSTALLED_FOLDERS)" 2>/dev/null); \
	set -x; \
	rm -f "$(BINDIR)/livetranscriber" "$(MANDIR)/livetranscriber.1" "$(BASHDIR)/livetranscriber" \
		"$(ZSHDIR)/_livetranscriber" "$(FISHDIR)/livetranscriber.fish" \
		"$(ENGINELIBDIR)/livetranscriber-full" "$(ENGINELIBDIR)"/libwhisper.so* "$(ENGINELIBDIR)"/libggml*.so* "$(INSTALLED_FOLDERS)" \
		"$(ENGINELIBDIR)/libsherpa-onnx-c-api.so" "$(ENGINELIBDIR)/libonnxruntime.so" \
		"$(MODELDIR)/ggml-base.bin" "$(MODELDIR)/ggml-silero-vad.bin" "$(MODELDIR)/speaker-segmentation.onnx" "$(MODELDIR)/speaker-embedding.onnx"; \
	rm -rf "$(ENGINELIBDIR)/pywhispercpp.libs"; \
	{ set +x; } 2>/dev/null; \
	for folder in $$created; do \
	  case "$$folder" in .) path="$(DESTDIR)$(PREFIX)";; /*) path="$$folder";; *) path="$(DESTDIR)$(PREFIX)/$$folder";; esac; \
	  rmdir "$$path" 2>/dev/null && echo "rmdir $$path"; \
	done; \
	echo "Removed livetranscriber from $(DESTDIR)$(PREFIX)."

# make splits words at spaces, so a PREFIX or DESTDIR holding one would name other folders:
# install and uninstall refuse it in one line instead.
install-path-check:
	@case "$(DESTDIR)$(PREFIX)" in *" "*|*"	"*) \
	  echo "error: PREFIX and DESTDIR cannot contain spaces or tabs ('$(DESTDIR)$(PREFIX)'); choose a path without them." >&2; exit 2;; esac

# Compiles the core, the store, the iOS widget and the app (Apple/) to arm64 object code against an
# iPhoneOS SDK folder the user supplies, proves the check catches a type error and a data race, and
# validates the app bundle: make ios-check IOS_SDK=/path/to/iPhoneOS26.2.sdk (see docs/ios.md).
ios-check:
	@if [ -z "$(IOS_SDK)" ]; then \
	  echo "ios-check: skipped: no iPhoneOS SDK given. The SDK is Apple's and not in this repository;"; \
	  echo "ios-check: run 'make ios-check IOS_SDK=/path/to/iPhoneOS26.2.sdk' (docs/ios.md says how to get one)."; \
	else scripts/ios-check.sh "$(IOS_SDK)" && scripts/ios-check-selftest.sh "$(IOS_SDK)"; fi

# Only the live latency section of BENCHMARKS.md (issue 36): the built program in real time, about 6 minutes.
bench-live: release
	python3 scripts/bench.py live-latency

# Only the per-file comparison with whisper.cpp alone (issue 42): import and the live lines, about 12 minutes.
bench-quality: release
	python3 scripts/bench.py quality

# Only the speaker-label section (issue 38): seven conversations of 2 to 4 real voices imported three ways, about 16 minutes.
bench-speakers: release
	python3 scripts/bench.py speakers

# Only the web server section of BENCHMARKS.md (issue 22).
bench-serve: release
	python3 scripts/bench.py serve

# The test suite under AddressSanitizer (with LeakSanitizer) and ThreadSanitizer, each in its own
# build folder so .build/debug stays as it is. Slow (a sanitized build of everything, then every
# test): not part of `make test`. SANITIZE_FILTER=regex runs only the matching tests; SANITIZERS
# picks one of them. TSan skips Mutex.withLock bodies only (scripts/tsan-suppressions.txt says why).
# Reports go to files, one per process (.build/sanitize-logs/<sanitizer>/report.<pid>), not to
# stderr: the tests run the sanitized binary and read its stderr. Any report fails the target (a
# file with only LeakSanitizer's "Suppressions used" table is not one).
SANITIZERS ?= address thread
SANITIZE_FILTER ?=
SANITIZE_LOGS := $(CURDIR)/.build/sanitize-logs
sanitize: deps
	@for sanitizer in $(SANITIZERS); do \
	  echo "sanitize: building the tests with --sanitize=$$sanitizer in .build/sanitize-$$sanitizer"; \
	  $(SWIFT) build --build-tests --sanitize=$$sanitizer --scratch-path .build/sanitize-$$sanitizer || exit 1; \
	  logs=$(SANITIZE_LOGS)/$$sanitizer; rm -rf $$logs; mkdir -p $$logs; \
	  echo "sanitize: running the tests under $$sanitizer (reports in $$logs)"; \
	  SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=1:log_path=$$logs/report \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/scripts/lsan-suppressions.txt \
	  TSAN_OPTIONS=suppressions=$(CURDIR)/scripts/tsan-suppressions.txt:print_suppressions=1:log_path=$$logs/report \
	  $(SWIFT) test --skip-build --sanitize=$$sanitizer --scratch-path .build/sanitize-$$sanitizer \
	    $(if $(SANITIZE_FILTER),--filter '$(SANITIZE_FILTER)'); status=$$?; \
	  for report in $$logs/*; do [ -f "$$report" ] && { echo "== $$report"; cat "$$report"; }; done; \
	  reports=$$(cat $$logs/* 2>/dev/null | grep -c -E '^(==[0-9]+==ERROR|WARNING: ThreadSanitizer)'); \
	  echo "sanitize: $$sanitizer: $$reports reports (errors, races, leaks) in $$logs; the tests exited with $$status"; \
	  [ $$status -eq 0 ] && [ $$reports -eq 0 ] || exit 1; \
	done

# libFuzzer targets (Tests/Fuzz, docs/fuzzing.md), each run FUZZ_SECONDS seconds, one after another.
FUZZ_SECONDS ?= 600
fuzz:
	scripts/fuzz.sh $(FUZZ_SECONDS)

# Kills `record` at SOAK_KILLS random moments and checks what `recover` keeps (scripts/soak.py).
SOAK_KILLS ?= 100
soak: release
	python3 scripts/soak.py --kills $(SOAK_KILLS) --binary $(BIN) --benchmarks
