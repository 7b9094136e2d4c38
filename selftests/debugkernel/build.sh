#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# build.sh VARIANT - build a debug 6.12 kernel from Debian's
# linux-source-6.12 for the VM tests, cached outside the repository in
# /var/cache/khist/kdebug/VARIANT (bzImage + a build tree modules can be
# built against). VARIANT:
#   kasan  KASAN (generic, inline), lockdep (PROVE_LOCKING), DEBUG_ATOMIC_SLEEP,
#          KMEMLEAK, DEBUG_LIST, panic on lockdep/KASAN reports via the
#          harness's dmesg check
#   kcsan  KCSAN (data races, for the lock-free map and fast paths) plus
#          lockdep; KCSAN and KASAN do not mix
# The config starts from x86_64_defconfig (small, quick to build) with
# tracing, hist triggers (the native side of the comparisons), kprobes and
# what the initramfs harness needs. A finished build is reused.
set -eu
variant=${1:-kasan}
top=$(cd "$(dirname "$0")/../.." && pwd)
src=/var/cache/khist/linux-source-6.12
out=/var/cache/khist/kdebug/$variant
[ -d "$src" ] || sh "$top/selftests/vm/deps.sh"
# A kernel build needs more than an out-of-tree module: objtool's libelf
# and the signing tools' libssl (a fresh machine has neither).
need=
for p in libelf-dev libssl-dev bc flex bison; do
	st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	[ "$st" = installed ] || need="$need $p"
done
if [ -n "$need" ]; then
	echo "debug kernel: installing$need"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q -o DPkg::Lock::Timeout=900 \
		--no-install-recommends $need >/dev/null
fi
if [ -f "$out/.khist-done" ] && [ -f "$out/arch/x86/boot/bzImage" ]; then
	echo "debug kernel $variant: cached in $out"
	exit 0
fi
mkdir -p "$out"
make -s -C "$src" O="$out" x86_64_defconfig
cfg="$src/scripts/config --file $out/.config"
# Harness needs: modules, initramfs, serial console, devtmpfs, debugfs.
$cfg -e MODULES -e MODULE_UNLOAD -e MODULE_FORCE_UNLOAD -d MODULE_SIG \
	-e BLK_DEV_INITRD -e DEVTMPFS -e DEVTMPFS_MOUNT -e TMPFS \
	-e SERIAL_8250 -e SERIAL_8250_CONSOLE -e DEBUG_FS -e PROC_FS \
	-e SYSFS -e UNIX -e PACKET -e INET
# Tracing: what khist hooks into and what the native side offers.
$cfg -e FTRACE -e FUNCTION_TRACER -e FTRACE_SYSCALLS -e TRACEPOINTS \
	-e EVENT_TRACING -e HIST_TRIGGERS -e SYNTH_EVENTS -e KPROBES \
	-e KPROBE_EVENTS -e DYNAMIC_EVENTS -e PROBE_EVENTS_BTF_ARGS \
	-e TRACER_SNAPSHOT -e STACKTRACE -e KALLSYMS -e KALLSYMS_ALL \
	-d DEBUG_INFO -e DEBUG_INFO_NONE -d DEBUG_INFO_BTF -d RANDSTRUCT
# Lock and context checking, for both variants.
$cfg -e DEBUG_KERNEL -e PROVE_LOCKING -e DEBUG_ATOMIC_SLEEP -e DEBUG_LIST \
	-e DEBUG_OBJECTS -e DEBUG_OBJECTS_RCU_HEAD -e PROVE_RCU \
	-e DEBUG_PREEMPT -e SOFTLOCKUP_DETECTOR -e DETECT_HUNG_TASK
case "$variant" in
kasan)
	$cfg -e KASAN -e KASAN_GENERIC -e KASAN_INLINE -e KASAN_VMALLOC \
		-e DEBUG_KMEMLEAK -d DEBUG_KMEMLEAK_DEFAULT_OFF \
		-e DEBUG_KMEMLEAK_AUTO_SCAN --set-val DEBUG_KMEMLEAK_MEM_POOL_SIZE 16000
	;;
kcsan)
	$cfg -d KASAN -e KCSAN -e KCSAN_REPORT_ONCE_IN_MS \
		--set-val KCSAN_REPORT_ONCE_IN_MS 100 -d KCSAN_REPORT_VALUE_CHANGE_ONLY
	;;
*)
	echo "build.sh: unknown variant '$variant' (kasan|kcsan)" >&2
	exit 2
	;;
esac
make -s -C "$src" O="$out" olddefconfig
for opt in MODULES HIST_TRIGGERS SYNTH_EVENTS KPROBES PROVE_LOCKING; do
	grep -q "^CONFIG_$opt=y" "$out/.config" ||
		{ echo "build.sh: CONFIG_$opt did not stick" >&2; exit 1; }
done
jobs=$(nproc)
nice -n 10 make -s -C "$src" O="$out" -j"$jobs" bzImage modules
nice -n 10 make -s -C "$src" O="$out" -j"$jobs" modules_prepare
touch "$out/.khist-done"
echo "debug kernel $variant: $(cat "$out/include/config/kernel.release") in $out"
