/*
 * passutil.h - what the import and export passes share
 * (spec/import-passes.md section 0): the symbol table that renames on
 * insertion, call-graph orders, op walks, the sharding attached to a
 * value, the sharding walker and data-flow edges.
 * Ownership: vectors filled here belong to the caller (SL_VEC_FREE);
 * attributes and ops are built in the module arena.
 */
#ifndef SL_PASSES_PASSUTIL_H
#define SL_PASSES_PASSUTIL_H

#include "ir/access.h"
#include "ir/rewrite.h"

typedef SL_VEC(sl_op *) sli_opvec;

/* The body of the top module. */
sl_block *sli_module_body(sl_module *m);
sl_sym sli_sym(sl_module *m, const char *s);

/* ==================================================================== */
/* Symbol table (spec 0.1)                                               */
/* ==================================================================== */

/*
 * The symbols of the top module, and the uniquing counter of one pass
 * run: a clashing name becomes name_<counter++>, tried until free.
 */
/* A map from symbols to indices (SIZE_MAX when absent) that grows. */
typedef struct sli_symidx {
	size_t *v;
	size_t n;
} sli_symidx;

size_t sli_symidx_get(const sli_symidx *t, sl_sym s);
void sli_symidx_set(sli_symidx *t, sl_sym s, size_t x);
void sli_symidx_fini(sli_symidx *t);

typedef struct sli_symtab {
	sl_module *m;
	SL_VEC(unsigned char) used;	/* indexed by sl_sym */
	unsigned counter;
} sli_symtab;

void sli_symtab_init(sli_symtab *t, sl_module *m);
void sli_symtab_fini(sli_symtab *t);
bool sli_symtab_has(const sli_symtab *t, sl_sym name);
void sli_symtab_remove(sli_symtab *t, sl_sym name);
/* A free name for `want`, reserved in the table. */
sl_sym sli_symtab_unique(sli_symtab *t, sl_sym want);
/*
 * Names op uniquely after its current sym_name and inserts it before
 * `before` (at the end of the module body when NULL); returns the name.
 */
sl_sym sli_symtab_insert(sli_symtab *t, sl_op *op, sl_op *before);
/* Sets the sym_name of a symbol op. */
void sli_set_sym_name(sl_module *m, sl_op *op, sl_sym name);

/* ==================================================================== */
/* Functions and calls (spec 0.2)                                        */
/* ==================================================================== */

sl_sym sli_call_callee(sl_module *m, const sl_op *call);
void sli_call_set_callee(sl_module *m, sl_op *call, sl_sym name);
/* The func.func a call refers to, or NULL. */
sl_op *sli_call_func(sl_module *m, const sl_op *call);
/* The entry block of a function (NULL for a declaration). */
/* sdy.original_func_name if present, else the function's name. */
sl_sym sli_func_original_name(sl_module *m, const sl_op *func);

/*
 * Functions in call-graph post-order (callees first), or pre-order
 * (callers first).  With `check`, a call to a missing function or a
 * cycle gets a located error and -1 is returned.
 */
int sli_func_order(sl_module *m, bool preorder, bool check, sli_opvec *out);
/* The func.call ops of walkCalls: functions in that order, calls in a
 * post-order (pre-order) op walk of each. */
int sli_call_order(sl_module *m, bool preorder, bool check, sli_opvec *out);

/* Ops under root (root excluded) in post-order (nested regions first). */
void sli_collect_postorder(sl_op *root, sli_opvec *out);
/* Ops under root (root excluded) in pre-order. */
void sli_collect_preorder(sl_op *root, sli_opvec *out);

/*
 * Clones func with every function it calls, transitively; each clone
 * carries sdy.original_func_name and is inserted through t (nested
 * clones first).  Returns the top clone, inserted too.
 */
sl_op *sli_clone_func_recursively(sli_symtab *t, sl_op *func);

/* ==================================================================== */
/* Shardings                                                              */
/* ==================================================================== */

/* The mesh a sharding uses (inline, or looked up), or NULL. */
const sl_mesh *sli_sharding_mesh(sl_module *m, const sl_sharding *s);

/* Structural equality of two shardings. */
bool sli_sharding_equal(const sl_sharding *a, const sl_sharding *b);


/*
 * The sharding walker (spec 0.3): fn sees every sharding of the module in
 * Shardy's order and returns a replacement, or NULL to keep it.
 */
typedef sl_sharding *sli_sharding_fn(sl_module *m, sl_op *op,
                                     const sl_sharding *s, void *ud);
void sli_transform_shardings(sl_module *m, sli_sharding_fn *fn, void *ud);
/*
 * The same for an fn whose replacement of a sharding never depends on the
 * op or on what it saw before (it may only be computed once): equal
 * per-value lists are given once to fn and then share its replacement
 * attribute.  Propagation leaves many equal lists, and one walk makes
 * fewer new attributes.
 */
void sli_transform_shardings_memo(sl_module *m, sli_sharding_fn *fn, void *ud);

/* ==================================================================== */
/* Data-flow edges (spec 0.4)                                             */
/* ==================================================================== */

/*
 * Adds `sdy.data_flow_edge` ops for the edge owners of a data-flow op
 * (named and manual computations: body arguments then results; while,
 * case and optimization_barrier: results), routing all other uses
 * through them.
 */
void sli_add_data_flow_edges(sl_module *m, sl_op *op);
/*
 * The same for every data-flow op among ops[0..n), with one walk of the
 * module to redirect the uses (instead of one per edge).
 */
void sli_add_data_flow_edges_all(sl_module *m, sl_op *const *ops, size_t n);
bool sli_is_data_flow_op(const sl_op *op);

/* Inserts op right after `after` in its block. */
void sli_op_insert_after(sl_op *after, sl_op *op);
/* Inserts op at the start of block b. */
void sli_op_prepend(sl_block *b, sl_op *op);
/* Replaces every use of v (under the op whose region holds it) by `to`,
 * except in `except`. */
void sli_value_replace_uses(sl_value *v, sl_value *to, const sl_op *except);
/* The uses of v, in pre-order of its scope. */
typedef SL_VEC(sli_use) sli_usevec;
void sli_value_uses(const sl_value *v, sli_usevec *out);

/* ==================================================================== */
/* Census: which kinds of ops a module holds                              */
/* ==================================================================== */

/*
 * Pipelines skip a pass whose ops are absent (each skip saves a walk of
 * the whole module).  The flags only ever grow: a pass that may create
 * an op of some kind adds its flag after it ran.
 */
enum {
	SLI_HAS_CALL = 1 << 0,		/* func.call */
	SLI_HAS_DATA_FLOW_OP = 1 << 1,	/* while, case, optimization_barrier, computations */
	SLI_HAS_MANUAL = 1 << 2,	/* sdy.manual_computation */
	SLI_HAS_NAMED = 1 << 3,		/* sdy.named_computation */
	SLI_HAS_EDGE = 1 << 4,		/* sdy.data_flow_edge */
	SLI_HAS_FUNC_EDGE = 1 << 5,	/* sdy.func_data_flow_edge */
	SLI_HAS_CONSTRAINT = 1 << 6,	/* sdy.sharding_constraint */
	SLI_HAS_GROUP = 1 << 7,		/* sdy.sharding_group */
	SLI_HAS_RESHARD = 1 << 8,	/* sdy.reshard */
	/* not a census flag: a step that needs a private top-level symbol */
	SLI_NEEDS_PRIVATE = 1 << 16
};

/* The SLI_HAS_* flags of the ops of m (one walk). */
unsigned sli_census(sl_module *m);
/* Whether some top-level symbol is private (symbol-dce may erase it). */
bool sli_has_private_symbol(sl_module *m);
/* Whether sdy-pre-order-funcs may move a function: two or more
 * functions, or one that is not the last top-level op. */
bool sli_funcs_may_move(sl_module *m);

/*
 * Use lists of the values used under root (root's operands included), as
 * sli_uses but in arrays indexed by value->id (which it overwrites): one
 * walk and no hashing.  A value that is not used there has no uses.
 * With sli_dense_uses_compute_if, only the values want() accepts (the
 * others then have no uses).
 */
typedef struct sli_dense_uses {
	SL_VEC(const sl_value *) values;	/* value->id is the position */
	uint32_t *first, *count;
	sli_use *pool;
} sli_dense_uses;

void sli_dense_uses_compute(sli_dense_uses *u, sl_op *root);
void sli_dense_uses_compute_if(sli_dense_uses *u, sl_op *root,
                               bool (*want)(const sl_value *v));
void sli_dense_uses_fini(sli_dense_uses *u);
/* The uses of v in operand order of a pre-order walk; *n their count. */
const sli_use *sli_dense_uses_of(const sli_dense_uses *u, const sl_value *v, size_t *n);

/* The main function: the only one, else the one named main, or NULL. */
sl_op *sli_main_func(sl_module *m);

#endif
