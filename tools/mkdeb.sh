#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# mkdeb.sh OUTDIR - build the khist-dkms Debian package (`make deb`).
#
# Copies only what building khist.ko needs (Kbuild, VERSION, module/,
# include/, dkms.conf, the event generator tools/tpgen), the docs the
# package ships and debian/ into
# OUTDIR/khist-<version>/, writes a changelog entry for VERSION there, and
# runs dpkg-buildpackage: OUTDIR/khist-dkms_<version>_all.deb. The
# checkout itself stays untouched (no build products next to the source).
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/build/deb}
for t in dpkg-buildpackage dh dh_dkms; do
	command -v $t >/dev/null || {
		echo "mkdeb: $t missing (make deps installs debhelper and dh-dkms)" >&2
		exit 1
	}
done
ver=$(cat "$top/VERSION")
case "$ver" in
[0-9]*.[0-9]*) ;;
*) echo "mkdeb: VERSION '$ver' is not a version" >&2; exit 1 ;;
esac
stage=$out/khist-$ver
rm -rf "$stage" "$out"/khist-dkms_*.deb "$out"/khist-tools_*.deb "$out"/khist_*.buildinfo \
	"$out"/khist_*.changes
mkdir -p "$stage"
(cd "$top" && tar -cf "$stage.tar" Kbuild VERSION dkms.conf module include \
	debian README.md Documentation/install.rst tools/khist tools/kshim \
	tools/include tools/tpgen)
tar -xf "$stage.tar" -C "$stage"
rm -f "$stage.tar"
# Nothing built in place may leak in (objects of an old in-tree build).
find "$stage" \( -name '*.o' -o -name '*.ko' -o -name '*.cmd' -o \
	-name '*.mod' -o -name '*.mod.c' \) -delete
# The changelog is the version's only other home: made from VERSION. The
# date is the last commit's, so that two builds of one commit agree.
date=$(git -C "$top" log -1 --format=%aD 2>/dev/null || date -R)
cat >"$stage/debian/changelog" <<EOT
khist ($ver) unstable; urgency=medium

  * khist $ver (see the project's git history).

 -- The khist authors <maintainers@users.noreply.a-seed-34fd27d6.example>  $date
EOT
cd "$stage"
SOURCE_DATE_EPOCH=$(git -C "$top" log -1 --format=%ct 2>/dev/null || date +%s)
export SOURCE_DATE_EPOCH
dpkg-buildpackage -b -us -uc -tc >"$out/build.log" 2>&1 || {
	tail -n 30 "$out/build.log" >&2
	exit 1
}
echo "khist: built $out/khist-dkms_${ver}_all.deb"
echo "khist: built $out/khist-tools_${ver}_amd64.deb"
