// SPDX-License-Identifier: GPL-2.0
/*
 * readme.c - the README file at the top of the khist tree (instances have
 * none, as in tracefs): a summary of the files and syntax khist offers,
 * which users and ftracetest read. Each section documents something that
 * exists; Documentation/ has the full story.
 */
#include <linux/fs.h>
#include "base/instance.h"
#include "files/files.h"

static const char khist_readme_text[] =
	"khist: ftrace-style histogram triggers, as a module\n"
	"\n"
	"This directory works like /sys/kernel/tracing, and each file here\n"
	"behaves as its namesake in ftrace.\n"
	"\n"
	" Files in this directory:\n"
	"  README\t\t- this text\n"
	"  error_log\t- the last commands that were rejected, with the reason\n"
	"\t\t  and a caret under the offending part;\n"
	"\t\t  'echo > error_log' empties it\n"
	"  events/\t- one directory per event system, one per event below\n"
	"  trace\t\t- the ring buffer in ftrace's text form; '> trace' empties it\n"
	"  trace_pipe\t- a consuming read of the buffer; blocks while it is empty\n"
	"  snapshot\t\t- Like 'trace' but shows the content of the static\n"
	"\t\t\t  snapshot buffer. Read the contents for more\n"
	"\t\t\t  information\n"
	"  trace_marker\t- writes go to the buffer as ftrace/print events\n"
	"  trace_marker_raw\t- a write (a 4-byte id, then bytes) goes to the\n"
	"\t\t  buffer as one ftrace/raw_data event\n"
	"  tracing_on\t- 0 stops writing to the buffer, 1 resumes\n"
	"  buffer_size_kb\t- size of each CPU's buffer, in KiB\n"
	"  current_tracer\t- always nop: khist traces events only\n"
	"  available_tracers\t- the tracers current_tracer accepts: nop\n"
	"  trace_clock\t\t- the clock of the buffer's timestamps: [local]\n"
	"  trace_options\t\t- the options below, 'no' in front when off;\n"
	"\t\t  'echo no<option> > trace_options' clears one\n"
	"  options/\t- one file per option, 0 or 1:\n"
	"\t  record-cmd\t- records save their writer's name (saved_cmdlines)\n"
	"\t  record-tgid\t- records save their writer's tgid (saved_tgids)\n"
	"\t  pause-on-trace\t- reading 'trace' stops recording until closed\n"
	"\t  stacktrace\t- a <stack trace> record follows every recorded event\n"
	"\t  event-fork\t- children of set_event_pid tasks join the list\n"
	"  available_events\t- every event that can be enabled (system:event)\n"
	"  set_event\t- the enabled events; 'echo sys:event >> set_event' enables,\n"
	"\t\t  'echo !sys:event >> set_event' disables, sys:* for a system\n"
	"  set_event_pid\t- record only the events of these pids\n"
	"  set_event_notrace_pid\t- never record the events of these pids\n"
	"  instances/\t- Make sub-buffers with: mkdir instances/foo; each has its\n"
	"\t\t  own buffer, events, triggers and histograms; rmdir removes it\n"
	"  events/enable, events/<system>/enable\t- 0, 1, or X when mixed\n"
	"  events/<system>/<event>/\n"
	"\t  enable\t- 0 or 1 (0*, 1*: attached for triggers)\n"
	"\t  format\t- record layout and print format, as ftrace's\n"
	"\t  id\t- the event id (common_type)\n"
	"\t  filter\t- only record events matching the filter; 0 clears\n"
	"\t  trigger\t- triggers on the event; hist\t- its histograms\n"
	"\t    <trigger>[:count] [if <filter>], or !<trigger> to remove it, where\n"
	"\t   trigger: traceon, traceoff\n"
	"\t            enable_event:<system>:<event>\n"
	"\t            disable_event:<system>:<event>\n"
	"\t            enable_hist:<system>:<event>\n"
	"\t            disable_hist:<system>:<event>\n"
	"\t\t    stacktrace\n"
	"\t\t    snapshot\n"
	"\t\t    hist\n"
	"\t   example: echo 'traceoff:3 if prev_pid == 1' > \\\n"
	"\t                  events/sched/sched_switch/trigger\n"
	"\t   With a count, traceon/traceoff and enable_event/disable_event\n"
	"\t    only count the hits that change something.\n"
	"\t   The count and filter may be left out of a removal.\n"
	"  dynamic_events\t\t- add, remove and list dynamic events, one per line:\n"
	"\t    s:[synthetic/]<event> <field> [<field>]  defines a synthetic event\n"
	"\t    e[:[<group>/][<event>]] <attached-group>.<attached-event> [<args>] [if <filter>]\n"
	"\t\t  defines an event probe: a record of <args> at each hit of\n"
	"\t\t  the attached event that passes <filter> (group: eprobes)\n"
	"\t    p[:[<group>/][<event>]] <place> [<args>]  defines a kprobe\n"
	"\t    r[maxactive][:[<group>/][<event>]] <place> [<args>]  defines a\n"
	"\t\t  kretprobe (maxactive: returns pending at once, at most 4096)\n"
	"\t\t  (group: kprobes; as uprobes with a <path>:<offset> place)\n"
	"\t    -:[<group>/][<event>]  removes one\n"
	"\t    u:<event> [<type> <field>[;<type> <field>]...]  defines a\n"
	"\t\t  persistent user event (user_events_data; group: user_events)\n"
	"\t  a <field> is '<type> <name>;', <type> being u8..u64, s8..s64, pid_t,\n"
	"\t  bool, gfp_t, [unsigned] char/int/long, char[N], char[] or long[]\n"
	"\t  an event probe's <arg> is [<name>=]<fetcharg>[:<type>]:\n"
	"\t fetcharg: $<efield> (a field of the attached event), $comm,\n"
	"\t           @<address>, +|-[u]<offset>(<fetcharg>), \\imm-value,\n"
	"\t           \\\"imm-string\"\n"
	"\t     type: u8/16/32/64, s8/16/32/64, x8/16/32/64, char, symbol,\n"
	"\t           string, ustring, symstr, <type>\\[<array-size>\\],\n"
	"\t           b<bit-width>@<bit-offset>/<container-size>\n"
	"\t    place: [<module>:]<symbol>[+<offset>] (in a function) or <memaddr>\n"
	"\t    place (kretprobe): [<module>:]<symbol>[+<offset>]%return also\n"
	"\t\t  makes a kretprobe of a p line\n"
	"\t    place (uprobe): <path>:<offset>[%return][(ref_ctr_offset)]\n"
	"\t  a probe's <arg> is [<name>=]<fetcharg>[:<type>]:\n"
	"\t fetcharg: %<register>, $arg<N> (argument N at a function's entry),\n"
	"\t           $retval, $comm, $stack, $stack<index>, @<address>,\n"
	"\t           @<symbol>[+|-<offset>], +|-[u]<offset>(<fetcharg>),\n"
	"\t           \\imm-value, \\\"imm-string\"\n"
	"\t     type: those of event probes (above)\n"
	"\t  kernel return probes support: $retval, $arg<N> (kept from the\n"
	"\t  function's entry), $comm\n"
	"  kprobe_events\t\t- the kprobes and kretprobes of dynamic_events\n"
	"\t  (the same p and r lines, without a <path>)\n"
	"  kprobe_profile\t- per kprobe: its hits and its misses\n"
	"  uprobe_events\t\t- the uprobes of dynamic_events\n"
	"  uprobe_profile\t- per uprobe: its file, its hits\n"
	"  synthetic_events\t- the same events, without the s: prefix; e.g.\n"
	"\t  echo 'myevent u64 lat; char name[]; long[] stack' >> synthetic_events\n"
	"\n"
	" Hist triggers, written to an event's trigger file:\n"
	"  hist:keys=<field1[,field2,...]>[:values=<field1[,field2,...]>]\n"
	"\t[:<var1>=<field|var_ref|numeric_literal>[,<var2>=...]]\n"
	"\t[:sort=<field1[.descending|.ascending][,field2...]>]\n"
	"\t[:size=#entries][:pause][:continue][:clear][:name=histname1]\n"
	"\t[:nohitcount][:clock=<clock>] [if <filter>]\n"
	"\t  '!hist:keys=...' removes one; '>' on 'trigger' removes all.\n"
	"\t  A key can be any field, or the special string 'common_stacktrace'\n"
	"\t  (and common_pid, common_cpu, common_timestamp). A variable is a\n"
	"\t  field, a $reference, a number, or + - * / of them.\n"
	"\t  Field modifiers: .hex .sym .sym-offset .execname .syscall\n"
	"\t  .log2 .buckets=<size> .usecs .percent .graph\n"
	"\t  Values also take .stats and .quantiles (khist); sort= then takes\n"
	"\t  a figure they print: <val>.count/.min/.mean/.max/.stddev, or\n"
	"\t  <val>.p50/.p90/.p99/.p99.9/.max (e.g. sort=lat.p99.descending)\n"
	"\t  The hist file shows each hist trigger's table.\n"
	"\t  <handler>.<action> runs each time an entry is added or updated:\n"
	"\t    onmatch(system.event)\t- when the $references were all found\n"
	"\t    onmax(var)\t\t- when $var exceeds the entry's maximum\n"
	"\t    onchange(var)\t- when $var differs from its last value\n"
	"\t  with the actions\n"
	"\t    trace(<synthetic_event>,param list)  - fire a synthetic event;\n"
	"\t\t<synthetic_event>(param list) is the same\n"
	"\t    save(field,...)\t- keep those fields of the event in the entry\n"
	"\t    snapshot()\t\t- snapshot the trace buffer (onmax/onchange)\n"
	"\n"
	" Mount options:\n"
	"\t e.g. mount -t khist [-o [gid=<gid>]] nodev /sys/kernel/khist\n"
	"  gid=<gid>\t- the group that may use these files (default: root)\n"
	"  uid=<uid>\t- the owner of these files (default: root)\n"
	"  mode=<octal>\t- the mode of this directory (default: 0750)\n"
	"\t  chown/chgrp of a file or directory holds until a remount\n"
	"\t  gives uid=/gid= again\n";

static ssize_t khist_readme_read(struct file *file, char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	return simple_read_from_buffer(ubuf, count, ppos, khist_readme_text,
				       sizeof(khist_readme_text) - 1);
}

static const struct file_operations khist_readme_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = khist_readme_read,
	.llseek = default_llseek,
};

/**
 * khist_readme_create() - add the README file to an instance
 * @inst: the instance
 *
 * Context: process context.
 * Return: 0 or -errno.
 */
int khist_readme_create(struct khist_instance *inst)
{
	struct khist_node *node;

	/* Static text: the node needs no data, so holds no reference. */
	node = khist_fs_create_file(inst->dir, "README", KHIST_MODE_READ,
				    &khist_readme_fops, NULL);
	return PTR_ERR_OR_ZERO(node);
}
