# SPDX-License-Identifier: GPL-2.0
#
# khist developer entry points. `make help` lists them.

KVER ?= 6.12
# Kernel build tree: the running kernel's if it has one, else the installed
# Debian headers for KVER (6.1 or 6.12).
ifeq ($(origin KDIR),undefined)
KDIR := $(shell sh selftests/vm/kernel.sh kdir $(KVER) 2>/dev/null)
endif
ARCH_FLAGS :=

BUILD := $(CURDIR)/build
KREL = $(shell cat $(KDIR)/include/config/kernel.release 2>/dev/null)
MODDIR = $(BUILD)/mod-$(KREL)
MOD_SRCS := Kbuild $(shell find module include selftests/modules -name '*.[ch]' -o -name 'Kbuild*' 2>/dev/null)

.PHONY: all module modules clean deps unit vmtest check demo style sparse kdoc \
	w1 help bench-map fuzz stress ftracetest bench bench-steps debug-kernel

all: module

# Kbuild runs in a tree of symlinks under build/ so that objects for 6.1 and
# 6.12 never mix and the source tree stays clean.
module modules:
	@test -n "$(KDIR)" -a -d "$(KDIR)" || { echo "khist: no kernel build tree (KDIR=$(KDIR)); run 'make deps' or set KDIR" >&2; exit 1; }
	@sh selftests/vm/linktree.sh $(CURDIR) $(MODDIR)
	$(MAKE) -C $(KDIR) M=$(MODDIR) $(if $(W),W=$(W)) $(if $(C),C=$(C)) modules
	@ln -sf $(MODDIR)/khist.ko khist.ko
	@echo "khist: built $(MODDIR)/khist.ko for $(KREL)"

deps:
	@sh selftests/vm/deps.sh

unit:
	@$(MAKE) -s -C selftests/unit run

vmtest: module
	@sh selftests/vm/run.sh test $(KVER) $(MODDIR)

demo:
	@sh selftests/vm/deps.sh
	@$(MAKE) -s module KVER=$(KVER)
	@sh selftests/vm/run.sh demo $(KVER) $(MODDIR)

check:
	@sh selftests/vm/deps.sh
	@sh selftests/check.sh

style:
	@sh selftests/style.sh all

sparse:
	@sh selftests/style.sh sparse

kdoc:
	@sh selftests/style.sh kdoc

w1:
	@sh selftests/style.sh w1

# Area entry points: each area keeps its driver script in its directory.
FUZZ_SECONDS ?= 60
STRESS_SECONDS ?= 180
fuzz:
	@FUZZ_SECONDS=$(FUZZ_SECONDS) sh selftests/fuzz/run.sh

stress: module
	@STRESS_SECONDS=$(STRESS_SECONDS) sh selftests/stress/run.sh $(KVER) $(MODDIR)

ftracetest: module
	@sh selftests/conform/ftracetest.sh $(KVER) $(MODDIR)

# Debug kernels (KASAN/lockdep/kmemleak, or KCSAN), cached in
# /var/cache/khist/kdebug; then e.g. `make vmtest KVER=6.12-kasan`.
DEBUG_VARIANT ?= kasan
debug-kernel:
	@sh selftests/debugkernel/build.sh $(DEBUG_VARIANT)

bench: module
	@sh selftests/bench/vm/run.sh $(KVER) $(MODDIR)

# Instructions of one event, function by function (QEMU's gdb stub).
STEPS ?= c cf d e g gx h1 sc mc
bench-steps: module
	@sh selftests/bench/steps/steps.sh $(KVER) $(MODDIR) $(STEPS)

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

help:
	@echo "make [KVER=6.1|6.12|6.12-rt|6.12-kasan|6.12-kcsan] [KDIR=...]  build khist.ko"
	@echo "make deps        install the Debian packages khist needs (idempotent)"
	@echo "make unit        userspace tests of module/core (ASan+UBSan, TSan)"
	@echo "make vmtest      boot the Debian kernel KVER in QEMU and run selftests/fs"
	@echo "make check       unit + VM tests on 6.1, 6.12, 6.12-rt + area stages; ends with 'N passed, N failed'"
	@echo "make demo        build, boot a VM, load khist and show it at work"
	@echo "make deb         the khist-dkms package, in build/deb (Documentation/install.rst)"
	@echo "make style       checkpatch --strict, clang-format, sparse, W=1, kernel-doc"
	@echo "make bench-map   tracing_map benchmark against liburcu's cds_lfht"
	@echo "make bench       per-event cost, khist vs native hist triggers, in one VM"
	@echo "make bench-steps [STEPS=\"c e\"]  instructions of one event per function (gdb)"
	@echo "make ftracetest  the kernel's ftrace trigger selftests against khist and native"
	@echo "make fuzz        libFuzzer targets, FUZZ_SECONDS each"
	@echo "make debug-kernel [DEBUG_VARIANT=kasan|kcsan]  build a 6.12 debug kernel; then KVER=6.12-kasan"
	@echo "make stress      VM stress: configuration changes under load, rmmod, STRESS_SECONDS"
	@echo "make sparse | kdoc | w1   one style gate of make style on its own"
	@echo "make clean       remove build/ and khist.ko"
