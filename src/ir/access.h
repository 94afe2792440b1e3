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
 * Sets it (NULL removes it); the other entries of a new per-value list
 * become fully open.
 */
void sli_result_set_sharding(sl_module *m, sl_op *op, uint32_t i,
                             const sl_sharding *s);
/* The sharding of any value (table above), or NULL. */
sl_sharding *sli_value_sharding(const sl_value *v);
void sli_value_set_sharding(sl_module *m, sl_value *v, const sl_sharding *s);

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

#endif
