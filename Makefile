# SPDX-License-Identifier: GPL-2.0
#
# khist developer entry points. `make help` lists them.

KVER ?= 6.12
BUILD := $(CURDIR)/build
ARCH_FLAGS :=

# Nothing is looked up while make reads this file: `make demo` and
# `make check` install the kernels first (make deps), so every path that
# depends on them is computed when a recipe needs it (X = $(eval X := ...)
# runs the look-up once, at first use).

# Debian's headers for KVER (6.1, 6.12, 6.12-rt, 6.12-kasan, ...): what
# the VM targets build against, as they boot Debian's kernel KVER.
KVER_KDIR = $(eval KVER_KDIR := $$(shell sh selftests/vm/kernel.sh kdir $$(KVER) 2>/dev/null))$(KVER_KDIR)
UNAME_R = $(eval UNAME_R := $$(shell uname -r))$(UNAME_R)
RUN_KDIR = /lib/modules/$(UNAME_R)/build

# The tree `make`, `make module` and `make install` build for, and why:
# KDIR if given; Debian's headers if KVER is given; else the running
# kernel's build tree if it has one; else Debian's 6.12 headers.
ifneq ($(origin KDIR),undefined)
WHY = KDIR=$(KDIR)
TEST_KDIR = $(KDIR)
else
TEST_KDIR = $(KVER_KDIR)
ifneq ($(filter command line environment,$(origin KVER)),)
KDIR = $(KVER_KDIR)
WHY = Debian's KVER=$(KVER) headers
else
KDIR = $(if $(wildcard $(RUN_KDIR)/Makefile),$(RUN_KDIR),$(KVER_KDIR))
WHY = $(if $(wildcard $(RUN_KDIR)/Makefile),the running kernel ($(RUN_KDIR)),no build tree for the running kernel $(UNAME_R) ($(RUN_KDIR)), so Debian's KVER=$(KVER) headers (set KVER= or KDIR= to choose))
endif
endif

krel = $(shell cat $(1)/include/config/kernel.release 2>/dev/null)
KREL = $(eval KREL := $$(call krel,$$(KDIR)))$(KREL)
MODDIR = $(BUILD)/mod-$(KREL)
# The modules the VM targets load: built by `testmodules` for KVER.
TEST_MODDIR = $(BUILD)/mod-$(call krel,$(TEST_KDIR))

# The release khist.ko is built for (its vermagic, `uname -r` of that
# kernel): Debian's 6.1 headers say 6.1.192 in kernel.release (the name of
# the build directory) but 6.1.0-N-amd64 in utsrelease.h.
uts = $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"/\1/p' $(1)/include/generated/utsrelease.h 2>/dev/null)
MOD_REL = $(eval MOD_REL := $$(call uts,$$(KDIR)))$(MOD_REL)

# make install puts khist.ko here (INSTALL_MOD_PATH: another root, as
# with the kernel's modules_install); depmod makes modprobe find it.
INSTALL_MOD_PATH ?=
MOD_DEST = $(INSTALL_MOD_PATH)/lib/modules/$(MOD_REL)/updates
DEPMOD = depmod $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) $(MOD_REL)

.PHONY: all module modules testmodules install uninstall clean deps unit \
	vmtest check demo demo-vm style sparse kdoc w1 layers help bench-map fuzz \
	stress ftracetest bench bench-steps debug-kernel vmtest-kasan tools \
	tools-test \
	tools-install trace2 trace2-test htmldocs

all: module

# Kbuild runs in a tree of symlinks under build/ so that objects for 6.1 and
# 6.12 never mix and the source tree stays clean. Only khist.ko is built,
# unless TESTMODS=1 (the test modules of selftests/modules too).
module modules:
	@test -n "$(KDIR)" -a -f "$(KDIR)/Makefile" || { echo "khist: $(WHY): not installed; run 'make deps' or set KDIR=DIR" >&2; exit 1; }
	@echo "khist: building for $(MOD_REL): $(WHY)"
	@sh selftests/vm/linktree.sh $(CURDIR) $(MODDIR)
	@sh tools/tpgen/module.sh $(KDIR) $(MODDIR)/tpgen
	@sh tools/tpgen/syscalls.sh $(KDIR) $(MODDIR)/scgen
	$(MAKE) -C $(KDIR) M=$(MODDIR) $(if $(filter 1 y yes,$(TESTMODS)),KHIST_TESTMODS=y) \
		$(if $(W),W=$(W)) $(if $(C),C=$(C)) modules
	@ln -sf $(MODDIR)/khist.ko khist.ko
	@echo "khist: built $(MODDIR)/khist.ko for $(MOD_REL)"

# khist.ko and the test modules for Debian's KVER: what the VM targets need.
testmodules:
	@$(MAKE) -s module KVER=$(KVER) TESTMODS=1

install: module tools-install
	install -D -m 0644 $(MODDIR)/khist.ko $(MOD_DEST)/khist.ko
	$(DEPMOD)
	@echo "khist: installed $(MOD_DEST)/khist.ko; 'modprobe khist' loads it"

# The khist command (tools/khist, Documentation/khist.rst): build/tools/khist,
# and khist-trace2 (Git's Trace2 stream into user events,
# Documentation/trace2.rst): build/trace2/.
tools: trace2
	@$(MAKE) -s -C tools/khist

tools-test:
	@$(MAKE) -s -C tools/khist test

# The command, its man pages and bash completion, under INSTALL_MOD_PATH
# (as DESTDIR) and PREFIX (/usr).
tools-install:
	@$(MAKE) -s -C tools/khist install DESTDIR=$(INSTALL_MOD_PATH)

uninstall:
	@test -n "$(MOD_REL)" || { echo "khist: $(WHY): not installed; set KDIR=DIR or KVER" >&2; exit 1; }
	rm -f $(MOD_DEST)/khist.ko
	$(DEPMOD)
	@$(MAKE) -s -C tools/khist uninstall DESTDIR=$(INSTALL_MOD_PATH)

deps:
	@sh selftests/vm/deps.sh

unit:
	@$(MAKE) -s -C selftests/unit run

# The VM targets boot Debian's kernel KVER: they build for it (or for KDIR
# if given), whatever the running kernel is.
vmtest: testmodules
	@sh selftests/vm/run.sh test $(KVER) $(TEST_MODDIR)

# demo installs the kernels first, then runs a new make that finds them.
demo:
	@sh selftests/vm/deps.sh
	@$(MAKE) -s demo-vm

demo-vm:
	@$(MAKE) -s module KVER=$(KVER)
	@sh selftests/vm/run.sh demo $(KVER) $(TEST_MODDIR)

check:
	@sh selftests/vm/deps.sh
	@sh selftests/check.sh

style:
	@sh selftests/style.sh all

sparse:
	@sh selftests/style.sh sparse

kdoc:
	@sh selftests/style.sh kdoc

layers:
	@sh selftests/style.sh layers

w1:
	@sh selftests/style.sh w1

trace2:
	@$(MAKE) -s -C tools/trace2 OUT=$(BUILD)/trace2

# Its tests, on the host, without khist (tools/trace2/tests/run.sh).
trace2-test:
	@$(MAKE) -s -C tools/trace2 OUT=$(BUILD)/trace2 test

# The manual (Documentation/, Documentation/conf.py) as HTML in
# build/htmldocs, every Sphinx warning an error. Needs Debian's
# python3-sphinx (make deps installs it).
SPHINXBUILD ?= sphinx-build
htmldocs:
	@$(SPHINXBUILD) --version >/dev/null 2>&1 || { \
		echo "khist: make htmldocs needs $(SPHINXBUILD), from Debian's python3-sphinx package:" >&2; \
		echo "khist: run 'make deps' (or apt-get install python3-sphinx)" >&2; exit 1; }
	@rm -rf $(BUILD)/htmldocs $(BUILD)/htmldocs.doctrees
	$(SPHINXBUILD) -b html -W --keep-going -n -q -d $(BUILD)/htmldocs.doctrees \
		Documentation $(BUILD)/htmldocs
	@echo "khist: the manual is in $(BUILD)/htmldocs/index.html"

# Area entry points: each area keeps its driver script in its directory.
FUZZ_SECONDS ?= 60
STRESS_SECONDS ?= 180
fuzz:
	@FUZZ_SECONDS=$(FUZZ_SECONDS) sh selftests/fuzz/run.sh

stress:
	@$(MAKE) -s module KVER=$(KVER)
	@STRESS_SECONDS=$(STRESS_SECONDS) sh selftests/stress/run.sh $(KVER) $(TEST_MODDIR)

ftracetest:
	@$(MAKE) -s module KVER=$(KVER)
	@sh selftests/conform/ftracetest.sh $(KVER) $(TEST_MODDIR)

# The VM suite on the KASAN debug kernel (make debug-kernel first): long
# (about an hour per area under TCG), never part of `make check`.
# KHIST_VM_FILTER=hist,limits,teardown runs those areas only.
vmtest-kasan:
	@$(MAKE) -s vmtest KVER=6.12-kasan

# Debug kernels (KASAN/lockdep/kmemleak, or KCSAN), cached in
# /var/cache/khist/kdebug; then e.g. `make vmtest KVER=6.12-kasan`.
DEBUG_VARIANT ?= kasan
debug-kernel:
	@sh selftests/debugkernel/build.sh $(DEBUG_VARIANT)

bench: testmodules
	@sh selftests/bench/vm/run.sh $(KVER) $(TEST_MODDIR)

# Instructions of one event, function by function (QEMU's gdb stub).
STEPS ?= c cf d e g gx h1 sc mc
bench-steps:
	@$(MAKE) -s module KVER=$(KVER)
	@sh selftests/bench/steps/steps.sh $(KVER) $(TEST_MODDIR) $(STEPS)

bench-map:
	@$(MAKE) -s -C selftests/bench map

# The khist-dkms Debian package (Documentation/install.rst): khist's sources
# under /usr/src/khist-<version>/, which DKMS builds for every kernel.
.PHONY: deb
deb:
	@sh tools/mkdeb.sh $(BUILD)/deb

clean:
	rm -rf $(BUILD) khist.ko
	@$(MAKE) -s -C selftests/unit clean
	@$(MAKE) -s -C tools/khist clean

help:
	@echo "make             build khist.ko for the running kernel (/lib/modules/\$$(uname -r)/build),"
	@echo "                 or, if it has no build tree, for Debian's 6.12 headers (it says which)"
	@echo "make KVER=6.1|6.12|6.12-rt|6.12-kasan|6.12-kcsan  or  make KDIR=DIR  build for that kernel"
	@echo "make TESTMODS=1  also the test modules (selftests/modules); make testmodules: for KVER"
	@echo "make install     khist.ko into /lib/modules/<release>/updates/, depmod (then modprobe khist)"
	@echo "                 and the khist command (make tools-install: it alone)"
	@echo "make uninstall   remove it, depmod (both: [INSTALL_MOD_PATH=ROOT] [KVER=|KDIR=])"
	@echo "make tools       the khist command, build/tools/khist; make tools-test: its host tests"
	@echo "make clean       remove build/ and khist.ko"
	@echo "make deps        install the Debian packages khist needs (idempotent): three kernels,"
	@echo "                 says what and how much first, keeps the boot loader's default"
	@echo "make unit        userspace tests of module/core (ASan+UBSan, TSan)"
	@echo "make vmtest      boot the Debian kernel KVER in QEMU and run selftests/fs"
	@echo "make check       unit + style + VM tests on 6.1, 6.12, 6.12-rt + area stages; ends with 'N passed, N failed'"
	@echo "make demo        build, boot a VM, load khist and show it at work"
	@echo "make deb         the khist-dkms package, in build/deb (Documentation/install.rst)"
	@echo "make htmldocs    the manual (Documentation/) as HTML in build/htmldocs (needs python3-sphinx)"
	@echo "make style       checkpatch --strict, clang-format, sparse, W=1, kernel-doc, layers"
	@echo "make sparse|kdoc|w1  one of those gates alone"
	@echo "make layers      the layer rule on the built objects (selftests/layers.sh)"
	@echo "make bench-map   tracing_map benchmark against liburcu's cds_lfht"
	@echo "make bench       per-event cost, khist vs native hist triggers, in one VM"
	@echo "make bench-steps [STEPS=\"c e\"]  instructions of one event per function (gdb)"
	@echo "make ftracetest  the kernel's ftrace trigger selftests against khist and native"
	@echo "make fuzz        libFuzzer targets, FUZZ_SECONDS each"
	@echo "make tools       the khist command (build/tools/khist) and khist-trace2 (build/trace2/)"
	@echo "make tools-test  the khist command's host tests"
	@echo "make trace2-test its tests on the host, with real git (about 20 s)"
	@echo "make debug-kernel [DEBUG_VARIANT=kasan|kcsan]  build a 6.12 debug kernel; then KVER=6.12-kasan"
	@echo "make stress      VM stress: configuration changes under load, rmmod, STRESS_SECONDS"
	@echo "make vmtest-kasan  the VM suite on the 6.12 KASAN kernel (long, not in check; KHIST_VM_FILTER=areas)"
	@echo "make sparse | kdoc | w1   one style gate of make style on its own"
	@echo "make clean       remove build/ and khist.ko"
