#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# stage.sh - the install stage of `make check`: the README's commands on a
# machine that has no kernel packages yet (fresh.sh, no VM, under a
# minute), deps.sh's keeping of GRUB's default (grub-test.sh), then
# `make install` and modprobe in the 6.1 and 6.12 VMs (modprobe.sh).
# Prints TAP lines.
set -u
here=$(cd "$(dirname "$0")" && pwd)
rc=0
sh "$here/fresh.sh" || rc=1
sh "$here/grub-test.sh" || rc=1
for k in 6.1 6.12; do
	sh "$here/modprobe.sh" "$k" || rc=1
done
exit $rc
