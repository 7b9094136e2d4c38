#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# guest.sh - runs in the test VM (selftests/tpgen/run.sh boots it): loads
# khist_tpgen.ko, built by tools/tpgen/tpgen.sh for this kernel, and
# compares the format text it shows for each event it serves with the
# kernel's own tracefs format file of that event, the ID line aside.
# Prints TAP lines: the share of identical formats, then one failure per
# event that differs (with the diff) and the coverage of the native events.
mount -t debugfs nodev /sys/kernel/debug 2>/dev/null
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
T=/sys/kernel/tracing
F=/sys/kernel/debug/khist_tpgen/formats
W=/tmp/tpgen
mkdir -p $W/ours

if ! insmod /lib/khist/khist_tpgen.ko 2> $W/insmod.err; then
	echo "not ok - tpgen/insmod khist_tpgen.ko"
	sed 's/^/# /' $W/insmod.err
	exit 0
fi
echo "ok - tpgen/insmod khist_tpgen.ko"

# One file per event: $W/ours/<system>/<event>, without the ID line.
awk -v w=$W/ours '
	/^==> .* <==$/ {
		if (out) close(out)
		split($2, a, "/")
		system("mkdir -p " w "/" a[1])
		out = w "/" a[1] "/" a[2]
		next
	}
	!/^ID: / { print > out }' $F

same=0 differ=0 absent=0 nd=0
: > $W/differ.txt
: > $W/absent.txt
for f in $W/ours/*/*; do
	ev=${f#$W/ours/}
	nat=$T/events/$ev/format
	if [ ! -f "$nat" ]; then
		absent=$((absent + 1))
		echo "$ev" >> $W/absent.txt
		continue
	fi
	grep -v '^ID: ' "$nat" > $W/native
	if cmp -s $W/native "$f"; then
		same=$((same + 1))
	else
		differ=$((differ + 1))
		echo "$ev" >> $W/differ.txt
		if [ $nd -lt 40 ]; then
			nd=$((nd + 1))
			echo "# --- $ev: native (-) khist (+)" >> $W/diffs.txt
			diff $W/native "$f" | head -12 | sed 's/^/# /' >> $W/diffs.txt
		fi
	fi
done
both=$((same + differ))
share=0
[ $both -gt 0 ] && share=$((same * 1000 / both))
msg="$same of $both events served and native ($((share / 10)).$((share % 10))%)"
if [ $differ -eq 0 ] && [ $both -gt 0 ]; then
	echo "ok - tpgen/formats identical to native: $msg"
else
	echo "not ok - tpgen/formats identical to native: $msg"
	sed 's/^/# differs: /' $W/differ.txt
	cat $W/diffs.txt 2>/dev/null
fi

# Coverage of the kernel's own events (syscalls aside: not from headers).
grep -v '^syscalls:' $T/available_events | tr ':' '/' | sort > $W/native.txt
(cd $W/ours && ls -d */* | sort) > $W/served.txt
nnat=$(wc -l < $W/native.txt)
# busybox has no comm: awk keeps the native lines not served
awk 'NR == FNR { s[$0] = 1; next } !($0 in s)' $W/served.txt $W/native.txt \
	> $W/missing.txt
ncov=$((nnat - $(wc -l < $W/missing.txt)))
pct=0
[ "$nnat" -gt 0 ] && pct=$((ncov * 100 / nnat))
echo "# native events (syscalls aside): $nnat; served with a format: $ncov" \
	"($pct%); served but not in this kernel: $absent"
echo "# native events not served, by system:" \
	$(cut -d/ -f1 $W/missing.txt | sort | uniq -c | sort -rn | head -30 |
		awk '{ printf "%s %s, ", $2, $1 }')
if rmmod khist_tpgen; then
	echo "ok - tpgen/rmmod khist_tpgen"
else
	echo "not ok - tpgen/rmmod khist_tpgen"
fi
