# pathprof: one build for the translator (pathcc, pathprof), the runtime and the tests.
CC      ?= cc
CFLAGS  ?= -O2 -g
PREFIX  ?= /usr/local
LLVM    ?= /usr/lib/llvm-14
VERSION  = 0.1.0
WARN     = -std=c99 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
HOSTCFLAGS = $(WARN) $(CFLAGS) -Ibuild -Iinclude -Irt -Itranslator -DPATHPROF_VERSION='"$(VERSION)"'
# libclang is not linked: translator/pathcc/clangload.c opens it when a unit is first parsed,
# so links, -E and the like do not pay its loading.
CLANG_CFLAGS = -I$(LLVM)/include -DPP_LIBCLANG='"$(LLVM)/lib/libclang.so.1"'
JSON_LIBS    = -ljansson
THREAD_LIBS  = -pthread

# Sources by folder (README "Layout"): a file added to a folder is built with no other edit.
# The model is what both host programs share; each program's main file is left out of the lists
# the unit tests link.
MODEL    = $(wildcard translator/model/*.c) $(wildcard rt/profile/*.c)
PATHCC   = $(filter-out translator/pathcc/pathcc.c,$(wildcard translator/pathcc/*.c))
PATHPROF = $(filter-out translator/pathprof/pathprof.c,$(wildcard translator/pathprof/*.c translator/pathprof/formats/*.c))
RT_SRC   = $(wildcard rt/core/*.c rt/posix/*.c rt/profile/*.c)
HEADERS  = $(wildcard translator/*/*.h translator/pathprof/formats/*.h rt/*/*.h include/*.h)
RT_HEADERS = $(wildcard rt/*/*.h include/*.h)

MODEL_O    = $(MODEL:%.c=build/%.o)
PATHCC_O   = $(PATHCC:%.c=build/%.o)
PATHPROF_O = $(PATHPROF:%.c=build/%.o)
RT_O       = $(RT_SRC:%.c=build/rt-pic/%.o)
# The runtime's thread-locals through TLS descriptors where the compiler has them (x86): in a
# shared object a call that returns the offset, without __tls_get_addr; in an executable the
# linker makes them initial- or local-exec accesses, as before (rt/core/partial.c).
RT_TLS    := $(shell $(CC) -mtls-dialect=gnu2 -fPIC -S -o /dev/null -x c /dev/null >/dev/null 2>&1 && echo -mtls-dialect=gnu2)

all: bin/pathcc bin/pathprof lib/libpathprof.a lib/libpathprof-notls.a

build/prelude.inc: rt/core/unit.h
	@mkdir -p build
	sed -n '/pathprof:prelude-begin/,/pathprof:prelude-end/p' $< | sed '1d;$$d' \
	  | sed 's/\\/\\\\/g; s/"/\\"/g; s/^/"/; s/$$/\\n"/' > $@

build/%.o: %.c build/prelude.inc $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(HOSTCFLAGS) $(CLANG_CFLAGS) -c $< -o $@

build/rt-pic/%.o: %.c $(RT_HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) -O2 -g -fPIC $(RT_TLS) $(RT_SAN) -Iinclude -Irt -c $< -o $@

bin/pathcc: build/translator/pathcc/pathcc.o $(PATHCC_O) $(MODEL_O)
	@mkdir -p bin
	$(CC) $(CFLAGS) -o $@ $^ $(JSON_LIBS) $(THREAD_LIBS)

bin/pathprof: build/translator/pathprof/pathprof.o $(PATHPROF_O) $(MODEL_O)
	@mkdir -p bin
	$(CC) $(CFLAGS) -o $@ $^ $(JSON_LIBS) $(THREAD_LIBS) -lm

lib/libpathprof.a: $(RT_O)
	@mkdir -p lib
	rm -f $@ && ar rcs $@ $^

# The runtime pathcc links for compilers without thread-local storage (tcc, whose linker refuses
# TLS relocations): the stack of frames in plain statics (such builds keep no frames), the trace
# holding signals off per line.
NOTLS_SRC = rt/core/partial.c rt/posix/trace.c
build/rt-pic/notls/%.o: %.c $(RT_HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) -O2 -g -fPIC $(RT_TLS) $(RT_SAN) -DPATHPROF_FRAME_TLS=0 -Iinclude -Irt -c $< -o $@

lib/libpathprof-notls.a: $(filter-out $(NOTLS_SRC:%.c=build/rt-pic/%.o),$(RT_O)) $(NOTLS_SRC:%.c=build/rt-pic/notls/%.o)
	@mkdir -p lib
	rm -f $@ && ar rcs $@ $^

deps:
	sh scripts/deps.sh

UNIT_TESTS = $(patsubst regress/unit/%.c,build/test/%,$(wildcard regress/unit/test_*.c))

build/test/%: regress/unit/%.c $(MODEL_O) $(PATHCC_O) $(filter-out build/rt-pic/rt/profile/%,$(RT_O))
	@mkdir -p build/test
	$(CC) $(HOSTCFLAGS) $(CLANG_CFLAGS) -o $@ $^ $(JSON_LIBS) $(THREAD_LIBS) -lm

tests: all $(UNIT_TESTS)

# Every test, JOBS at a time (default: one per CPU); the heavy outside suites run a sample here and
# whole in check-full (doc/testing.md). Ends with the ten slowest tests and "N passed, N failed".
check:
	@$(MAKE) --no-print-directory -j$$(nproc 2>/dev/null || echo 2) tests
	sh regress/run.sh

demo: deps all
	sh samples/demo.sh

# make install also makes $(PREFIX)/lib/pathprof/bin, the masquerade directory (links gcc, cc,
# clang, c99 and the installed cross compilers' names -> ../../../bin/pathcc) to put first in PATH,
# and puts the hosted runtime's sources in $(PREFIX)/share/pathprof/rt, from which pathcc builds
# the runtime for a hosted target other than the host's (gcc -m32) on first use
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include
	install -m 755 bin/pathcc bin/pathprof $(DESTDIR)$(PREFIX)/bin
	$(DESTDIR)$(PREFIX)/bin/pathcc --masquerade=$(DESTDIR)$(PREFIX)/lib/pathprof/bin >/dev/null
	install -m 644 lib/libpathprof.a lib/libpathprof-notls.a $(DESTDIR)$(PREFIX)/lib
	install -m 644 include/pathprof.h $(DESTDIR)$(PREFIX)/include
	for d in core posix profile; do \
	  install -d $(DESTDIR)$(PREFIX)/share/pathprof/rt/$$d && \
	  install -m 644 rt/$$d/*.c rt/$$d/*.h $(DESTDIR)$(PREFIX)/share/pathprof/rt/$$d || exit 1; \
	done
	install -d $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 644 doc/pathcc.1 doc/pathprof.1 $(DESTDIR)$(PREFIX)/share/man/man1

clean:
	rm -rf build bin lib regress/out

.PHONY: all deps tests check demo install clean

# Benchmarks (bench/README.md): run-time, instruction, memory, size and build-time overhead
# against gcc --coverage and clang coverage; results in bench/results/{full,quick}/.
bench: all
	sh bench/bench.sh
	sh bench/shortruns.sh
	python3 bench/readme_table.py

bench-quick: all
	sh bench/bench.sh --quick
	python3 bench/readme_table.py

# bench/README.md's tables again, from the newest results under bench/results/
bench-readme:
	python3 bench/readme_table.py

# Online subpath profiling against its hot-list bound M and sampling rate: overhead on four
# workloads, top-5 accuracy against the block-trace oracle (bench/osp_sweep.py, ~3 minutes).
bench-osp: all
	python3 bench/osp_sweep.py

# pathprof coverage's speed in every format on a generated program of 3,000 functions and 250,000
# lines (bench/coverage_speed.sh, ~3 minutes; bench/results/coverage_speed.md).
bench-coverage: all
	sh bench/coverage_speed.sh

.PHONY: bench bench-quick bench-readme bench-osp bench-coverage

# External suites (regress/torture.sh, regress/csmith.sh): `make check` runs a fixed part of each,
# these run all of it; the summary comments come from the logs in regress/out/.
# SUITE_CC=clang (or any compiler) builds them with that compiler instead of gcc.
SUITE_CC ?= gcc
check-torture: all
	@SUITE_CC=$(SUITE_CC) REGRESS_FULL=1 TESTS=torture sh regress/run.sh; rc=$$?; grep -h '^# torture[-a-z0-9]*:' regress/out/torture.log; exit $$rc

check-csmith: all
	@SUITE_CC=$(SUITE_CC) REGRESS_FULL=1 TESTS=csmith sh regress/run.sh; rc=$$?; grep -h '^# csmith[-a-z0-9]*:' regress/out/csmith.log; exit $$rc

check-full: tests
	-@$(MAKE) --no-print-directory fuzz-build >/dev/null 2>&1 || echo "# fuzz harnesses not built (clang with libFuzzer missing)"
	@REGRESS_FULL=1 sh regress/run.sh; rc=$$?; grep -h '^# \(torture[-a-z0-9]*\|csmith[-a-z0-9]*\):' regress/out/torture.log regress/out/csmith.log regress/out/suites_clang.log regress/out/csmith_mcdc.log; \
	sed -n '/^# matrix:/,/^[^#]/p' regress/out/firmware_matrix.log | grep '^# '; exit $$rc

.PHONY: check-torture check-csmith check-full

# The freestanding runtime for a cross compiler (doc/formats.md section 5, samples/firmware):
# the core (with the text dump) and the bare-metal back ends RT_BACKENDS names, for one target:
#   make rt-freestanding CROSS=arm-none-eabi- RT_ARCH="-mcpu=cortex-m0plus -mthumb" RT_NAME=cortex-m0plus
#   make rt-freestanding CROSS=avr- RT_ARCH=-mmcu=atmega328p RT_NAME=atmega328p
# gives lib/freestanding/$(RT_NAME)/libpathprof.a. Needs no libc and no libgcc; warnings are errors.
# RT_BACKENDS defaults to every back end of rt/embedded/ the target can take: semihosting needs an
# ARM, AArch64 or RISC-V compiler (the predefined macros say), so an AVR build leaves it out.
CROSS   ?= arm-none-eabi-
RT_ARCH ?= -mcpu=cortex-m3 -mthumb
RT_NAME ?= cortex-m3
RT_SEMIHOST  = $(shell echo | $(CROSS)gcc $(RT_ARCH) -dM -E - 2>/dev/null | grep -qE '^\#define __(arm|aarch64|riscv)(__)? ' && echo semihost)
RT_BACKENDS ?= freestanding $(RT_SEMIHOST)
RT_FS_SRC    = $(wildcard rt/core/*.c) $(RT_BACKENDS:%=rt/embedded/%.c)
RT_FS_CFLAGS = -std=c99 -Wall -Wextra -Wpedantic -Werror -ffreestanding -nostdlib -Os \
               -ffunction-sections -fdata-sections
RT_FS_DIR    = build/freestanding/$(RT_NAME)

rt-freestanding: lib/freestanding/$(RT_NAME)/libpathprof.a

lib/freestanding/$(RT_NAME)/libpathprof.a: $(RT_FS_SRC) $(RT_HEADERS)
	@mkdir -p $(RT_FS_DIR) $(dir $@)
	for f in $(RT_FS_SRC); do \
	  $(CROSS)gcc $(RT_FS_CFLAGS) $(RT_ARCH) -Iinclude -Irt -c $$f -o $(RT_FS_DIR)/$$(basename $$f .c).o || exit 1; \
	done
	rm -f $@ && $(CROSS)ar rcs $@ $(addprefix $(RT_FS_DIR)/,$(notdir $(RT_FS_SRC:.c=.o)))

# The firmware sample under QEMU against the same workload on the host, and the freestanding
# runtime's cross builds (samples/firmware/README.md); also part of make check.
firmware: all
	@TESTS=firmware sh regress/run.sh

# Embedded targets (regress/e2e/firmware.sh, atomic_targets.sh, firmware_matrix.sh): the runtime
# for Cortex-M0/M3/M4, RISC-V and AVR, --update=atomic on seven targets, SysTick against the main
# loop under QEMU, and the acceptance matrix: samples/firmware/isr on seven targets in path, edge
# and kpath mode, single and atomic updates, against the host build, with the size table (the
# matrix runs here and in check-full only). firmware.sh and atomic_targets.sh are part of make
# check too; installs the cross compilers and emulators it needs (as root).
check-embedded: tests
	@rc=0; for t in firmware atomic_targets; do REGRESS_EMBEDDED=1 TESTS=$$t sh regress/run.sh || rc=1; done; \
	sed -n '/^# matrix:/,/^[^#]/p' regress/out/firmware_matrix.log | grep '^# '; exit $$rc

.PHONY: rt-freestanding firmware check-embedded

# pathcc as a drop-in cc in real builds (regress/e2e/dropin_*.sh): CMake, dependency files, driver
# semantics, a cross compiler, ccache and make -j, zlib. `make check` runs their light part;
# REGRESS_FULL (here and in check-full) adds libbacktrace's make check, zlib's CMake build and the
# build-time ratios of libiberty and libbacktrace (about 15 minutes in all).
check-dropin: tests
	@REGRESS_FULL=1 TESTS=dropin sh regress/run.sh; rc=$$?; grep -hs '^# buildtime' regress/out/dropin_buildtime.log; exit $$rc

.PHONY: check-dropin

# The Debian rebuild (regress/rebuild.sh): C source packages of regress/rebuild-packages.txt (or
# PKGS="a b"), each built by dpkg-buildpackage with its own tests, plainly and through pathcc's
# masquerade; the table of build and test results, warnings and functions profiled goes to
# regress/out/rebuild/table.md. As root; hours for the whole sample.
check-rebuild: all
	@sh regress/rebuild.sh $(PKGS)

# CPython 3.11 from Debian's source built plainly, with gcov and through the masquerade; its
# modules and 26 of its test modules (three runs) as plain; build and test CPU (regress/e2e/cpython.sh)
check-cpython: all
	@REGRESS_CPYTHON=1 TESTS=cpython sh regress/run.sh; rc=$$?; grep -h '^# cpython' regress/out/cpython.log; exit $$rc

.PHONY: check-rebuild check-cpython

# libFuzzer harnesses (regress/fuzz/): the profile reader, the tables reader and the log importer,
# built with clang, ASan and UBSan; checksums are not enforced in these builds
# (FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION) so the fuzzer reaches the checks behind them.
FUZZ_CC     ?= clang
FUZZ_SAN    ?= address,undefined
FUZZ_CFLAGS  = -std=c99 -g -O2 -fsanitize=fuzzer,$(FUZZ_SAN) -fno-sanitize-recover=undefined \
               -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
               -Iinclude -Irt -Itranslator
FUZZ_BINS    = build/fuzz/fuzz_profile build/fuzz/fuzz_tables build/fuzz/fuzz_import

fuzz-build: $(FUZZ_BINS)

build/fuzz/fuzz_profile: regress/fuzz/fuzz_profile.c $(wildcard rt/profile/*.c) $(RT_HEADERS)
	@mkdir -p build/fuzz
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(filter %.c,$^)

build/fuzz/fuzz_tables: regress/fuzz/fuzz_tables.c $(MODEL) $(HEADERS)
	@mkdir -p build/fuzz
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(filter %.c,$^) $(JSON_LIBS) $(THREAD_LIBS)

build/fuzz/fuzz_import: regress/fuzz/fuzz_import.c translator/pathprof/importlog.c translator/pathprof/cli.c \
                        $(wildcard rt/profile/*.c) translator/model/util.c $(HEADERS)
	@mkdir -p build/fuzz
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(filter %.c,$^)

.PHONY: fuzz-build

# The whole suite with the tools and unit tests built with ASan and UBSan, and the runtime that
# instrumented programs link with UBSan in trap mode (they are built by plain gcc, which does not
# link a sanitizer runtime). Rebuilds from clean and cleans again after. Leak checking is off for
# the tools (they exit without freeing); the fuzz harnesses run with it (make fuzz-build).
SAN_CFLAGS = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
check-asan:
	rm -rf build bin lib
	$(MAKE) tests CFLAGS="$(SAN_CFLAGS)" RT_SAN="-fsanitize=undefined -fsanitize-undefined-trap-on-error"
	@ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  sh regress/run.sh; rc=$$?; rm -rf build bin lib; exit $$rc

.PHONY: check-asan
# MC/DC is pathprof's; its unit test links it and the coverage model it indexes by file
build/test/test_mcdc: build/translator/pathprof/mcdc.o build/translator/pathprof/source.o build/translator/pathprof/coverage.o build/translator/pathprof/uninst.o build/translator/pathprof/gcovlines.o build/translator/pathprof/exclude.o
# prime paths are pathprof's; their unit test links the enumeration
build/test/test_prime: build/translator/pathprof/prime.o build/translator/pathprof/source.o build/translator/pathprof/coverage.o build/translator/pathprof/uninst.o build/translator/pathprof/gcovlines.o build/translator/pathprof/exclude.o
