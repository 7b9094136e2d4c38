# SPDX-License-Identifier: GPL-2.0
#
# recipes-check.sh - sourced by test.d/docs/docs-recipes.tc (dash, set -e,
# lib.sh loaded). Helpers to compare a recipe's output with the output
# its page shows.

# sig FILE - per line of FILE, its layout: the "name:" labels it has, in
# order (a label starts the line or follows a blank, "{" or ","), e.g.
# "{ id: sys_read [ 0] } hitcount: 5  lat: 12" -> "id: hitcount: lat:".
# Lines without a label print nothing.
sig() {
	awk '{
		s = ""; l = $0
		while (match(l, /(^|[[:space:]{,])[A-Za-z_][A-Za-z0-9_.]*:/)) {
			t = substr(l, RSTART, RLENGTH)
			sub(/^[[:space:]{,]/, "", t)
			s = s " " t
			l = substr(l, RSTART + RLENGTH)
		}
		if (s != "") print substr(s, 2)
	}' "$1"
}

# recipe_compare NAME DIR - DIR/NAME.got against DIR/NAME.want and
# DIR/NAME.expect; prints each difference, returns 1 if there is one.
recipe_compare() {
	_n=$1 _d=$2 _bad=0
	sed 's/[ \t]*$//' "$_d/$_n.got" > "$_d/$_n.gotn"
	[ -s "$_d/$_n.want" ] || { echo "$_n: the page shows no output"; return 1; }
	# The "#" header lines (trigger info and the like) as printed.
	grep '^#' "$_d/$_n.want" | sed 's/[ \t]*$//' > "$_d/$_n.hdr" || true
	while IFS= read -r _l; do
		grep -Fqx -- "$_l" "$_d/$_n.gotn" || {
			echo "$_n: the page shows the line '$_l', the output has not"
			_bad=1
		}
	done < "$_d/$_n.hdr"
	# Every other line shown: a line of the output has the same labels.
	grep -v '^#' "$_d/$_n.want" > "$_d/$_n.body" || true
	sig "$_d/$_n.body" | sort -u > "$_d/$_n.wsig"
	sig "$_d/$_n.gotn" | sort -u > "$_d/$_n.gsig"
	while IFS= read -r _l; do
		grep -Fqx -- "$_l" "$_d/$_n.gsig" || {
			echo "$_n: the page shows a line labelled '$_l', the output has none"
			_bad=1
		}
	done < "$_d/$_n.wsig"
	[ -s "$_d/$_n.hdr" ] || [ -s "$_d/$_n.wsig" ] || {
		echo "$_n: the output the page shows has nothing to check (no '#' line, no 'name:' label)"
		_bad=1
	}
	if [ -f "$_d/$_n.expect" ]; then
		while IFS= read -r _l; do
			grep -Eq -- "$_l" "$_d/$_n.gotn" || {
				echo "$_n: no output line matches /$_l/"
				_bad=1
			}
		done < "$_d/$_n.expect"
	fi
	return $_bad
}
