#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# prom.sh [HIST-FILE] - the Prometheus round trip of `khist export`: a hist
# file (default: a captured kmalloc one, .buckets key) is exported into a
# textfile directory, Debian's prometheus-node-exporter serves it, Debian's
# prometheus scrapes it (loopback ports, private directories, no service),
# and PromQL's histogram_quantile() must land in the bucket where the
# hist's own counts put each quantile. Skips (exit 0, "SKIP" line) when
# the two programs are not installed. Prints TAP.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
hist=${1:-$top/tools/khist/tests/data/kmalloc-buckets.hist}
NE=${NODE_EXPORTER:-/usr/bin/prometheus-node-exporter}
PROM=${PROMETHEUS:-/usr/bin/prometheus}
NE_PORT=${PROM_NE_PORT:-19100}
PROM_PORT=${PROM_PORT:-19090}

echo "TAP version 13"
if [ ! -x "$NE" ] || [ ! -x "$PROM" ]; then
	echo "ok 1 - prometheus round trip # SKIP prometheus and prometheus-node-exporter are not installed (apt-get install prometheus prometheus-node-exporter)"
	echo "1..1"
	exit 0
fi
command -v curl > /dev/null || { echo "ok 1 - prometheus round trip # SKIP no curl"; echo "1..1"; exit 0; }
make -s -C "$top/tools/khist" > /dev/null || { echo "not ok 1 - build khist"; exit 1; }
khist=$top/build/tools/khist

work=$(mktemp -d)
pids=
cleanup() {
	for p in $pids; do kill "$p" 2> /dev/null; done
	for p in $pids; do wait "$p" 2> /dev/null; done
	rm -rf "$work"
}
trap cleanup EXIT INT TERM
n=0
rc=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); echo "not ok $n - $1"; rc=1; }

# A khist root holding the hist file as prom:ev.
mkdir -p "$work/root/events/prom/ev" "$work/tf" "$work/tsdb"
cp "$hist" "$work/root/events/prom/ev/hist"
if "$khist" --root "$work/root" export --textfile "$work/tf" --hist prom:ev; then
	ok "khist export --textfile"
else
	notok "khist export --textfile"
	exit 1
fi
metric=$(sed -n 's/^# TYPE \(khist_prom_ev_[a-z_0-9]*\) histogram$/\1/p' "$work/tf/khist.prom" | head -n 1)
[ -n "$metric" ] || { notok "a histogram in the export"; exit 1; }

"$NE" --web.listen-address=127.0.0.1:$NE_PORT --collector.disable-defaults \
	--collector.textfile --collector.textfile.directory="$work/tf" \
	> "$work/ne.log" 2>&1 &
pids="$pids $!"
cat > "$work/prom.yml" <<EOC
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: khist
    static_configs:
      - targets: ['127.0.0.1:$NE_PORT']
EOC
"$PROM" --config.file="$work/prom.yml" --storage.tsdb.path="$work/tsdb" \
	--web.listen-address=127.0.0.1:$PROM_PORT > "$work/prom.log" 2>&1 &
pids="$pids $!"

# query EXPR: the value of the first result, or nothing.
query() {
	curl -s --get "http://127.0.0.1:$PROM_PORT/api/v1/query" \
		--data-urlencode "query=$1" |
		sed -n 's/.*"value":\[[0-9.]*,"\([^"]*\)"\].*/\1/p'
}

i=0
until [ -n "$(query "count($metric""_bucket)")" ]; do
	i=$((i + 1))
	if [ $i -gt 60 ]; then
		notok "prometheus scraped node_exporter's textfile"
		tail -n 5 "$work/ne.log" "$work/prom.log" | sed 's/^/# /'
		exit 1
	fi
	sleep 1
done
ok "prometheus scraped node_exporter's textfile ($metric)"

# The hist's buckets, summed over the other keys: "le count" lines.
awk '/^\{/ { r = $0; sub(/.*~ /, "", r); sub(/ .*/, "", r)
	if (r ~ /^2\^/) { e = substr(r, 3); le = 1; while (e-- > 0) le *= 2 }
	else { sub(/.*-/, "", r); le = r }
	h = $0; sub(/.*hitcount: */, "", h); sub(/ .*/, "", h)
	c[le] += h }
     END { for (l in c) print l, c[l] }' "$hist" | sort -n > "$work/buckets"
total=$(awk '{ t += $2 } END { print t }' "$work/buckets")
for q in 0.1 0.5 0.9 0.99; do
	got=$(query "histogram_quantile($q, sum by (le) ($metric""_bucket))")
	# The bucket of rank q*total: (previous le, le].
	range=$(awk -v q=$q -v t=$total 'BEGIN { lo = 0 }
		{ c += $2; if (c >= q * t) { print lo, $1; exit } lo = $1 }' "$work/buckets")
	if [ -n "$got" ] && awk -v g="$got" -v r="$range" 'BEGIN {
		split(r, b, " "); exit !(g + 0 >= b[1] && g + 0 <= b[2]) }'; then
		ok "histogram_quantile($q) = $got, in the hist's bucket ($range]"
	else
		notok "histogram_quantile($q) = '$got', not in the hist's bucket ($range]"
	fi
done
got=$(query "sum($metric""_count)")
[ "$got" = "$total" ] && ok "_count = the hist's hits ($total)" ||
	notok "_count = '$got', the hist's hits are $total"
echo "1..$n"
exit $rc
