/*
 * prop_internal.h - the state of one propagation pass (struct sli_prop,
 * which owns every table and cache of the pass) and the functions the
 * parts of propagation share: the pass (driver.c), the index (index.c),
 * where shardings live (shardings.c, intern.c), the worklist
 * (worklist.c), a step (step.c, rule.c), edges (edges.c), function and
 * computation boundaries (boundary.c), sharding groups (groups.c), the
 * strategies and the debug hooks (debug.c).  Tables indexed by op id
 * (pre-order position) and value id are rebuilt by sli_prop_index
 * whenever the IR changes shape.
 */
#ifndef SL_PROPAGATION_PROP_INTERNAL_H
#define SL_PROPAGATION_PROP_INTERNAL_H

#include "ir/rewrite.h"
#include "propagation/propagation.h"
#include "util/hash.h"

#include <string.h>

typedef struct sli_prop_mesh {
	sl_sym name;
	sl_mesh *mesh;
} sli_prop_mesh;

typedef struct sli_prop_debug sli_prop_debug;

/*
 * A use of a value in the pass's use lists: the user's op id and the
 * value's use before this one (SLI_NO_USE for its first).  Waking the
 * users of a value needs their ids, not the ops themselves; the index
 * links the uses as its one walk over the ops meets them, so that they
 * need no second walk to be grouped by value.  The operand number is
 * kept apart (sli_prop_use_operand), for the few users that need it.
 */
typedef struct sli_prop_use {
	uint32_t op;
	uint32_t prev;
} sli_prop_use;

/* The operand number of use `use` (sli_prop.use_operands). */
typedef struct sli_prop_operand_no {
	uint32_t use;
	uint32_t operand;
} sli_prop_operand_no;

enum { SLI_NO_USE = UINT32_MAX };

/* sli_prop.parent of an op directly in a module (or the module itself) */
enum { SLI_NO_PARENT = UINT32_MAX };

/* Bits of sli_prop.opclass set at indexing (below them, the op-priority
 * traits of op_priority_propagate.c). */
enum {
	SLI_OPCLASS_PRIO = 0x1f,
	SLI_OPCLASS_ATTRS = 0x20,	/* may hold shardings or a rule (index.c) */
	SLI_OPCLASS_GENERIC = 0x40,	/* visited by the generic handler */
	SLI_OPCLASS_NO_STEP = 0x80	/* generic, without a rule: never steps */
};

struct sli_prop {
	sl_module *m;
	sl_context *ctx;
	const sli_prop_opts *o;
	sli_arena scratch;		/* reset after every step */
	bool failed;

	sli_arena tabmem;		/* quiet, stack, queued, group */
	sl_op **ops;			/* pre-order; op->id is the position */
	uint32_t nops;
	/*
	 * per op: the id of the op whose region holds it, SLI_NO_PARENT at
	 * a module's top level, so that the worklist wakes an op and the
	 * ops around it without touching them (one miss to memory each on
	 * a big module)
	 */
	uint32_t *parent;
	/* values are numbered 1 .. nvalues - 1 in pre-order (value->id;
	 * sli_prop_indexed), and per-value tables have nvalues entries */
	uint32_t nvalues;
	uint32_t *use_last;		/* per value: its last use in uses, or SLI_NO_USE */
	sli_prop_use *uses;		/* textual order */
	/* the operand numbers of the uses by sli_prop_operand_user ops, by
	 * use (so in textual order too) */
	sli_prop_operand_no *use_operands;
	uint32_t nuse_operands;
	sl_op **edge;			/* per value: data_flow_edge holding its sharding;
					 * NULL when the module has none (sli_prop_edge) */
	int32_t *group;			/* per value: group index, -1 if none;
					 * NULL when there are no groups */
	/* per op: 0 when its rule was not looked up yet, else 1 + its place
	 * in rule_list (half the bytes of a pointer a op) */
	uint32_t *rules;
	/* the rules ops have (in rulemem, or shared), or P->no_rule */
	SL_VEC(const sl_rule *) rule_list;
	const sl_rule *no_rule;
	sli_arena rulemem;
	/* identity rules by type and arity (identity_entry, rule.c; rulemem) */
	sli_htab idrules;
	/* ops whose rule was built, by name, types and attributes (rule_slot) */
	sli_htab rule_reps;
	/* per op (functions): callers, NULL-terminated; NULL when the
	 * module has no calls (sli_prop_callers), so that no pass over
	 * a table of nothing frees it */
	sl_op ***calls;
	uint64_t *sig;			/* per op: inputs of its last step that changed nothing */
	/* per op: op-priority traits (op_priority_propagate.c), and SLI_OPCLASS_* */
	uint8_t *opclass;
	sl_op *bad_shape;		/* the first op with a result of a shape
					 * propagation rejects, or NULL */
	/* per value: its sharding as sli_prop_get found it, or P->unloaded,
	 * or where else to find it (shardings.c); sli_prop_set keeps it
	 * current (computations' block arguments and results are not cached) */
	const sl_sharding **cur;
	const sl_sharding *unloaded;
	/* per op: the sdy.sharding attribute sli_prop_set made for it, which
	 * nothing else refers to and later sets may update in place; NULL
	 * until the first is made (only ops of several results get one) */
	sl_attr **own;
	/*
	 * per op: nonzero when a generic step would change nothing (step_sig
	 * matches): QUIET_ALWAYS, or the directions and strategy it holds
	 * for (quiet_key).  sli_prop_set clears the flags of every op that
	 * sees the value it writes.
	 */
	uint8_t *quiet;

	SL_VEC(sl_value **) groups;	/* members per group, in id order */
	SL_VEC(uint32_t) group_sizes;

	sli_prop_mesh *meshes;
	uint32_t nmeshes;
	sl_op *main_func;

	/* worklist: a stack with membership flags */
	uint32_t *stack;		/* op ids */
	uint32_t nstack;
	uint8_t *queued;
	sl_op *current;

	/* back-projected shardings, hash-consed (module arena; never mutated) */
	sli_htab interned;
	/* one-entry sdy.sharding lists by their sharding (spv1_entry,
	 * shardings.c; memomem) */
	sli_htab spv1;

	/* outcomes of steps by their inputs (step_memo, step.c) */
	sli_htab memo;
	/* directions of steps by rule (dirs_entry, step.c) */
	sli_htab dirs_cache;
	sli_arena memomem;			/* memo, dirs_cache and spv1 entries */

	int level;			/* op-priority level, -1 for none */
	/*
	 * sli_op_priority_dirs at level prio_level by op class (C_* bits of
	 * opclass): 0 when not computed yet, else 1 + pass_through * 4 + other
	 */
	uint8_t prio_dirs[32];
	int prio_level;
	bool aggressive;		/* factor propagation of the current run */
	sli_rule_opts ropts;
	sli_prop_debug *debug;
};

/* ====================================================================
 * The pass (driver.c) and op priorities (op_priority_propagate.c)
 * ==================================================================== */

/* Whether op is element-wise for propagation (spec 4.3). */
bool sli_prop_elementwise(const sl_op *op);
/*
 * The directions op-priority level `level` gives (spec 5.2) to the
 * pass-through factors of op's attached rule and to its other factors.
 */
void sli_op_priority_dirs(sli_prop *P, const sl_op *op, int level, uint8_t *pass_through,
                          uint8_t *other);
/* sli_op_priority_dirs of an op of class k (sli_op_priority_class). */
void sli_op_priority_dirs_class(sli_prop *P, uint8_t k, int level, uint8_t *pass_through,
                                uint8_t *other);
/* The op-priority class of op (its traits; nonzero). */
uint8_t sli_op_priority_class(sli_prop *P, const sl_op *op);
/*
 * For the index, which counts the uses while it classifies the ops: op's
 * class without the trait that needs the use counts; whether a class
 * depends on them; the class of such an op one of whose operands has
 * more than one use and is not sli_op_priority_scalar.
 */
uint8_t sli_op_priority_class_early(const sl_op *op);
bool sli_op_priority_counts(uint8_t k);
uint8_t sli_op_priority_class_multi(uint8_t k);
/* Whether v is a rank-0 tensor (its uses do not count). */
bool sli_op_priority_scalar(const sl_value *v);
/*
 * Whether no factor of an op of class k may move at `level` whatever its
 * rule, so that the rule need not be built yet.
 */
bool sli_op_priority_idle_class(uint8_t k, int level);

/* ====================================================================
 * The index (index.c)
 * ==================================================================== */

/* (Re)builds the op, value, use, edge, group and call tables. */
void sli_prop_index(sli_prop *P);
/*
 * Whether v was numbered by the index.  Every value of the module is,
 * from 1 on; a value made since (an inserted sharding constraint's
 * result, before the pass indexes again) has id 0 from the arena.
 * Nothing else in the pass writes value ids but the printer, and
 * sli_prop_dump indexes again after it.  A table of the values to check
 * against took 8 bytes a value and a miss to memory on every lookup.
 */
static inline bool
sli_prop_indexed(const sli_prop *P, const sl_value *v)
{
	return v->id != 0 && v->id < P->nvalues;
}
/* Frees them (the caches of the pass stay). */
void sli_prop_index_fini(sli_prop *P);
/* Which of its entries a table of the pass gets written (index.c). */
enum {
	SLI_TABLE_SPARSE,	/* few: the pages of the others stay unmapped */
	SLI_TABLE_DENSE,	/* most, all at once */
	SLI_TABLE_RESIDENT	/* most, as the sweeps come to them */
};
/* A zeroed table of n entries of size bytes (SLI_TABLE_* use). */
void *sli_prop_table(size_t n, size_t size, int use);
/* The symbol a call names as its callee (0 if none). */
sl_sym sli_prop_callee(sl_module *m, const sl_op *call);
/* The data_flow_edge holding the sharding of value id v, or NULL. */
static inline sl_op *
sli_prop_edge(const sli_prop *P, uint32_t v)
{
	return P->edge ? P->edge[v] : NULL;
}
/* The calls of function op id f, NULL-terminated, or NULL if none. */
static inline sl_op **
sli_prop_callers(const sli_prop *P, uint32_t f)
{
	return P->calls ? P->calls[f] : NULL;
}
/* Whether v has more than one use. */
bool sli_prop_multi_use(const sli_prop *P, const sl_value *v);
/*
 * Whether the worklist reads which operand of op a value is (terminators,
 * while, case, optimization barriers and calls: notify_users), so that
 * the index keeps the operand numbers of op's uses.
 */
static inline bool
sli_prop_operand_user(const sl_op *op)
{
	return (sli_op_info[op->kind].traits & T_TERM) || op->kind == SL_OP_WHILE ||
	       op->kind == SL_OP_OPTIMIZATION_BARRIER || op->kind == SL_OP_CASE ||
	       op->kind == SL_OP_CALL;
}
/* The operand number of use `use`, whose user is a sli_prop_operand_user. */
uint32_t sli_prop_use_operand(const sli_prop *P, uint32_t use);
/* Resolves the mesh of a sharding (NULL if unknown). */
const sl_mesh *sli_prop_mesh_of(const sli_prop *P, const sl_sharding *s);

/* ====================================================================
 * Where shardings live (shardings.c, intern.c)
 * ==================================================================== */

static inline bool
sli_prop_static_tensor(const sl_type *t)
{
	return t && sli_type_is_static(t);
}

/* Whether v is an argument of a function. */
bool sli_prop_is_func_arg(const sl_value *v);
/* The value the sharding of v really lives on (NULL: none). */
sl_value *sli_prop_shardable(sli_prop *P, sl_value *v);
/* A fully open sharding of type t on the mesh of s (module arena). */
sl_sharding *sli_prop_open_like(sl_module *m, const sl_sharding *s, const sl_type *t);

static inline uint64_t
sli_prop_mix(uint64_t h, uint64_t x)
{
	return (h ^ x) * 1099511628211ULL;
}

bool sli_prop_sharding_eq(const sl_sharding *a, const sl_sharding *b);
/* The module-arena sharding equal to s: the one made before, or a copy. */
const sl_sharding *sli_prop_intern(sli_prop *P, const sl_sharding *s);

/* ====================================================================
 * Function and computation boundaries (boundary.c)
 * ==================================================================== */

/* inner, from the body of mc, with the manual axes of outer put back. */
const sl_sharding *sli_prop_add_manual(sl_module *m, const sl_op *mc,
                                       const sl_sharding *outer, const sl_sharding *inner);
void sli_prop_visit_func_edge(sli_prop *P, sl_op *e);
/* Spec 7.4: main function results against the returned values. */
void sli_prop_sync_func_results(sli_prop *P);

/* ====================================================================
 * The worklist (worklist.c)
 * ==================================================================== */

/* notifyShardingModified of spec 7.3.2; v is a shardable value. */
void sli_prop_notify_modified(sli_prop *P, sl_value *v);

/* ====================================================================
 * One step (step.c, rule.c, edges.c, groups.c)
 * ==================================================================== */

/* How a tensor of a step is seen (VIEW_MC_*: through a manual comp.). */
enum { VIEW_PLAIN, VIEW_MC_ARG, VIEW_MC_RES };

typedef struct stensor {
	sl_value *v;		/* NULL for a function result */
	sl_op *func;
	uint32_t res;
	const sl_sharding *s;	/* the sharding handed to the projection */
	int view;
	sl_op *mc;		/* manual computation of a VIEW_MC_* edge */
	uint32_t mci;
} stensor;

enum { DIR_FIXED, DIR_STRATEGY };

typedef struct step_args {
	sl_op *op;		/* the op (direction function, debug owner) */
	const sl_rule *rule;
	const sl_rule *attached;	/* the rule attribute, for heuristic 2 */
	int dirmode, dir;
	bool conservative, elementwise, notify, func_sync;
	const uint8_t *dirs;	/* from step_dirs, or NULL: computed by step */
	bool plain;		/* every tensor is plain(): the op's own values */
} step_args;

/* sli_prop.quiet: a generic step would change nothing, whatever happens */
enum { QUIET_ALWAYS = 255 };
/*
 * The quiet flag a generic op of class k (P->opclass) holds when a step
 * would change nothing at the current level and strategy.
 */
uint8_t sli_prop_quiet_key(sli_prop *P, uint8_t k);

/* One step through the nops + nres tensors ts; true if a sharding changed. */
bool sli_prop_step(sli_prop *P, const step_args *a, stensor *ts, uint32_t nops,
                   uint32_t nres);
/* t: value v as it is, with its current sharding. */
static inline void
sli_prop_plain(sli_prop *P, stensor *t, sl_value *v)
{
	memset(t, 0, sizeof *t);
	t->v = v;
	t->s = sli_prop_get(P, v);
}
/* A step through an op with a sharding rule. */
void sli_prop_visit_generic(sli_prop *P, sl_op *op);

/* The rule of op (built or shared), NULL if it has none or on error. */
const sl_rule *sli_prop_op_rule(sli_prop *P, sl_op *op);
/* Whether op never has a rule of its own. */
bool sli_prop_has_no_rule(const sl_op *op);
/* The identity rule of nops operands and nres results of one type. */
const sl_rule *sli_prop_identity_rule(sli_prop *P, const sl_type *type, uint32_t nops,
                                      uint32_t nres);

void sli_prop_visit_barrier(sli_prop *P, sl_op *op);
void sli_prop_visit_edge(sli_prop *P, sl_op *e);

/* Writes s onto v's group members (spec 7.7). */
void sli_prop_sync_group(sli_prop *P, sl_value *v, const sl_sharding *s, bool notify);
/* Returns true when constraints were inserted (the tables are stale). */
bool sli_prop_sync_groups_initial(sli_prop *P);

/* ====================================================================
 * Debug hooks (debug.c); all no-ops unless a debug option is set
 * ==================================================================== */

void sli_prop_debug_init(sli_prop *P);
/*
 * One successful step: `owner` is the op (or function for result syncs)
 * the edges are recorded under, before/after the projections, vals the
 * shardable value of every tensor (NULL for function results).
 */
void sli_prop_debug_step(sli_prop *P, sl_op *owner, const sli_proj *before,
                         const sli_proj *after, sl_value *const *vals,
                         const bool *written, bool func_sync);
void sli_prop_debug_finish(sli_prop *P);
void sli_prop_debug_fini(sli_prop *P);

#endif
