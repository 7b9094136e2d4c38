#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh - what `make demo` shows inside the VM.
M=/sys/kernel/khist
echo
echo "=== khist $(uname -r): mounted at $M"
grep ' khist ' /proc/mounts
echo
echo "=== ls -l $M"
ls -l $M
echo
echo "=== cat $M/README"
cat $M/README
echo
