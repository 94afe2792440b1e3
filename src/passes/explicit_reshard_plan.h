/*
 * explicit_reshard_plan.h - what -sdy-insert-explicit-reshards decides for
 * one op, without touching the IR: given the op's sharding rule and the
 * shardings of its operands and results (real or hypothetical), which
 * operands must be resharded to which sharding, which results must be
 * computed in another sharding (and then resharded back to theirs), and
 * over which axes the results must be all-reduced.  The rules are in the
 * head comment of explicit_reshard_plan.c; the rewrite that applies a plan
 * is insert_explicit_reshards.c.  The cost model can call this on any
 * assignment of shardings to price the reshards an op would need.
 *
 * Ownership: the plan's shardings and lists live in the `out` arena the
 * caller names; everything else the planner needs lives in `scratch`,
 * which the caller may reset afterwards.
 */
#ifndef SL_PASSES_EXPLICIT_RESHARD_PLAN_H
#define SL_PASSES_EXPLICIT_RESHARD_PLAN_H

#include "ir/axis.h"
#include "ir/ir.h"

/* The facts the planner reads about one op. */
typedef struct sli_xr_in {
	const sl_rule *rule;		/* the op's sharding rule (not custom) */
	const sl_mesh *mesh;		/* the common mesh of the op */
	sl_sym mesh_name;		/* its name; 0 with an inline mesh */
	sl_mesh *inline_mesh;		/* the inline mesh when mesh_name is 0 */
	uint32_t nin, nout;		/* operands and results (rule's counts) */
	const sl_sharding *const *in;	/* per operand, NULL: closed, replicated */
	const sl_sharding *const *out;	/* per result, likewise */
	/* per tensor (operands then results): its sharding names a mesh with
	 * other device ids than `mesh`; NULL: none does */
	const bool *other_ids;
	const int64_t *sizes;		/* elements per tensor, operands then results */
	bool reshape;			/* the op is a stablehlo.reshape */
	/* the full version; without it no reshard is planned, and results
	 * are all-reduced only when the first one has unreduced axes */
	bool full;
	bool dot;			/* the op is a stablehlo.dot or dot_general */
} sli_xr_in;

/* The decision for one op. */
typedef struct sli_xr_plan {
	uint32_t nin, nout;
	/* per operand: the sharding it must be resharded to, or NULL */
	sl_sharding **in_to;
	/* per result: the sharding the op must produce it with, or NULL when
	 * its own is fine; a reshard back to its own follows the op */
	sl_sharding **out_as;
	/* after the op, each result is all-reduced over these (n 0: none) */
	sl_axis_list all_reduce;
	/* the sharding of each factor of the rule the op runs with (full
	 * version only; nfactors 0 otherwise) */
	sl_axis_list *factor_axes;
	uint32_t nfactors;
	/* the mesh the plan's shardings use (the sli_xr_in's) */
	sl_sym mesh_name;
	sl_mesh *inline_mesh;
	const sl_mesh *mesh;
} sli_xr_plan;

/*
 * Plans op `in`.  Returns 0, or -1 when an
 * axis of a sharding is not in the mesh.
 */
int sli_xr_plan_op(const sl_context *ctx, sli_arena *scratch, sli_arena *out,
                   const sli_xr_in *in, sli_xr_plan *plan);

struct sli_rule_opts;

/*
 * Plans op of module m for the shardings in[i] of its operands and out[j]
 * of its results (NULL: none; the op's own or hypothetical ones, the op
 * is not changed): finds its rule (through ropts, rules/rules.h), its
 * mesh and its tensor sizes (explicit_reshard_op.c), then calls
 * sli_xr_plan_op.  Returns 1 with *plan filled, 0 when the pass leaves
 * the op alone (no rule or a custom one, no usable mesh), -1 after a
 * located error (a malformed attached rule).
 */
int sli_xr_plan_for_op(sl_module *m, const sl_op *op, const sl_sharding *const *in,
                       const sl_sharding *const *out, bool full,
                       struct sli_rule_opts *ropts, sli_arena *scratch,
                       sli_arena *out_arena, sli_xr_plan *plan);

/* Whether the plan changes nothing: no reshard and no all-reduce. */
bool sli_xr_plan_is_empty(const sli_xr_plan *plan);

#endif
