#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# stage.sh - the check stage "docs" (selftests/check.sh), two TAP tests:
# 1. `make htmldocs` builds the manual (Sphinx, warnings as errors); one
#    test per manual built. Without sphinx-build (Debian's python3-sphinx,
#    which make deps and .ci/run install) it is skipped, saying so.
# 2. keywords.py: every keyword and modifier of the trigger language, read
#    from the module's tables, is in the manual.
# The recipes and the doc coverage of the files run in the VM stages
# (selftests/fs/test.d/docs).
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
sb=${SPHINXBUILD:-sphinx-build}
mkdir -p build
log=build/htmldocs.log
rc=0
echo "1..2"
if ! "$sb" --version >/dev/null 2>&1; then
	echo "ok 1 - htmldocs: the manual # SKIP $sb not found: install python3-sphinx (make deps)"
elif make -s htmldocs SPHINXBUILD="$sb" >"$log" 2>&1 &&
	[ -s build/htmldocs/index.html ]; then
	echo "ok 1 - htmldocs: the manual, $(find build/htmldocs -maxdepth 1 -name "*.html" | wc -l) pages in build/htmldocs"
else
	echo "not ok 1 - htmldocs: the manual does not build cleanly"
	sed 's/^/# /' "$log" | head -n 40
	rc=1
fi
rm -f "$log"
python3 selftests/docs/keywords.py "$top" >"$log" 2>&1 || rc=1
sed -e '/^1\.\./d' -e 's/^ok 1 /ok 2 /' -e 's/^not ok 1 /not ok 2 /' "$log"
rm -f "$log"
exit $rc
