# SPDX-License-Identifier: GPL-2.0
#
# recipes.awk - split the tested blocks out of Documentation/recipes.rst
# (awk -v out=DIR -f recipes.awk recipes.rst). A block is marked by an
# rst comment naming its recipe, before the paragraph whose "::" opens it:
#   .. khist-recipe: NAME   commands, appended to DIR/NAME.sh
#   .. khist-output: NAME   the output shown, appended to DIR/NAME.want
#   .. khist-expect: NAME   the comment's own indented lines: extended
#                           regexes the output must match, DIR/NAME.expect
# DIR/names lists the recipes in the order they first appear.

function flush_names(n) {
	if (!(n in seen)) {
		seen[n] = 1
		print n > (out "/names")
	}
}

# A marker: remember what the next literal block is.
/^\.\. khist-(recipe|output|expect): *[a-z0-9-]+ *$/ {
	kind = $2
	sub(/^khist-/, "", kind)
	sub(/:$/, "", kind)
	name = $3
	flush_names(name)
	if (kind == "expect") {
		state = "expect"
		next
	}
	state = "wait"
	file = out "/" name (kind == "recipe" ? ".sh" : ".want")
	next
}

state == "expect" {
	if ($0 ~ /^[ \t]+[^ \t]/) {
		line = $0
		sub(/^[ \t]+/, "", line)
		print line > (out "/" name ".expect")
		next
	}
	state = ""
}

# Waiting for the paragraph that ends with "::".
state == "wait" {
	if ($0 ~ /::[ \t]*$/)
		state = "open"
	next
}

# Inside the literal block: indented lines and blank lines, dedented by
# the indentation of its first line.
state == "open" || state == "block" {
	if ($0 ~ /^[ \t]*$/) {
		if (state == "block")
			blanks++
		next
	}
	match($0, /^[ \t]*/)
	if (state == "open") {
		if (RLENGTH == 0) {
			state = ""
			next
		}
		indent = RLENGTH
		state = "block"
		blanks = 0
	} else if (RLENGTH < indent) {
		state = ""
		next
	}
	while (blanks > 0) {
		print "" > file
		blanks--
	}
	print substr($0, indent + 1) > file
}
