/*
 * access.h - where the IR stores each sharding: the one module that knows
 * which attribute holds the sharding of a value, of a function argument
 * or result, and of an op result (Shardy's getSharding / setSharding,
 * shardy/dialect/sdy/ir/utils.h; spec/dialect-and-verifier.md).  Every
 * other part asks here.
 *
 *   value                                  stored in
 *   argument of a function's entry block   its `sdy.sharding` arg attr
 *   argument of a named / manual comp.     the op's in_shardings[i]
 *   argument of another region op (while)  the op's `sdy.sharding`[i]
 *   result of constraint, reshard, edge    the op's `sharding`
 *   result of an sdy collective            the op's `out_sharding`
 *   result of a named / manual comp.       the op's out_shardings[i]
 *   result of any other op                 the op's `sdy.sharding`[i]
 *
 * Ownership: what is returned points into the module; setters build new
 * attributes in the module arena and never mutate a shared one.
 */
#ifndef SL_IR_ACCESS_H
#define SL_IR_ACCESS_H

#include "ir/ir.h"
#include "ir/rewrite.h"

/* The body of a function (NULL for a declaration). */
sl_block *sli_func_body(const sl_op *func);
/* The rank of v's tensor type, 0 for anything else. */
uint32_t sli_value_rank(const sl_value *v);

sl_attr *sli_attr_sharding(sl_module *m, const sl_sharding *s);
sl_attr *sli_attr_spv(sl_module *m, sl_sharding *const *v, uint32_t n);
/* A fully open sharding of `rank` on mesh_name (or inline mesh). */
sl_sharding *sli_sharding_open(sl_module *m, sl_sym mesh_name, sl_mesh *mesh,
                               uint32_t rank);

/* Entry i of a per-value attribute of op (`name`), or NULL. */
sl_sharding *sli_spv_get(const sl_op *op, sl_sym name, uint32_t i);

/* The sharding of a function argument / result, or NULL. */
sl_sharding *sli_func_arg_sharding(const sl_op *func, uint32_t i);
sl_sharding *sli_func_res_sharding(const sl_op *func, uint32_t i);
void sli_func_set_arg_sharding(sl_module *m, sl_op *func, uint32_t i,
                               const sl_sharding *s);
void sli_func_set_res_sharding(sl_module *m, sl_op *func, uint32_t i,
                               const sl_sharding *s);
uint32_t sli_func_nresults(const sl_op *func);

/*
 * The prop that holds the one result sharding of op (`sharding` of
 * constraints, reshards and data-flow edges, `out_sharding` of sdy
 * collectives), or 0 when op keeps a per-value list.
 */
sl_sym sli_single_sharding_prop(const sl_op *op);
/* The sharding of result i of op (table above), or NULL. */
sl_sharding *sli_result_sharding(const sl_op *op, uint32_t i);
/*
 * Sets it; the other entries of a new per-value list become fully open.
 * NULL removes the one sharding of a single-sharding op, and changes
 * nothing in a per-value list (a list has no empty entries).
 */
void sli_result_set_sharding(sl_module *m, sl_op *op, uint32_t i,
                             const sl_sharding *s);
/* The sharding of any value (table above), or NULL. */
sl_sharding *sli_value_sharding(const sl_value *v);
void sli_value_set_sharding(sl_module *m, sl_value *v, const sl_sharding *s);
/*
 * The sharding of v as the ops that use it see it (Shardy's getSharding):
 * an argument of a manual computation's body has its in_sharding without
 * the manual axes (a copy in m's arena); any other value, as stored.
 */
const sl_sharding *sli_value_sharding_seen(sl_module *m, const sl_value *v);
/* Whether r is on one of the manual axes (NULL: none). */
bool sli_axis_is_manual(const sl_axis_list *manual, const sl_axis_ref *r);
/* s without the manual axes of manual computation mc (dimension
 * prefixes, replicated and unreduced axes); s itself if it has none. */
const sl_sharding *sli_sharding_erase_manual(sl_module *m, const sl_op *mc,
                                             const sl_sharding *s);

/* used by cost and solver */

/*
 * The sharding operand i of a named or manual computation enters its
 * body with (its in_shardings[i], the body's argument i), or NULL.
 */
sl_sharding *sli_comp_in_sharding(const sl_op *op, uint32_t i);
/*
 * Sets the shardings of all n results of op at once, where
 * sli_result_sharding reads them: the one prop of a constraint, reshard,
 * edge or collective (n is 1), else one new per-value list of v.
 */
void sli_result_set_shardings(sl_module *m, sl_op *op, sl_sharding *const *v,
                              uint32_t n);
/*
 * Sets the shardings of all n arguments of the body of a named or
 * manual computation at once: one new in_shardings list of v.
 */
void sli_comp_set_in_shardings(sl_module *m, sl_op *op, sl_sharding *const *v,
                               uint32_t n);

/* used by propagation */

/*
 * The per-value `sdy.sharding` list of op's results as stored, whatever
 * op's kind (NULL if none), and its setter (NULL removes it).
 * Propagation shares one list between ops with equal shardings and
 * updates a list it made in place.
 */
sl_attr *sli_op_sharding_list(const sl_op *op);
void sli_op_set_sharding_list(sl_module *m, sl_op *op, sl_attr *a);
/* The name of the attribute sli_op_sharding_list reads. */
static inline sl_sym
sli_sharding_list_name(void)
{
	return SLS_sdy_sharding;
}
/*
 * Sets attribute `name` of func's result i to attr (the debug attributes
 * of propagation); other results keep theirs.
 */
void sli_func_set_res_attr(sl_module *m, sl_op *func, uint32_t i, sl_sym name,
                           sl_attr *attr);

/*
 * Attribute `name` of function argument i (in the entry block, or in
 * arg_attrs for a declaration) or of result i, or NULL; the setter of an
 * argument's (NULL removes it; declarations are left alone).
 */
sl_attr *sli_func_arg_attr(const sl_op *func, uint32_t i, sl_sym name);
sl_attr *sli_func_res_attr(const sl_op *func, uint32_t i, sl_sym name);
void sli_func_set_arg_attr(sl_module *m, sl_op *func, uint32_t i, sl_sym name,
                           sl_attr *attr);
/* Attribute `name` of block argument v (NULL if none; a result has
 * none), and its setter (NULL removes it). */
sl_attr *sli_arg_attr(const sl_value *v, sl_sym name);
void sli_arg_set_attr(sl_module *m, sl_value *v, sl_sym name, sl_attr *attr);

/* used by passes and verify */

/*
 * The per-value list (spv) holding the shardings of op's results
 * (`out_shardings` of a named or manual computation, `sdy.sharding`
 * otherwise), or NULL: none, or op keeps one sharding
 * (sli_single_sharding_prop).  Its setter replaces the whole list (NULL
 * removes it).
 */
sl_attr *sli_result_spv(const sl_op *op);
void sli_result_set_spv(sl_module *m, sl_op *op, sl_attr *spv);
/*
 * The `in_shardings` list of a named or manual computation (entry i:
 * sli_comp_in_sharding), or NULL: none, or op is not a computation; and
 * its setter.
 */
sl_attr *sli_comp_in_spv(const sl_op *op);
void sli_comp_set_in_spv(sl_module *m, sl_op *op, sl_attr *spv);
/*
 * The raw attributes that hold a sharding, whatever their kind (the
 * verifier checks the kind), or NULL: the `sdy.sharding` a block
 * argument carries itself (only function entry arguments have one), and
 * that of a function argument or result (in arg_attrs / res_attrs for a
 * declaration).
 */
const sl_attr *sli_arg_sharding_attr(const sl_value *arg);
const sl_attr *sli_func_arg_sharding_attr(const sl_op *func, uint32_t i);
const sl_attr *sli_func_res_sharding_attr(const sl_op *func, uint32_t i);

/*
 * The manual axes of a manual computation, or NULL; the setter stores
 * v[0..n) (not copied) and returns the stored list.
 */
const sl_axis_list *sli_manual_axes(const sl_op *op);
const sl_axis_list *sli_set_manual_axes(sl_module *m, sl_op *op, sl_axis_ref *v,
                                        uint32_t n);

/* The mesh of an `sdy.mesh` op, or NULL. */
const sl_mesh *sli_mesh_op_mesh(const sl_op *mesh_op);
/*
 * The mesh a sharding uses: its inline mesh, or the `sdy.mesh` it names
 * in the module enclosing op `from` (the top module for
 * sli_sharding_mesh); NULL if there is none.
 */
const sl_mesh *sli_sharding_mesh_at(const sl_module *m, const sl_op *from,
                                    const sl_sharding *s);
const sl_mesh *sli_sharding_mesh(const sl_module *m, const sl_sharding *s);

/* The callee symbol of a func.call (0 if none), its setter, and the
 * func.func it names (NULL if none). */
sl_sym sli_call_callee(const sl_module *m, const sl_op *call);
void sli_call_set_callee(sl_module *m, sl_op *call, sl_sym name);
sl_op *sli_call_func(const sl_module *m, const sl_op *call);

/*
 * The uses of v, in pre-order of its scope (the region that holds it),
 * appended to out; and the replacement of every use of v in its scope by
 * `to`, except inside `except`.
 */
typedef SL_VEC(sli_use) sli_usevec;
void sli_value_uses(const sl_value *v, sli_usevec *out);
void sli_value_replace_uses(sl_value *v, sl_value *to, const sl_op *except);

/* The op's sharding rule as written (sdy.sharding_rule), or NULL; the
 * setter replaces it (NULL removes it). */
sl_attr *sli_op_rule_attr(const sl_op *op);
void sli_op_set_rule_attr(sl_module *m, sl_op *op, sl_attr *a);
/* The name of the attribute sli_op_rule_attr reads. */
static inline sl_sym
sli_rule_attr_name(void)
{
	return SLS_sdy_sharding_rule;
}

/*
 * Use lists of the values used under root (root's operands included),
 * computed when a pass needs them and never kept in sync with changes:
 * arrays indexed by value->id, which the computation overwrites (one walk
 * and a counting sort, no hashing).  A value not used there has no uses.
 * Ownership: the arrays are heap memory freed by sli_uses_fini.
 */
typedef struct sli_uses {
	SL_VEC(const sl_value *) values;	/* value->id is the position */
	uint32_t *first, *count;
	sli_use *pool;
} sli_uses;

void sli_uses_compute(sli_uses *u, sl_op *root);
/* Only the values want() accepts (the others then have no uses). */
void sli_uses_compute_if(sli_uses *u, sl_op *root, bool (*want)(const sl_value *v));
void sli_uses_fini(sli_uses *u);
/* The uses of v in operand order of a pre-order walk; *n their count. */
const sli_use *sli_uses_of(const sli_uses *u, const sl_value *v, size_t *n);
/* Redirects to `to` the uses of `from` that u recorded and that still
 * read it: a replacement in time linear in those uses, where
 * sli_value_replace_uses walks the whole scope.  Complete only when no op
 * made since u was computed uses `from`. */
void sli_uses_replace(const sli_uses *u, const sl_value *from, sl_value *to);

#endif
