// SPDX-License-Identifier: GPL-2.0
/*
 * evfilter.c - event filters bound to khist events (see evfilter.h).
 */
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/kstrtox.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>
#include "base/instance.h"
#include "events.h"
#include "evfilter.h"
#include "core/filter_eval.h"
#include "core/hist_errors.h"
#include "mem/mem.h"

/* Nesting levels: task, softirq, hardirq, NMI. */
#define KHIST_EVF_LEVELS 4

/**
 * struct khist_evf_scratch - per-CPU string scratch for char * fields
 * @depth: evaluations in progress on this CPU (one per context level)
 * @buf:   one buffer per level
 */
struct khist_evf_scratch {
	int depth;
	char buf[KHIST_EVF_LEVELS][KHIST_FILTER_STRBUF];
};

static struct khist_evf_scratch __percpu *khist_evf_scratch;

/* Copy a NUL-terminated string without faulting; a short read is fine. */
static long khist_evf_fetch(void *priv, char *dst, unsigned long src,
			    size_t size, bool user)
{
	size_t done = 0, chunk;
	unsigned long from;
	char *to;
	long ret;

	if (!size)
		return -EINVAL;
	/* Copy in small steps so that a string near a hole still reads. */
	while (done < size - 1) {
		from = src + done;
		to = dst + done;
		chunk = min_t(size_t, 64 - (from & 63), size - 1 - done);
		if (user)
			ret = copy_from_user_nofault(to, (void __user *)from,
						     chunk);
		else
			ret = copy_from_kernel_nofault(to, (void *)from, chunk);
		if (ret) {
			if (!done)
				return -EFAULT;
			break;
		}
		if (memchr(dst + done, '\0', chunk))
			return 0;
		done += chunk;
	}
	dst[done] = '\0';
	return 0;
}

/*
 * Address range of the function around @addr, from the "+off/size" part of
 * sprint_symbol()'s text (kallsyms_lookup_size_offset() is not exported).
 */
static int khist_evf_sym_range(unsigned long addr, unsigned long *start,
			       unsigned long *end)
{
	char buf[KSYM_SYMBOL_LEN], *plus, *slash, *sp;
	unsigned long off, size;

	sprint_symbol(buf, addr);
	plus = strrchr(buf, '+');
	if (!plus)
		return -ENOENT;
	sp = strchr(plus, ' ');
	if (sp)
		*sp = '\0';
	slash = strchr(plus, '/');
	if (!slash)
		return -ENOENT;
	*slash = '\0';
	if (kstrtoul(plus + 1, 0, &off) || kstrtoul(slash + 1, 0, &size) ||
	    !size || off > addr)
		return -ENOENT;
	*start = addr - off;
	*end = *start + size;
	return 0;
}

/*
 * Address of a function by name. kallsyms_lookup_name() is not exported;
 * a kprobe registered by symbol name resolves it (and is removed at once).
 * Functions kprobes refuse (the kprobe blacklist) are not found.
 */
static unsigned long khist_evf_lookup(const char *name)
{
	struct kprobe kp = { .symbol_name = name };
	unsigned long addr;

	if (register_kprobe(&kp))
		return 0;
	addr = (unsigned long)kp.addr;
	unregister_kprobe(&kp);
	return addr;
}

static int khist_evf_func_range(void *priv, const char *name,
				unsigned long addr, unsigned long *start,
				unsigned long *end)
{
	if (name) {
		addr = khist_evf_lookup(name);
		if (!addr)
			return -ENOENT;
	}
	return khist_evf_sym_range(addr, start, end);
}

/* What a compiled filter is charged: its parts, as allocated. */
static u64 khist_evfilter_charge(const struct khist_filter *f)
{
	u64 bytes = sizeof(*f) + f->text_len + 1;
	unsigned int i;

	bytes += (u64)f->nr_preds * sizeof(*f->preds);
	if (f->fast)
		bytes += (u64)f->nr_preds * sizeof(*f->fast);
	for (i = 0; f->preds && i < f->nr_preds; i++) {
		if (f->preds[i].pat)
			bytes += f->preds[i].pat_len + 1;
		if (f->preds[i].mask)
			bytes += BITS_TO_LONGS(f->nr_cpus) * sizeof(long);
	}
	return bytes;
}

/**
 * khist_evfilter_compile() - compile a filter for an event
 * @inst: instance whose error_log gets the error (NULL: top level)
 * @ev:   the event the filter reads
 * @text: the filter text (trailing blanks already removed)
 * @len:  its length
 * @out:  the compiled filter, on success
 * @err:  where the error is, on failure (may be NULL)
 *
 * On failure the error goes to @inst's error_log the way ftrace logs it
 * ("event filter parse error", the filter text, the caret).
 *
 * Context: process context; may sleep.
 * Return: 0, or the negative errno ftrace returns for this error.
 */
int khist_evfilter_compile(struct khist_instance *inst, struct khist_event *ev,
			   const char *text, size_t len,
			   struct khist_filter **out,
			   struct khist_filter_error *err)
{
	struct khist_filter_opts opts = {
		.nr_cpus = nr_cpu_ids,
		.func_range = khist_evf_func_range,
	};
	const char *mem_msg = khist_hist_err_text(KHIST_HERR_MEM_LIMIT);
	struct khist_filter_error e = {};
	char *cmd;
	int ret;

	*out = NULL;
	ret = khist_filter_compile(&ev->schema, text, len, &opts, out, &e);
	if (!ret) {
		ret = khist_mem_charge(khist_evfilter_charge(*out));
		if (!ret) {
			if (err)
				*err = e;
			return 0;
		}
		khist_filter_free(*out);
		*out = NULL;
		/* The filter file then shows "Error: (-28)", not "(0)". */
		e.ret = ret;
	}
	if (err)
		*err = e;
	cmd = kmemdup_nul(text, len, GFP_KERNEL);
	if (cmd) {
		if (ret == -ENOSPC)
			khist_error_report(inst, "event filter", mem_msg, cmd,
					   0);
		else
			khist_error_report(inst, "event filter parse error",
					   khist_filter_errlog_msg(&e), cmd,
					   khist_filter_errlog_pos(&e));
		kfree(cmd);
	}
	return ret;
}

/**
 * khist_evfilter_match_general() - khist_evfilter_match() by the general
 * evaluator
 * @f:    the filter
 * @rec:  the record, common header first
 * @size: its size in bytes
 *
 * Context: any (NMI included), preemption disabled.
 * Return: true when the record passes.
 */
bool khist_evfilter_match_general(const struct khist_filter *f, const void *rec,
				  unsigned int size)
{
	struct khist_filter_ctx ctx = {
		.cpu = smp_processor_id(),
		.comm = current->comm,
		.fetch_str = khist_evf_fetch,
	};
	int depth;
	bool ret;

	/* Most filters only compare fields of the record. */
	if (f->no_ctx)
		return khist_filter_match(f, rec, size, NULL);
	depth = this_cpu_inc_return(khist_evf_scratch->depth) - 1;
	if (depth < KHIST_EVF_LEVELS)
		ctx.strbuf = this_cpu_ptr(khist_evf_scratch)->buf[depth];
	/* Deeper nesting has no buffer: char * predicates then fail. */
	ret = khist_filter_match(f, rec, size, &ctx);
	this_cpu_dec(khist_evf_scratch->depth);
	return ret;
}

/**
 * khist_evfilter_free() - free a filter no probe can see any more
 * @f: the filter, or NULL
 *
 * Context: process context.
 */
void khist_evfilter_free(struct khist_filter *f)
{
	u64 charge;

	if (!f)
		return;
	charge = khist_evfilter_charge(f);
	khist_filter_free(f);
	khist_mem_uncharge(charge);
}

/**
 * khist_evfilter_set() - what a write to an event's `filter` file does
 * @ev:   the event
 * @text: what was written (NUL-terminated)
 * @len:  its length
 *
 * "0" removes the filter. Otherwise the text is compiled; on success it
 * replaces the event's filter. On failure, like ftrace, the event is left
 * unfiltered and the `filter` file shows the text with a caret and the
 * error message.
 *
 * Context: process context, khist_event_mutex held; may sleep.
 * Return: 0 or the negative errno of the failure.
 */
int khist_evfilter_set(struct khist_event *ev, const char *text, size_t len)
{
	struct khist_filter *f = NULL, *old;
	struct khist_filter_error err;
	char *shown = NULL;
	int ret = 0;
	size_t n;

	len = khist_filter_trim(text, len);
	if (!khist_filter_is_clear(text, len)) {
		ret = khist_evfilter_compile(ev->inst, ev, text, len, &f, &err);
		if (ret) {
			/* Text, caret line and message: 2 * len + 128 fits. */
			n = 2 * len + 128;
			shown = kmalloc(n, GFP_KERNEL);
			if (shown)
				khist_filter_format_failed(text, len, &err,
							   shown, n);
		} else {
			shown = kmemdup_nul(text, len, GFP_KERNEL);
			if (!shown) {
				khist_evfilter_free(f);
				return -ENOMEM;
			}
		}
	}
	old = rcu_replace_pointer(ev->filter, f,
				  lockdep_is_held(&khist_event_mutex));
	kfree(ev->filter_text);
	ev->filter_text = shown;
	if (old) {
		/* Probes read the filter with preemption disabled. */
		tracepoint_synchronize_unregister();
		khist_evfilter_free(old);
	}
	return ret;
}

/**
 * khist_evfilter_init() - allocate the per-CPU scratch buffers
 *
 * Context: process context (module init).
 * Return: 0 or -ENOMEM.
 */
int khist_evfilter_init(void)
{
	khist_evf_scratch = alloc_percpu(struct khist_evf_scratch);
	return khist_evf_scratch ? 0 : -ENOMEM;
}

/**
 * khist_evfilter_exit() - free the scratch buffers
 *
 * Context: process context (module exit), after every probe is gone.
 */
void khist_evfilter_exit(void)
{
	free_percpu(khist_evf_scratch);
	khist_evf_scratch = NULL;
}
