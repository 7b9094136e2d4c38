// SPDX-License-Identifier: GPL-2.0
/*
 * khist_test_synth.c - drives khist's synthetic event API from a module,
 * for the tests: /sys/kernel/debug/khist_test_synth/ctl takes one command
 * per write.
 *
 *   create NAME TYPE FIELD[; ...]   khist_synth_create_cmd()
 *   createf NAME TYPE:FIELD ...     khist_synth_create() (field list)
 *   delete NAME                     khist_synth_delete()
 *   get NAME / put NAME             take / drop a reference (held here)
 *   fire NAME V...                  fire once from process context
 *   fireidx NAME V...               the same through khist_synth_trace_idx()
 *   irq NAME V...                   fire once from a hard interrupt
 *   repeat N NAME V...              fire N times
 *   info NAME                       reading ctl then shows the fields
 *
 * Values: numbers (decimal, 0x hex, negative), words for string fields
 * ("@null" passes a NULL pointer, "@bad" an unmapped address), and for
 * stack fields "@stack" (the current stack), "@none" (zero frames) or
 * "@addr" (a text address, then one that is no symbol).
 * Each command fails with the API's error.
 */
#include <linux/debugfs.h>
#include <linux/irq_work.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/stacktrace.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <khist/synth.h>

#define KTS_MAX_HELD 8
#define KTS_STACK 16

static DEFINE_MUTEX(kts_lock);
static struct dentry *kts_dir;
static struct khist_synth_event *kts_held[KTS_MAX_HELD];
static char kts_info[2048];
/* Events this module created: it must remove them before it goes. */
static char *kts_created[KTS_MAX_HELD];

/* One pending fire, built in process context, run by kts_irq_work. */
static struct {
	struct khist_synth_event *se;
	u64 vals[KHIST_SYNTH_FIELDS_MAX];
	unsigned int n;
	int ret;
} kts_pending;

static char kts_words[1024];
static unsigned long kts_stack[KTS_STACK + 1];

static void kts_irq_fire(struct irq_work *w)
{
	kts_pending.ret = khist_synth_trace(kts_pending.se, kts_pending.vals,
					    kts_pending.n);
}

/* A hard interrupt even on PREEMPT_RT, where plain irq_work is threaded. */
static struct irq_work kts_irq_work = IRQ_WORK_INIT_HARD(kts_irq_fire);

/* Parse the values of @se from the words in @args (modified). */
static int kts_values(struct khist_synth_event *se, char *args, u64 *vals,
		      unsigned int *n)
{
	const struct khist_synth_field *f;
	unsigned int i = 0;
	char *w;
	s64 sv;
	int ret;

	while ((w = strsep(&args, " \t")) != NULL) {
		if (!*w)
			continue;
		if (i == KHIST_SYNTH_FIELDS_MAX)
			return -E2BIG;
		f = khist_synth_field(se, i);
		if (f && f->is_stack) {
			kts_stack[0] = 0;
			if (!strcmp(w, "@stack")) {
				kts_stack[0] = stack_trace_save(kts_stack + 1,
								KTS_STACK, 0);
			} else if (!strcmp(w, "@addr")) {
				kts_stack[1] = (unsigned long)kts_values;
				kts_stack[2] = (unsigned long)current;
				kts_stack[0] = 2;
			}
			vals[i++] = (unsigned long)kts_stack;
		} else if (f && f->is_string) {
			if (!strcmp(w, "@null"))
				vals[i++] = 0;
			else if (!strcmp(w, "@bad"))
				vals[i++] = 0x10;
			else
				vals[i++] = (unsigned long)w;
		} else {
			ret = *w == '-' ? kstrtos64(w, 0, &sv) :
					  kstrtou64(w, 0, &vals[i]);
			if (ret)
				return ret;
			if (*w == '-')
				vals[i] = sv;
			i++;
		}
	}
	*n = i;
	return 0;
}

/* Fire through an index map: the values stored in reverse order. */
static int kts_fire_idx(struct khist_synth_event *se)
{
	static u64 rev[KHIST_SYNTH_FIELDS_MAX];
	static unsigned int idx[KHIST_SYNTH_FIELDS_MAX];
	unsigned int i, n = kts_pending.n;

	for (i = 0; i < n; i++) {
		rev[n - 1 - i] = kts_pending.vals[i];
		idx[i] = n - 1 - i;
	}
	return khist_synth_trace_idx(se, rev, idx, n);
}

static int kts_fire(char *args, unsigned int times, bool irq)
{
	struct khist_synth_event *se;
	char *name = strsep(&args, " \t");
	int ret;

	se = khist_synth_get(name);
	if (!se)
		return -ENOENT;
	strscpy(kts_words, args ? args : "", sizeof(kts_words));
	ret = kts_values(se, kts_words, kts_pending.vals, &kts_pending.n);
	if (ret)
		goto out;
	if (irq) {
		kts_pending.se = se;
		kts_pending.ret = -EINPROGRESS;
		irq_work_queue(&kts_irq_work);
		irq_work_sync(&kts_irq_work);
		ret = kts_pending.ret;
		goto out;
	}
	if (!times) {
		ret = kts_fire_idx(se);
		goto out;
	}
	while (times--) {
		ret = khist_synth_trace(se, kts_pending.vals, kts_pending.n);
		if (ret)
			break;
		cond_resched();
	}
out:
	khist_synth_put(se);
	return ret;
}

static int kts_hold(const char *name, bool get)
{
	unsigned int i;

	for (i = 0; i < KTS_MAX_HELD; i++) {
		if (get && !kts_held[i]) {
			kts_held[i] = khist_synth_get(name);
			return kts_held[i] ? 0 : -ENOENT;
		}
		if (!get && kts_held[i] &&
		    !strcmp(khist_synth_name(kts_held[i]), name)) {
			khist_synth_put(kts_held[i]);
			kts_held[i] = NULL;
			return 0;
		}
	}
	return get ? -ENOSPC : -ENOENT;
}

static void kts_created_add(const char *cmd)
{
	unsigned int i;
	size_t len;

	cmd = skip_spaces(cmd);
	len = strcspn(cmd, " \t");
	for (i = 0; i < KTS_MAX_HELD; i++) {
		if (!kts_created[i]) {
			kts_created[i] = kstrndup(cmd, len, GFP_KERNEL);
			return;
		}
	}
}

static int kts_createf(char *args)
{
	struct khist_synth_field_spec *spec;
	char *name = strsep(&args, " "), *w, *colon;
	unsigned int n = 0;
	int ret;

	spec = kcalloc(KHIST_SYNTH_FIELDS_MAX, sizeof(*spec), GFP_KERNEL);
	if (!spec)
		return -ENOMEM;
	while ((w = strsep(&args, " ")) != NULL) {
		colon = strchr(w, ':');
		ret = -EINVAL;
		if (!colon || n == KHIST_SYNTH_FIELDS_MAX)
			goto out;
		*colon = '\0';
		spec[n].type = w;
		spec[n].name = colon + 1;
		n++;
	}
	ret = khist_synth_create(name, spec, n, THIS_MODULE);
	if (!ret)
		kts_created_add(name);
out:
	kfree(spec);
	return ret;
}

static int kts_info_fill(const char *name)
{
	struct khist_synth_event *se = khist_synth_get(name);
	const struct khist_synth_field *f;
	unsigned int i, len = 0;

	if (!se)
		return -ENOENT;
	len = scnprintf(kts_info, sizeof(kts_info), "%s %u\n",
			khist_synth_name(se), khist_synth_nr_fields(se));
	for (i = 0; (f = khist_synth_field(se, i)); i++)
		len += scnprintf(kts_info + len, sizeof(kts_info) - len,
				 "%s %s %u %d %d %d %d\n", f->name, f->type,
				 f->size, f->is_signed, f->is_string,
				 f->is_dynamic, f->is_stack);
	khist_synth_put(se);
	return 0;
}

static int kts_command(char *cmd)
{
	char *op = strsep(&cmd, " "), *rest = cmd ? cmd : "";
	unsigned int times;
	char *num;
	int ret;

	if (!strcmp(op, "create")) {
		ret = khist_synth_create_cmd(rest, THIS_MODULE);
		if (!ret)
			kts_created_add(rest);
		return ret;
	}
	if (!strcmp(op, "createf"))
		return kts_createf(rest);
	if (!strcmp(op, "delete"))
		return khist_synth_delete(rest);
	if (!strcmp(op, "get") || !strcmp(op, "put"))
		return kts_hold(rest, op[0] == 'g');
	if (!strcmp(op, "fire"))
		return kts_fire(rest, 1, false);
	if (!strcmp(op, "fireidx"))
		return kts_fire(rest, 0, false);
	if (!strcmp(op, "irq"))
		return kts_fire(rest, 1, true);
	if (!strcmp(op, "info"))
		return kts_info_fill(rest);
	if (!strcmp(op, "repeat")) {
		num = strsep(&rest, " ");
		if (!rest || kstrtouint(num, 0, &times))
			return -EINVAL;
		return kts_fire(rest, times, false);
	}
	return -EINVAL;
}

static ssize_t kts_ctl_write(struct file *file, const char __user *ubuf,
			     size_t cnt, loff_t *ppos)
{
	char *buf;
	int ret;

	if (cnt >= PAGE_SIZE)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, cnt);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	mutex_lock(&kts_lock);
	ret = kts_command(strim(buf));
	mutex_unlock(&kts_lock);
	kfree(buf);
	return ret ? ret : cnt;
}

static ssize_t kts_ctl_read(struct file *file, char __user *ubuf, size_t cnt,
			    loff_t *ppos)
{
	ssize_t ret;

	mutex_lock(&kts_lock);
	ret = simple_read_from_buffer(ubuf, cnt, ppos, kts_info,
				      strlen(kts_info));
	mutex_unlock(&kts_lock);
	return ret;
}

static const struct file_operations kts_ctl_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = kts_ctl_read,
	.write = kts_ctl_write,
};

static int __init kts_init(void)
{
	kts_dir = debugfs_create_dir("khist_test_synth", NULL);
	debugfs_create_file("ctl", 0600, kts_dir, NULL, &kts_ctl_fops);
	return 0;
}

static void __exit kts_exit(void)
{
	unsigned int i;

	debugfs_remove(kts_dir);
	for (i = 0; i < KTS_MAX_HELD; i++)
		khist_synth_put(kts_held[i]);
	/* Nothing can hold them: using one pins this module. */
	for (i = 0; i < KTS_MAX_HELD; i++) {
		if (kts_created[i])
			khist_synth_delete(kts_created[i]);
		kfree(kts_created[i]);
	}
}

module_init(kts_init);
module_exit(kts_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("khist test driver for the synthetic event API");
