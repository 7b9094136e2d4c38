#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# stage.sh - the tools stage of `make check`: the khist command's host
# tests (make tools-test) and the Prometheus round trip (prom.sh, which
# skips when prometheus and prometheus-node-exporter are absent). The
# command's VM tests run in the vm-<kernel> stages (test.d/tools). TAP.
top=$(cd "$(dirname "$0")/../.." && pwd)
rc=0
make -s -C "$top/tools/khist" test || rc=1
sh "$top/selftests/tools/prom.sh" || rc=1
exit $rc
