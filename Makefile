# The two commands a fresh Debian machine needs: `make run` and `make test`.
SWIFT ?= swift
BIN := .build/release/livetranscriber
DEMO_HOME ?= $(CURDIR)/.build/demo-library
LIBRIVOX := /usr/share/pocketsphinx/test/data/librivox
# whisper.cpp's pkg-config file, written by scripts/install-whisper.sh.
export PKG_CONFIG_PATH := $(CURDIR)/.deps/whisper/lib/pkgconfig$(if $(PKG_CONFIG_PATH),:$(PKG_CONFIG_PATH))

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

.PHONY: run test deps build release bench bench-pipe clean install uninstall ios-check

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

# Installs livetranscriber under $(PREFIX) (default /usr/local; DESTDIR for staging), with bash,
# zsh and fish completions and a man page, all generated from the commands' help.
install: deps
	@mkdir -p $(INSTALL_BUILD)/link
	@ln -sf "$$(/sbin/ldconfig -p | awk '/libcurl\.so\.4 /{print $$NF; exit}')" $(INSTALL_BUILD)/link/libcurl.so
	$(SWIFT) build $(INSTALL_FLAGS) --product livetranscriber-full
	$(SWIFT) build $(INSTALL_FLAGS) --product livetranscriber
	install -d $(BINDIR) $(MANDIR) $(BASHDIR) $(ZSHDIR) $(FISHDIR) $(ENGINELIBDIR) $(MODELDIR)
	install -m 0755 $(INSTALL_BIN) $(BINDIR)/livetranscriber
	install -m 0755 $(INSTALL_FULL) $(ENGINELIBDIR)/livetranscriber-full
	cp -a .deps/whisper/lib/libwhisper.so* .deps/whisper/lib/pywhispercpp.libs $(ENGINELIBDIR)/
	install -m 0644 .deps/models/ggml-base.bin .deps/models/ggml-silero-vad.bin $(MODELDIR)/
	$(INSTALL_BIN) manpage > $(MANDIR)/livetranscriber.1
	$(INSTALL_BIN) completion bash > $(BASHDIR)/livetranscriber
	$(INSTALL_BIN) completion zsh > $(ZSHDIR)/_livetranscriber
	$(INSTALL_BIN) completion fish > $(FISHDIR)/livetranscriber.fish
	chmod 0644 $(MANDIR)/livetranscriber.1 $(BASHDIR)/livetranscriber $(ZSHDIR)/_livetranscriber $(FISHDIR)/livetranscriber.fish
	@echo "Installed $(BINDIR)/livetranscriber, $(ENGINELIBDIR)/livetranscriber-full, whisper.cpp and its models, its man page and bash, zsh and fish completions."

# Removes exactly what install put there (the library of recordings is never touched).
uninstall:
	rm -f $(BINDIR)/livetranscriber $(MANDIR)/livetranscriber.1 $(BASHDIR)/livetranscriber \
		$(ZSHDIR)/_livetranscriber $(FISHDIR)/livetranscriber.fish
	rm -rf $(ENGINELIBDIR) $(DESTDIR)$(PREFIX)/share/livetranscriber
	@echo "Removed livetranscriber from $(DESTDIR)$(PREFIX)."

# Type-checks the iOS app and widget (Apple/) and the core against an iPhoneOS SDK folder the
# user supplies: make ios-check IOS_SDK=/path/to/iPhoneOS26.2.sdk (see docs/ios.md).
ios-check:
	@if [ -z "$(IOS_SDK)" ]; then \
	  echo "ios-check: skipped: no iPhoneOS SDK given. The SDK is Apple's and not in this repository;"; \
	  echo "ios-check: run 'make ios-check IOS_SDK=/path/to/iPhoneOS26.2.sdk' (docs/ios.md says how to get one)."; \
	else scripts/ios-check.sh "$(IOS_SDK)"; fi
