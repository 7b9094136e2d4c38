#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# stage.sh - the check stage "docs" (selftests/check.sh): builds the
# manual with `make htmldocs` (Sphinx, warnings as errors) and prints one
# TAP line per manual built. Without sphinx-build (Debian's python3-sphinx,
# which make deps and .ci/run install) the test is skipped, saying so.
# The recipes and doc-coverage tests run in the VM stages
# (selftests/fs/test.d/docs).
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
sb=${SPHINXBUILD:-sphinx-build}
mkdir -p build
log=build/htmldocs.log
echo "1..1"
if ! "$sb" --version >/dev/null 2>&1; then
	echo "ok 1 - htmldocs: the manual # SKIP $sb not found: install python3-sphinx (make deps)"
	exit 0
fi
if make -s htmldocs SPHINXBUILD="$sb" >"$log" 2>&1 &&
	[ -s build/htmldocs/index.html ]; then
	echo "ok 1 - htmldocs: the manual, $(ls build/htmldocs/*.html | wc -l) pages in build/htmldocs"
	rm -f "$log"
	exit 0
fi
echo "not ok 1 - htmldocs: the manual does not build cleanly"
sed 's/^/# /' "$log" | head -n 40
rm -f "$log"
exit 1
