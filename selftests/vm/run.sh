#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run.sh test|demo|script KVER MODDIR - boot Debian's kernel KVER in QEMU (TCG)
# with the khist modules from MODDIR and run the in-VM tests or the demo.
#
# test: prints the TAP lines the guest sent over its second serial port,
# adds a failure when the VM did not finish (crash, panic_on_warn, hang
# past the timeout) with the console's tail, and exits non-zero when any
# test failed.
# Environment:
#   KHIST_VM_OUT      output directory (default build/vm-KVER); give each
#                     concurrent run its own
#   KHIST_VM_FILTER   test mode: run only test.d names containing this (a,b: either)
#   KHIST_VM_SHARD    test mode: i/n runs every n-th selected test from the
#                     i-th (0-based); the VM's own checks (insmod, dmesg,
#                     kmemleak) are then named vm/shard-i/...
#   KHIST_VM_SCRIPT   script mode: guest script, path inside the image
#                     (e.g. selftests/conform/guest.sh); prints TAP lines
#   KHIST_VM_SMP, KHIST_VM_MEM   vCPUs (2) and MiB (1024)
#   KHIST_VM_QEMU     extra QEMU arguments (e.g. "-icount shift=0")
#   KHIST_VM_ACCEL    QEMU's -accel (tcg,thread=single: multi-threaded TCG
#                     breaks tracepoint patching on a running second vCPU)
#   KHIST_VM_APPEND   extra kernel command line
#   KHIST_VM_TIMEOUT  seconds before the VM is killed (3000; 7200 on debug
#                     kernels, whose tests also get 900 s each instead of 300)
#   KHIST_VM_DRYRUN   1: print the QEMU command line and stop before the
#                     initramfs is built (selftests/install/fresh.sh)
set -u
mode=$1
kver=$2
moddir=$3
top=$(cd "$(dirname "$0")/../.." && pwd)
timeout_s=${KHIST_VM_TIMEOUT:-3000}

kernel=$(sh "$top/selftests/vm/kernel.sh" image "$kver")
# Debug kernels need more memory (KASAN shadow, kmemleak) and time: the
# whole run and each test (khisttimeout=, the guest's per-test limit).
case "$kver" in
*-kasan | *-kcsan)
	mem=2048
	timeout_s=${KHIST_VM_TIMEOUT:-7200}
	# no5lvl: with LA57 (-cpu max), an interrupt taken while
	# identify_cpu() refills the boot CPU's feature bits makes KASAN
	# judge the direct map by the 4-level layout ("wild-memory-access"
	# in handle_edge_irq, panic at boot); 4-level paging avoids it.
	KHIST_VM_APPEND="no5lvl khisttimeout=900 ${KHIST_VM_APPEND:-}"
	;;
*) mem=1024 ;;
esac
[ -f "$kernel" ] || { echo "not ok - vm-$kver/boot: no kernel image for $kver (make deps)"; exit 1; }
# The test suite and the demo load khist.ko from MODDIR; a guest script
# may bring its own (the dkms stage boots with an empty MODDIR).
[ "$mode" = script ] || [ -f "$moddir/khist.ko" ] || {
	echo "not ok - vm-$kver/module: no khist.ko in '$moddir' (make module KVER=$kver)"
	exit 1
}
out=${KHIST_VM_OUT:-$top/build/vm-$kver}
mkdir -p "$out"
initrd="$out/initramfs.cpio"

# watchdog_thresh=60: the soft-lockup report comes after 120 s instead of
# 20. A loaded host can leave single-threaded TCG unscheduled for tens of
# seconds (the guest then reports a soft lockup in whatever ran, e.g. a
# user-space grep); a real hang still fails the test's own time limit.
# KCSAN calls panic_on_warn on every report, the kernel's own races
# included: a KCSAN kernel runs without it, and the guest's dmesg check
# fails the run on a WARNING or on a data race that names khist.
pow=1
case "$kver" in
*-kcsan) pow=0 ;;
esac
cmdline="console=ttyS0 loglevel=5 panic=-1 panic_on_warn=$pow oops=panic"
cmdline="$cmdline watchdog_thresh=60"
# no_timer_check: on a loaded host (two VMs on two cores) TCG can miss the
# IO-APIC timer check at boot ("IO-APIC + timer doesn't work!" panic).
cmdline="$cmdline no_timer_check"
cmdline="$cmdline rdinit=/init khistvm=$mode ${KHIST_VM_APPEND:-}"
[ -n "${KHIST_VM_FILTER:-}" ] && cmdline="$cmdline khistfilter=$KHIST_VM_FILTER"
[ -n "${KHIST_VM_SHARD:-}" ] && cmdline="$cmdline khistshard=$KHIST_VM_SHARD"
[ -n "${KHIST_VM_SCRIPT:-}" ] && cmdline="$cmdline khistscript=$KHIST_VM_SCRIPT"
qemu="qemu-system-x86_64 -machine pc -cpu max -m ${KHIST_VM_MEM:-$mem}
	-smp ${KHIST_VM_SMP:-2} -accel ${KHIST_VM_ACCEL:-tcg,thread=single} -no-reboot
	-display none -monitor none ${KHIST_VM_QEMU:-}
	-kernel $kernel -initrd $initrd"

if [ "${KHIST_VM_DRYRUN:-0}" = 1 ]; then
	echo "# khist-vm: dry run:" $qemu -append "\"$cmdline\""
	echo "# khist-vm: modules:" "$moddir"/*.ko
	exit 0
fi
sh "$top/selftests/vm/mkinitramfs.sh" "$moddir" "$initrd" || {
	echo "not ok - vm-$kver/initramfs"
	exit 1
}

if [ "$mode" = demo ]; then
	exec timeout "$timeout_s" $qemu -serial stdio -append "$cmdline"
fi

console="$out/console.log"
results="$out/results.tap"
rm -f "$console" "$results"
timeout "$timeout_s" $qemu -serial "file:$console" -serial "file:$results" \
	-append "$cmdline"
qrc=$?

rc=0
shard=
[ -n "${KHIST_VM_SHARD:-}" ] && shard="shard-${KHIST_VM_SHARD%/*}\/"
if [ -f "$results" ]; then
	tr -d '\r' < "$results" | sed "s/^\(not ok\|ok\) - vm\//\1 - vm\/$shard/" |
		sed "s/^\(not ok\|ok\) - /\1 - vm-$kver\//"
	grep -q '^not ok' "$results" && rc=1
fi
if ! grep -q '^# khist-vm: done' "$results" 2>/dev/null; then
	if [ $qrc -eq 124 ]; then
		why="hung: killed after ${timeout_s}s"
	else
		why="did not finish (qemu exit $qrc: panic, oops or WARN?)"
	fi
	echo "not ok - vm-$kver/vm ${shard:+shard-${KHIST_VM_SHARD%/*} }finished: $why"
	echo "# --- console tail ---"
	tail -n 60 "$console" 2>/dev/null | tr -d '\r' | sed 's/^/# /'
	rc=1
fi
exit $rc
