#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# kdoc-context.pl FILE... - khist's rule on top of scripts/kernel-doc:
# every non-static function defined at file scope has a kernel-doc comment
# right above it, and that comment has a "Context:" line. Prints one
# "file:line: name(): problem" line per miss; exits 1 if there was one.
#
# A definition is recognised the way kernel style lays it out: it starts
# in column 0 with its return type, and its body's '{' opens a line of its
# own in column 0 after the (possibly wrapped) parameter list.
use strict;
use warnings;

my $rc = 0;

sub miss {
	my ($f, $line, $name, $what) = @_;
	print "$f:$line: $name(): $what\n";
	$rc = 1;
}

for my $f (@ARGV) {
	open(my $fh, '<', $f) or die "$f: $!\n";
	my @l = <$fh>;
	close($fh);
	for (my $i = 0; $i < @l; $i++) {
		next unless $l[$i] =~ /^[A-Za-z_]/;
		# the name line of a return type that has a line of its own
		next if ($i > 0 && $l[$i] =~ /^\w+\s*\(/ &&
			 $l[$i - 1] =~ /^[a-z_][\w\s\*]*$/);
		next if $l[$i] =~ /^(static|typedef|extern|struct\s+\w+\s*\{|enum|union)\b/;
		# upper-case starts are macros (DEFINE_MUTEX(), MODULE_*(), ...)
		next if $l[$i] =~ /^[A-Z_][A-Z0-9_]*\s*\(/;
		my $j = $i;
		# the return type may have a line of its own
		$j++ if ($l[$i] =~ /^[a-z_][\w\s\*]*$/ && $j < $#l &&
			 $l[$j + 1] =~ /^\w+\s*\(/);
		next unless $l[$j] =~ /^[\w\s\*]*?\b(\w+)\s*\(/;
		my $name = $1;
		$j++ while ($j < $#l && $l[$j] !~ /[;{]\s*$/ && $l[$j + 1] !~ /^\{/);
		next unless $j < $#l && $l[$j + 1] =~ /^\{/ && $l[$j] =~ /\)\s*$/;
		# the comment block that ends on the line above
		my $k = $i - 1;
		my $doc = '';
		if ($k >= 0 && $l[$k] =~ /^\s*\*\/\s*$/) {
			$doc = $l[$k--] . $doc while ($k >= 0 && $l[$k] !~ /^\/\*/);
			$doc = $l[$k] . $doc if $k >= 0;
		}
		if ($doc !~ /^\/\*\*\s*$/m) {
			miss($f, $i + 1, $name, 'no kernel-doc comment');
		} elsif ($doc !~ /^\s*\*\s*Context:/m) {
			miss($f, $i + 1, $name, 'kernel-doc has no Context: line');
		}
	}
}
exit $rc;
