# SPDX-License-Identifier: MIT
# proftui -- a terminal explorer for deep-learning profiler output.
# Plain GNU make with pkg-config; see README.md for the two commands that
# matter (run on the sample, run every test).

PROG     = proftui
PREFIX  ?= /usr/local
BINDIR   = $(PREFIX)/bin
MANDIR   = $(PREFIX)/share/man
# Objects go under $(O); `make asan` uses a directory of its own.
O       ?= build
# Packagers who do not want -Werror say WERROR=
WERROR  ?= -Werror
CFLAGS  ?= -O2 -g
WARN     = -std=c11 -Wall -Wextra $(WERROR) -Wshadow -Wstrict-prototypes \
           -Wmissing-prototypes -Wformat=2 -Wvla
PKG_CONFIG ?= pkg-config
# Debian packages: libncurses-dev libpcre2-dev zlib1g-dev pkg-config.
# parsers/ reads gzip through zlib; view/ (its filter) PCRE2; only tui/
# sees curses.
ZLIB_PKGS = zlib
VIEW_PKGS = libpcre2-8
TUI_PKGS  = ncursesw

# Without pkg-config or a package the compiler would fail later, on a
# missing header, far from the cause: stop here and name it.  `make deps`
# installs them, and it and `make clean` must work without them.
ifneq ($(filter-out deps clean uninstall,$(or $(MAKECMDGOALS),all)),)
ifeq ($(shell command -v $(PKG_CONFIG) 2>/dev/null),)
$(error '$(PKG_CONFIG)' not found: install pkg-config ('make deps' does, on Debian) or set PKG_CONFIG to one)
endif
PKGS_MISSING := $(shell for p in $(ZLIB_PKGS) $(VIEW_PKGS) $(TUI_PKGS); do $(PKG_CONFIG) --exists $$p || echo $$p; done)
ifneq ($(PKGS_MISSING),)
$(error $(PKG_CONFIG) finds no $(PKGS_MISSING): install the development packages ('make deps' does, on Debian))
endif
endif
# STATIC=1 (what `make static` sets) links every library statically: the
# libraries' own dependencies too (pkg-config --static).
PKG_LIBS = $(PKG_CONFIG) $(if $(STATIC),--static) --libs
ZLIB_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(ZLIB_PKGS) 2>/dev/null)
ZLIB_LIBS   := $(shell $(PKG_LIBS) $(ZLIB_PKGS) 2>/dev/null)
# ISA-L's igzip (Debian libisal-dev) inflates about three times as fast as
# zlib; used where found, zlib otherwise (ISAL=no builds without it).
# `proftui --version` says which.  It joins zlib's flags: the same layer.
ISAL ?= auto
# Debian's libisal-dev has no libisal.a: a static build uses ISA-L only
# where the compiler finds one (built from ISA-L's source, say).
ifneq ($(STATIC),)
ifeq ($(filter /%,$(shell $(CC) -print-file-name=libisal.a)),)
ISAL = no
endif
endif
ifneq ($(ISAL),no)
ifeq ($(shell $(PKG_CONFIG) --exists libisal 2>/dev/null && echo yes),yes)
ZLIB_CFLAGS += -DHAVE_ISAL $(shell $(PKG_CONFIG) --cflags libisal)
ZLIB_LIBS   += $(shell $(PKG_LIBS) libisal)
endif
endif
VIEW_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(VIEW_PKGS) 2>/dev/null)
VIEW_LIBS   := $(shell $(PKG_LIBS) $(VIEW_PKGS) 2>/dev/null)
TUI_CFLAGS  := $(shell $(PKG_CONFIG) --cflags $(TUI_PKGS) 2>/dev/null)
TUI_LIBS    := $(shell $(PKG_LIBS) $(TUI_PKGS) 2>/dev/null)
# Only _DEFAULT_SOURCE here: ncursesw.pc adds _XOPEN_SOURCE=600 for tui/,
# and defining it twice with two values is an error under -Werror.
ALL_CPPFLAGS = -D_DEFAULT_SOURCE -I. $(STATIC_CPPFLAGS) $(CPPFLAGS)
# -MD, not -MMD: the dependency files list system headers too, and
# tests/lint.sh reads them to check which layer includes curses and PCRE2.
ALL_CFLAGS   = $(WARN) $(CFLAGS) -pthread -MD -MP

SAN_FLAGS = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

MODEL_SRC   = $(sort $(wildcard model/*.c))
PARSERS_SRC = $(sort $(wildcard parsers/*.c parsers/*/*.c))
VIEW_SRC    = $(sort $(wildcard view/*.c))
TUI_SRC     = $(sort $(wildcard tui/*.c))
CLI_SRC     = $(sort $(wildcard cli/*.c))
CORE_OBJ    = $(MODEL_SRC:%.c=$(O)/%.o) $(PARSERS_SRC:%.c=$(O)/%.o)
VIEW_OBJ    = $(VIEW_SRC:%.c=$(O)/%.o)
TUI_OBJ     = $(TUI_SRC:%.c=$(O)/%.o) $(O)/keymaps/builtin.o
CLI_OBJ     = $(CLI_SRC:%.c=$(O)/%.o)
# What unit tests and benchmarks link: everything but the command line.
LIB_OBJ     = $(CORE_OBJ) $(VIEW_OBJ) $(TUI_OBJ)
LIBS        = $(TUI_LIBS) $(VIEW_LIBS) $(ZLIB_LIBS) -lm
UNIT_SRC    = $(sort $(wildcard tests/unit/t-*.c))
UNIT_BIN    = $(UNIT_SRC:%.c=$(O)/%)
FUZZ_TARGETS = $(patsubst fuzz/%.c,%,$(sort $(wildcard fuzz/fuzz-*.c)))
FUZZ_REPLAY = $(FUZZ_TARGETS:%=$(O)/fuzz/%)

all: $(O)/$(PROG)

$(O)/$(PROG): $(CLI_OBJ) $(LIB_OBJ)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) $(STATIC_LDFLAGS) -o $@ $^ $(LIBS)

# `make static`: one statically linked, stripped $(O)/static/proftui (libc,
# ncursesw, tinfo, PCRE2, zlib; ISA-L where a libisal.a is found) from
# objects of its own, for machines without the libraries: `make wheel`
# packs it, tests/dist/static-test.sh runs it.  Its `--version` names the
# terminfo directories compiled into the static tinfo (those `infocmp -D`
# prints: the same build of ncurses), which it searches after $TERMINFO,
# ~/.terminfo and $TERMINFO_DIRS.
STATIC_LIBS = ncursesw tinfo pcre2-8 z c m pthread
# Expanded only where used: a compiler run per library.
STATIC_MISSING = $(foreach l,$(STATIC_LIBS),\
	$(if $(filter /%,$(shell $(CC) -print-file-name=lib$(l).a)),,lib$(l).a))
ifneq ($(STATIC),)
TERMINFO_DIRS_BUILTIN := $(shell infocmp -D 2>/dev/null | paste -sd: -)
STATIC_CPPFLAGS = -DPROFTUI_STATIC='"$(or $(TERMINFO_DIRS_BUILTIN),its built-in directories)"'
STATIC_LDFLAGS = -static -s
endif
static:
	@$(if $(strip $(STATIC_MISSING)),echo "make static: no$(STATIC_MISSING) (the -dev packages: make deps)" >&2; exit 1)
	@$(MAKE) --no-print-directory O=$(O)/static STATIC=1 $(O)/static/$(PROG)

# Each layer is compiled with its own libraries' flags and no others.
$(O)/parsers/%.o: LAYER_CFLAGS = $(ZLIB_CFLAGS)
$(O)/view/%.o: LAYER_CFLAGS = $(VIEW_CFLAGS)
$(O)/tui/%.o: LAYER_CFLAGS = $(TUI_CFLAGS) $(VIEW_CFLAGS)
$(O)/cli/%.o: LAYER_CFLAGS = $(TUI_CFLAGS) $(VIEW_CFLAGS) $(ZLIB_CFLAGS)
$(O)/fuzz/%.o: LAYER_CFLAGS = $(ZLIB_CFLAGS)

# Objects depend on the Makefile too: new flags (-MD for tests/lint.sh,
# say) must not meet objects built with the old ones.
$(O)/%.o: %.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(LAYER_CFLAGS) -c -o $@ $<

# keymaps/default.keys is compiled in and parsed like a user's file.
$(O)/keymaps/builtin.c: keymaps/default.keys keymaps/vi.keys keymaps/emacs.keys keymaps/embed.sh
	@mkdir -p $(dir $@)
	sh keymaps/embed.sh keymaps/default.keys keymaps/vi.keys keymaps/emacs.keys >$@

$(O)/keymaps/builtin.o: $(O)/keymaps/builtin.c Makefile
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<

# Unit tests link every layer but the command line; they see every
# layer's headers (and so PCRE2's and curses' flags).
TEST_CFLAGS = $(TUI_CFLAGS) $(VIEW_CFLAGS) $(ZLIB_CFLAGS)
$(O)/tests/unit/%: tests/unit/%.c tests/unit/test.h $(LIB_OBJ) Makefile
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CPPFLAGS) $(TEST_CFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(LIB_OBJ) $(LIBS)

tests: $(O)/$(PROG) $(UNIT_BIN) $(FUZZ_REPLAY)

# `make wheel`: that binary in a Python wheel, $(O)/proftui-VERSION-*.whl,
# packed offline by Debian's python3-wheel (python/build-wheel.sh).  The
# first of $(PYTHON) and Debian's own python3 that has the module.
PYTHON ?= python3
PYTHON_WHEEL = $(firstword $(foreach p,$(PYTHON) /usr/bin/python3,\
	$(if $(shell $(p) -c 'import wheel' 2>/dev/null && echo y),$(p))))
wheel: static
	@$(if $(PYTHON_WHEEL),,echo "make wheel: no python3 with the wheel module (python3-wheel: make deps)" >&2; exit 1)
	@PYTHON=$(PYTHON_WHEEL) sh python/build-wheel.sh $(O)/static/$(PROG) $(O)

# Every suite: unit, golden, bad input, lint (man pages, layering), fuzz
# seed replays, tmux; tests/run.sh sums each suite's own count line and
# ends with one "N passed, N failed, N skipped" line.
# The static binary and the wheel too, where their libraries and tools
# are (tests/dist/ skips, saying so, where they are not); not in the asan
# and wide runs, whose flags cannot link statically.  Looked for only
# when check is the goal: each look runs the compiler or python.
CHECK_STATIC ?= yes
ifneq ($(filter check,$(MAKECMDGOALS)),)
CHECK_DIST := $(if $(filter yes,$(CHECK_STATIC)),$(if $(strip $(STATIC_MISSING)),,static \
	$(if $(PYTHON_WHEEL),wheel)))
endif
check: tests $(CHECK_DIST)
	@O=$(O) PROFTUI=$(O)/$(PROG) sh tests/run.sh

asan:
	$(MAKE) O=build-asan CFLAGS="-O1 -g $(SAN_FLAGS)" LDFLAGS="$(SAN_FLAGS)" CHECK_STATIC=no check

# Every node time stored in the profile's table (model/node_pool.h): a read
# of a node's time through a profile that did not make it dies, where a
# normal build would read it right by luck unless the time were wide.
wide:
	$(MAKE) O=build-wide CFLAGS="-O1 -g -DPROFTUI_TIMES_ALL_WIDE" CHECK_STATIC=no check

# The loading threads (input.c's reader, Kineto's model thread) under
# ThreadSanitizer, on the corpus plain, gzipped and cut: tests/tsan.sh.
TSAN_FLAGS = -fsanitize=thread -fno-omit-frame-pointer
tsan:
	@$(MAKE) --no-print-directory O=build-tsan CFLAGS="-O1 -g $(TSAN_FLAGS)" \
		LDFLAGS="$(TSAN_FLAGS)" build-tsan/$(PROG) build-tsan/tests/unit/t-input \
		build-tsan/tests/unit/t-timeline build-tsan/tests/unit/t-kineto-link \
		build-tsan/tests/unit/t-kineto-par build-tsan/tests/unit/t-node-times \
		build-tsan/tests/unit/t-pane build-tsan/tests/unit/t-strtab
	@O=build-tsan PROFTUI=build-tsan/$(PROG) sh tests/run.sh tests/tsan.sh

# Every run, then one combined total: what .ci/run and README call.  Each
# log ends with its make's exit status, which tests/total.sh weighs too.
check-all:
	@$(MAKE) --no-print-directory check >$(O)-check.log 2>&1; \
	echo "# exit $$?" >>$(O)-check.log; cat $(O)-check.log
	@$(MAKE) --no-print-directory asan >$(O)-asan.log 2>&1; \
	echo "# exit $$?" >>$(O)-asan.log; cat $(O)-asan.log
	@$(MAKE) --no-print-directory tsan >$(O)-tsan.log 2>&1; \
	echo "# exit $$?" >>$(O)-tsan.log; cat $(O)-tsan.log
	@$(MAKE) --no-print-directory wide >$(O)-wide.log 2>&1; \
	echo "# exit $$?" >>$(O)-wide.log; cat $(O)-wide.log
	@sh tests/total.sh $(O)-check.log $(O)-asan.log $(O)-tsan.log $(O)-wide.log

# Install what the build and the tests need on Debian (root or sudo).
deps:
	@sh tests/deps.sh

run: $(O)/$(PROG)
	$(O)/$(PROG) $(or $(FILE),tests/samples/sample.pt.trace.json.gz)

# Every kind of expected output: the --print goldens and the tmux screens.
golden: $(O)/$(PROG)
	@O=$(O) PROFTUI=$(O)/$(PROG) UPDATE_GOLDEN=1 sh tests/run.sh \
		tests/golden/run.sh $(sort $(wildcard tests/tui/*-test.sh))

# The pane engine on a million rows (sort and filter times).
$(O)/bench/panes: bench/panes.c $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CPPFLAGS) $(TEST_CFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(LIB_OBJ) $(LIBS)

# Per-key latencies on a loaded trace.
$(O)/bench/keys: bench/keys.c $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CPPFLAGS) $(TEST_CFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(LIB_OBJ) $(LIBS)

# How soon the TUI shows its loading screen, then the panes, through a
# pseudo-terminal (forkpty(): -lutil).
$(O)/bench/firstframe: bench/firstframe.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< -lutil

bench: $(O)/$(PROG) $(O)/bench/panes $(O)/bench/keys $(O)/bench/firstframe
	@PROFTUI=$(O)/$(PROG) sh bench/run.sh
	@for f in bench/out/trace-1G.json bench/out/trace-1G.json.gz; do \
		[ ! -f $$f ] || $(O)/bench/firstframe $(O)/$(PROG) $$f 3; done
	@PROFTUI=$(O)/$(PROG) sh bench/print.sh
	@PROFTUI=$(O)/$(PROG) sh bench/tbplugin.sh
	@PROFTUI=$(O)/$(PROG) sh bench/nested_frames.sh
	@PROFTUI=$(O)/$(PROG) sh bench/tables.sh
	@PROFTUI=$(O)/$(PROG) sh bench/analyses.sh
	@PROFTUI=$(O)/$(PROG) sh bench/dist.sh
	@PROFTUI=$(O)/$(PROG) sh bench/idle.sh
	@$(O)/bench/panes

FUZZ_FLAGS = -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
fuzz: $(FUZZ_TARGETS:%=build-fuzz/%)
# One clang command per target, without dependency files: every header a
# target may include is a prerequisite, or a changed struct would leave a
# fuzzer built against the old one.
build-fuzz/%: fuzz/%.c fuzz/fuzz.h $(MODEL_SRC) $(PARSERS_SRC) \
		$(wildcard model/*.h parsers/*.h parsers/*/*.h tests/unit/*.h)
	@mkdir -p build-fuzz
	clang -std=c11 -D_DEFAULT_SOURCE -I. $(ZLIB_CFLAGS) $(FUZZ_FLAGS) -pthread -o $@ $(filter %.c,$^) $(ZLIB_LIBS) -lm

# The same targets with fuzz/driver.c instead of libFuzzer, built by
# `make tests`: tests/run.sh replays the seed corpora through them.
# Each source is compiled on its own, so that each has its dependency file.
$(FUZZ_REPLAY): $(O)/fuzz/%: $(O)/fuzz/%.o $(O)/fuzz/driver.o $(CORE_OBJ)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(filter %.o,$^) $(ZLIB_LIBS) -lm

# `make install PREFIX=$HOME/.local` needs no root: bin/ and share/man/
# under PREFIX (where man finds them from PATH); DESTDIR stages a package.
# uninstall removes exactly these files (the directories may be shared).
MAN1 = man/proftui.1
MAN5 = man/proftui-keys.5 man/proftui-summary.5 man/proftui-config.5
install: $(O)/$(PROG)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5
	install -m 755 $(O)/$(PROG) $(DESTDIR)$(BINDIR)/$(PROG)
	install -m 644 $(MAN1) $(DESTDIR)$(MANDIR)/man1/
	install -m 644 $(MAN5) $(DESTDIR)$(MANDIR)/man5/

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/$(PROG) $(MAN1:man/%=$(DESTDIR)$(MANDIR)/man1/%) \
	      $(MAN5:man/%=$(DESTDIR)$(MANDIR)/man5/%)

clean:
	rm -rf build build-asan build-tsan build-wide build-fuzz build-*.log

.PHONY: all static wheel tests check asan tsan wide check-all deps run golden bench fuzz install uninstall clean
.SECONDARY:

-include $(shell find $(O) -name '*.d' 2>/dev/null)
