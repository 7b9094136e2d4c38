/* SPDX-License-Identifier: GPL-2.0 */
/*
 * inter.h - the inter-event layer of hist triggers: variable references
 * across triggers, field variables, handlers and actions (onmatch, onmax,
 * onchange with trace/synth, save and snapshot).
 *
 * Model
 *
 *   A hist trigger that references variables, or has actions, gets a
 *   struct khist_inter at creation (khist_inter_create(), before its map
 *   exists: the layer adds hidden variables and string slots to the map).
 *   It hangs off the trigger's data (hd->inter) and lives as long as the
 *   data. Only the trigger that created the data runs it.
 *
 *   References: every distinct variable this trigger reads has one slot in
 *   refs[] (the kernel's var_refs[]); a KHIST_BF_VARREF node carries the
 *   slot in ->ref_idx. On a hit the slots of other triggers' variables are
 *   filled first, by looking up this hit's key (truncated or zero-extended
 *   to the other map's key size) in the other trigger's map; if any entry
 *   or variable is missing, the hit is dropped for this trigger. After the
 *   entry is updated, the slots of the trigger's own variables are filled
 *   from the entry, and if they are all set the actions run.
 *
 *   Variable numbers (map variable slots): the trigger's own variables
 *   first (spec->vars), then the hidden ones in creation order: field
 *   variables, __max/__change tracking variables, save() variables.
 *   String slots likewise: spec->n_var_str first, then the hidden ones.
 *   A string or stack variable stores its slot number; readers turn it
 *   into a pointer to the slot (khist_hist_var_str()).
 *
 *   Field variables on another event are kept by a hidden hist trigger on
 *   that event ("keys=<keys of a compatible hist>:synthetic_<f>=<f>"),
 *   created and removed with the owner, as the kernel does.
 *
 * Locking: everything but the per-hit functions runs under
 * khist_event_mutex. The per-hit functions (khist_inter_resolve(),
 * khist_inter_hit()) run in any context and take no lock.
 */
#ifndef _KHIST_HIST_INTER_H
#define _KHIST_HIST_INTER_H

#include "hist.h"
#include "core/hist_eval.h"
#include "core/hist_json.h"

#define KHIST_INTER_REFS_MAX KHIST_MAP_VARS_MAX
#define KHIST_INTER_FVARS_MAX 64 /* kernel: SYNTH_FIELDS_MAX */
#define KHIST_INTER_PARAMS_MAX 64
#define KHIST_INTER_HIDDEN_MAX 64
#define KHIST_INTER_STACKS 2 /* stack params per trace() */

struct khist_synth_event;
struct khist_isnap;

/**
 * struct khist_inter_scope - what a trigger being bound can see
 * @inst: its instance
 * @ev:   its event
 * @cmd:  its parsed command (for the onmatch() events)
 */
struct khist_inter_scope {
	struct khist_instance *inst;
	struct khist_event *ev;
	const struct khist_hist_cmd *cmd;
};

/**
 * struct khist_ivar - a variable as references see it (the kernel's
 * VAR hist_field): where it lives and what it holds
 * @hd:        the data of the trigger that defines it; NULL: the trigger
 *             being created (its data does not exist yet)
 * @idx:       its map variable slot
 * @str_idx:   its string slot, or -1 (it then holds a number, or the
 *             pointer an alias passes on)
 * @name:      its name
 * @type:      its type text ("u64", "pid_t", "char[16]", ...)
 * @size:      its size
 * @is_signed: whether it is signed
 * @flags:     KHIST_HF_* of its value (USECS, TIMESTAMP, STRING,
 *             STACKTRACE, CONST)
 * @constant:  its value, for a constant variable
 */
struct khist_ivar {
	struct khist_hist_data *hd;
	unsigned int idx;
	int str_idx;
	const char *name;
	const char *type;
	u16 size;
	u8 is_signed;
	u32 flags;
	u64 constant;
};

/**
 * struct khist_iref - one reference slot (the kernel's VAR_REF field)
 * @var:       the variable read
 * @read_once: an operand of an expression: reading it unsets it
 * @sys:       system it was qualified with, or NULL
 * @event:     event it was qualified with, or NULL
 */
struct khist_iref {
	struct khist_ivar var;
	u8 read_once;
	const char *sys;
	const char *event;
};

/**
 * struct khist_ifvar - a field variable or a save() variable: the value
 * of a field of this trigger's event kept in a hidden variable
 * @var:  the hidden variable
 * @val:  the field, bound to the event
 * @spec: owns @val
 */
struct khist_ifvar {
	struct khist_ivar var;
	const struct khist_bfield *val;
	struct khist_hist_spec *spec;
};

/**
 * struct khist_iaction - one handler.action
 * @a:          its syntax tree (in the trigger's command)
 * @match_sys:  onmatch(): system
 * @match_ev:   onmatch(): event
 * @se:         trace(): the synthetic event (a reference is held)
 * @n_params:   trace(): parameters (the event's field count)
 * @param_ref:  trace(): the reference slot of each parameter
 * @has_stack:  trace(): a parameter is a stack (passed through a copy)
 * @track_ref:  onmax()/onchange(): the slot of the tracked variable
 * @track:      onmax()/onchange(): the hidden __max/__change variable
 */
struct khist_iaction {
	const struct khist_action *a;
	const char *match_sys;
	const char *match_ev;
	struct khist_synth_event *se;
	unsigned int n_params;
	unsigned int param_ref[KHIST_INTER_PARAMS_MAX];
	bool has_stack;
	unsigned int track_ref;
	struct khist_ivar track;
};

/**
 * struct khist_ihidden - a hidden hist trigger holding a field variable
 * of another event
 * @ev:  its event
 * @hd:  its data (cleared when that data goes, by any path; @ev is
 *       used only while it is set)
 * @cmd: the command that created it ("hist:...")
 */
struct khist_ihidden {
	struct khist_event *ev;
	struct khist_hist_data *hd;
	char *cmd;
};

/**
 * struct khist_inter - the inter-event state of one hist trigger's data
 * @list:       entry in the instance-wide list of registered states
 * @hd:         the data it belongs to (set at registration)
 * @ev:         the event of the trigger that created it
 * @spec:       that trigger's spec
 * @dead:       the data of a trigger it reads variables from went away
 *              (by any path, removal by force included): it never
 *              resolves again (read with READ_ONCE())
 * @n_refs:     reference slots
 * @n_ext:      slots that read other triggers' variables
 * @ext_key:    largest key size among those triggers
 * @refs:       the slots
 * @n_fvars:    field variables
 * @fvars:      field variables (KHIST_INTER_FVARS_MAX)
 * @n_save:     save() variables
 * @save:       save() variables (KHIST_INTER_FVARS_MAX)
 * @n_actions:  handlers
 * @actions:    handlers, in the order written
 * @n_hidden:   hidden hist triggers created for this one
 * @hidden:     those (KHIST_INTER_HIDDEN_MAX)
 * @n_vars:     map variable slots in all (spec->n_vars + hidden ones)
 * @n_str:      string slots in all
 * @snap:       the snapshot() action's conditional snapshot, or NULL
 */
struct khist_inter {
	struct list_head list;
	struct khist_hist_data *hd;
	struct khist_event *ev;
	struct khist_hist_spec *spec;
	int dead;
	unsigned int n_refs;
	unsigned int n_ext;
	unsigned int ext_key;
	struct khist_iref refs[KHIST_INTER_REFS_MAX];
	unsigned int n_fvars;
	struct khist_ifvar *fvars;
	unsigned int n_save;
	struct khist_ifvar *save;
	unsigned int n_actions;
	struct khist_iaction actions[KHIST_ACTIONS_MAX];
	unsigned int n_hidden;
	struct khist_ihidden *hidden;
	unsigned int n_vars;
	unsigned int n_str;
	struct khist_isnap *snap;
};

/**
 * struct khist_inter_pad - per-hit scratch of the inter-event layer (one
 * per nesting level, in the hist pad)
 * @refs:  the reference slots' values
 * @vals:  values passed to a synthetic event
 * @stack: stacks passed to a synthetic event (count word, then frames)
 */
struct khist_inter_pad {
	u64 refs[KHIST_INTER_REFS_MAX];
	u64 vals[KHIST_INTER_PARAMS_MAX];
	unsigned long stack[KHIST_INTER_STACKS][KHIST_STACK_DEPTH + 1];
};

/**
 * struct khist_inter_ctx - a trigger being created, as the layer builds it
 * @ev:    its event
 * @ht:    the trigger
 * @sp:    its spec
 * @ecmd:  the error_log command ("hist:...")
 * @in:    the state being built
 * @scope: lookup scope
 */
struct khist_inter_ctx {
	struct khist_event *ev;
	struct khist_hist_trigger *ht;
	struct khist_hist_spec *sp;
	const char *ecmd;
	struct khist_inter *in;
	struct khist_inter_scope scope;
};

/* inter_ref.c: lookups, reference slots, per-hit resolution, registry */
int khist_inter_lookup(const struct khist_inter_scope *sc, const char *sys,
		       const char *event, const char *var,
		       struct khist_ivar *out);
int khist_inter_bind_find_var(void *ctx, const char *sys, const char *event,
			      const char *var, struct khist_var_info *info);
bool khist_inter_own_var(const struct khist_hist_spec *sp, const char *name,
			 struct khist_ivar *out);
int khist_inter_ref_add(struct khist_inter_ctx *ic, const struct khist_ivar *v,
			const char *sys, const char *event);
int khist_inter_refs_from_spec(struct khist_inter_ctx *ic);
bool khist_inter_ev_defines(struct khist_event *ev, const char *name);
const char *khist_inter_type(const struct khist_inter *in,
			     const struct khist_bfield *f);
void khist_inter_var_from_bf(struct khist_ivar *v, const struct khist_inter *in,
			     const struct khist_bfield *f);
bool khist_inter_resolve(struct khist_inter *in, u8 *key, unsigned int key_size,
			 u64 *vals);
bool khist_inter_resolve_self(struct khist_inter *in, struct khist_map_elt *elt,
			      u64 *vals);
u64 khist_inter_ref_value(const struct khist_eval_ctx *c,
			  const struct khist_bfield *f);
void khist_inter_log(struct khist_inter_ctx *ic, unsigned int code,
		     const char *what);

/* inter_fvar.c: field variables, save() variables, hidden hists */
int khist_inter_field_var(struct khist_inter_ctx *ic, const char *field,
			  bool save, struct khist_ifvar **out);
int khist_inter_other_field_var(struct khist_inter_ctx *ic, const char *sys,
				const char *event, const char *field,
				struct khist_ivar *out);
void khist_inter_fvars_update(struct khist_inter *in, struct khist_ifvar *fv,
			      unsigned int n, struct khist_hist_data *hd,
			      struct khist_map_elt *elt,
			      const struct khist_eval_ctx *c);
void khist_inter_hidden_remove(struct khist_inter *in);
void khist_inter_fvars_free(struct khist_ifvar *fv, unsigned int n);

/* action_create.c: the handlers of a new trigger */
int khist_inter_actions_create(struct khist_inter_ctx *ic);
void khist_inter_actions_release(struct khist_inter *in);

/* action_run.c: handlers on a hit, their output in `hist` */
void khist_inter_actions_run(struct khist_inter *in, struct khist_hist_data *hd,
			     struct khist_map_elt *elt,
			     const struct khist_eval_ctx *c,
			     struct khist_inter_pad *pad);
void khist_inter_print_entry(struct seq_file *m, struct khist_hist_data *hd,
			     struct khist_map_elt *elt);

#define KHIST_INTER_SAVED_TEXT 80

/**
 * struct khist_inter_saved - an entry's onmax()/onchange() records for
 * `hist_json` (khist_inter_json_saved())
 * @rec:   the records
 * @text:  their handler texts, "onmax($lat)"
 * @names: the numeric save() variables, the same for every record
 * @vals:  their values, per record
 */
struct khist_inter_saved {
	struct khist_hjson_saved rec[KHIST_ACTIONS_MAX];
	char text[KHIST_ACTIONS_MAX][KHIST_INTER_SAVED_TEXT];
	const char *names[KHIST_INTER_FVARS_MAX];
	u64 vals[KHIST_ACTIONS_MAX][KHIST_INTER_FVARS_MAX];
};

unsigned int khist_inter_json_saved(struct khist_hist_data *hd,
				    struct khist_map_elt *elt,
				    struct khist_inter_saved *s);

/* action_snap.c: snapshot(), its block in `hist` */
int khist_inter_snap_create(struct khist_inter_ctx *ic,
			    struct khist_iaction *ia, const char *var_str);
void khist_inter_snap_unclaim(struct khist_inter *in);
void khist_inter_snap_free(struct khist_inter *in);
void khist_inter_snap_take(struct khist_inter *in, struct khist_hist_data *hd,
			   struct khist_map_elt *elt, u64 val);
void khist_inter_print_snapshot(struct seq_file *m, struct khist_hist_data *hd);

/* inter.c: life cycle, as hist_cmd.c and hist_data.c call it */
int khist_inter_create(struct khist_event *ev, struct khist_hist_trigger *ht,
		       const char *ecmd, struct khist_inter **out);
void khist_inter_register(struct khist_inter *in, struct khist_hist_data *hd);
void khist_inter_unlist(struct khist_inter *in);
void khist_inter_unlink(struct khist_inter *in);
void khist_inter_data_gone(struct khist_hist_data *hd);
void khist_inter_free(struct khist_inter *in);
bool khist_inter_is_referenced(struct khist_hist_data *hd);
void khist_inter_hit(struct khist_inter *in, struct khist_hist_data *hd,
		     struct khist_map_elt *elt, struct khist_eval_ctx *c,
		     struct khist_inter_pad *pad);

/**
 * struct khist_dbg_field - one field block of `hist_debug` (the kernel's
 * hist_field as its debug code prints it)
 * @flags:     KHIST_HF_*: picks the flag lines and the optional lines
 * @field:     the event field read, or NULL
 * @var_name:  KHIST_HF_VAR: the variable's name
 * @var_idx:   KHIST_HF_VAR: its map variable slot
 * @constant:  KHIST_HF_CONST: the value
 * @ref_idx:   alias or reference: the reference slot
 * @ref:       KHIST_HF_VARREF: the reference
 * @ref_hd:    KHIST_HF_VARREF: the data holding the variable
 * @type:      type text
 * @size:      size
 * @is_signed: sign
 * @log2_sub:  a .log2=k key (khist extension): k, else 0
 */
struct khist_dbg_field {
	u32 flags;
	const char *field;
	const char *var_name;
	unsigned int var_idx;
	u64 constant;
	unsigned int ref_idx;
	const struct khist_iref *ref;
	const void *ref_hd;
	const char *type;
	unsigned int size;
	unsigned int is_signed;
	unsigned int log2_sub;
};

/* hist_debug.c */
__printf(3, 4) void khist_dbg(struct seq_file *m, unsigned int indent,
			      const char *fmt, ...);
void khist_debug_field(struct seq_file *m, const struct khist_dbg_field *d);
void khist_debug_ref(struct khist_dbg_field *d, struct khist_hist_data *hd,
		     unsigned int i);

/* inter_debug.c: the inter-event sections of `hist_debug` */
void khist_inter_debug_show(struct seq_file *m, struct khist_hist_data *hd);

/**
 * struct khist_hist_relog - where the errors of a command khist issues
 * for a user's command go
 * @ev:  the event the user's command was written to
 * @cmd: the user's error_log command
 */
struct khist_hist_relog {
	struct khist_event *ev;
	const char *cmd;
};

/* hist_cmd.c: commands the layer issues itself (hidden hists) */
int khist_hist_cmd_internal(struct khist_event *ev, const char *text,
			    const struct khist_hist_relog *rl);
void khist_hist_log(struct khist_event *ev, const char *cmd, unsigned int code,
		    unsigned int pos);

#endif /* _KHIST_HIST_INTER_H */
