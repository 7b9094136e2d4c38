#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vm-image.sh ROOT - the manual's sources in the test VM, for
# test.d/docs: ROOT/selftests/docs/Documentation/ (the recipes to run,
# the pages the doc-coverage test searches).
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$1/selftests/docs/Documentation"
cp "$top"/Documentation/*.rst "$1/selftests/docs/Documentation/"
