#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vm-image.sh ROOT - kernel modules whose tracepoints are defined by
# headers of include/trace/events (netfs, 9pnet), for the test of the
# generated events of a module that loads and unloads
# (test.d/events/events-generated-module.tc): copied, decompressed, from
# every kernel of the host's /lib/modules into ROOT/lib/kmods/<release>/.
root=$1
for d in /lib/modules/*; do
	rel=$(basename "$d")
	for m in fs/netfs/netfs net/9p/9pnet; do
		for f in "$d/kernel/$m.ko" "$d/kernel/$m.ko.xz"; do
			[ -f "$f" ] || continue
			mkdir -p "$root/lib/kmods/$rel"
			case $f in
			*.xz) xz -dc "$f" > "$root/lib/kmods/$rel/$(basename "$m").ko" ;;
			*) cp "$f" "$root/lib/kmods/$rel/" ;;
			esac
		done
	done
done
exit 0
