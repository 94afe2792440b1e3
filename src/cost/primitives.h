/*
 * primitives.h - the prices of shardlp-cost(7), private to src/cost.
 * The model's price (eval.c) and the ILP's cost terms (terms.c) both
 * price with these functions and nothing else, so that the ILP objective
 * and the model's price cannot drift apart; the solver reaches them only
 * through terms.h; the evaluator's compute uses sli_cost_op_self too
 * (emitted.c).  All take a built model and never fail.
 */
#ifndef SL_COST_PRIMITIVES_H
#define SL_COST_PRIMITIVES_H

#include "cost/cost.h"

/*
 * The model prices in microseconds, so that the ILP's objective is of
 * order one for the solver's tolerances; the public API reports seconds
 * (src/api divides by SLI_COST_UNIT).
 */
#define SLI_COST_MAX_RANK 16	/* the rank of a pin's per-dim arrays */
#define SLI_COST_NO_TENSOR UINT32_MAX	/* an operand or result not modelled */

/* Product of the sizes of the axes q puts on dim d (factor f for s). */
int64_t sli_cost_dim_shards(const sli_cost_model *cm, const sli_cost_asg *q,
                            uint32_t d);
int64_t sli_cost_factor_shards(const sli_cost_model *cm, const sli_cost_asg *s,
                               uint32_t f);

/* Per-device bytes of tensor t under q: pb(t,q). */
double sli_cost_tensor_bytes(const sli_cost_model *cm, uint32_t t,
                             const sli_cost_asg *q);

/*
 * Seconds of one collective on one axis for a tensor piece of `bytes` per
 * device (the input piece; an all-reduce's result).
 */
double sli_cost_gather(const sli_cost_model *cm, uint32_t axis, double bytes);
double sli_cost_all_to_all(const sli_cost_model *cm, uint32_t axis, double bytes);
double sli_cost_all_reduce(const sli_cost_model *cm, uint32_t axis, double bytes);
/*
 * Resharding a tensor from `from` (bytes per device `bytes`) to `to`:
 * per axis, an all-gather where `to` leaves it, an all-to-all where it
 * moves to another dim.  Counted into *t when t is non-NULL.
 */
double sli_cost_reshard(const sli_cost_model *cm, const sli_cost_asg *from,
                        double bytes, const sli_cost_asg *to, sli_cost_parts *t);
/*
 * Whether resharding from `from` to `to` keeps an axis on its dim behind
 * other axes than before (in the model's order): sli_cost_reshard charges
 * it nothing, the export gathers it and slices it again (shardlp-cost(7),
 * "Ties").
 */
bool sli_cost_reorders(const sli_cost_model *cm, const sli_cost_asg *from,
                       const sli_cost_asg *to);

/*
 * The mapping of operand i (result: false) or result i (true) in the
 * rule of op co, or NULL (opaque op, no such value).
 */
const sl_tensor_mapping *sli_cost_mapping_of(const sli_cost_op *co, bool result,
                                             uint32_t i);
/*
 * Where factor f lands in tensor mapping tm under s: its dim, or -1 when
 * the tensor lacks it or cannot express it (an earlier factor of the same
 * dim is not fully sharded).
 */
int sli_cost_factor_dim(const sli_cost_model *cm, const sl_rule *r,
                        const sl_tensor_mapping *tm, const sli_cost_asg *s,
                        uint32_t f);
/*
 * What assignment s needs of operand i (result: false) or produces on
 * result i (result: true), per axis a dim or -1.
 */
void sli_cost_op_project(const sli_cost_model *cm, uint32_t o, bool result,
                         uint32_t i, const sli_cost_asg *s, sli_cost_asg *out);
/*
 * The reshard of operand i of o from q to its requirement; where the op
 * may pick among requirements (ropt), the cheapest, ties to the first.
 * The requirement taken goes to *to when to is non-NULL; its collectives
 * are counted into *t when t is.
 */
double sli_cost_op_require(const sli_cost_model *cm, uint32_t o, uint32_t i,
                           const sli_cost_asg *q, sli_cost_asg *to,
                           sli_cost_parts *t);
/*
 * Compute and all-reduce seconds of s (everything of o not on an edge),
 * the compute part into *compute; all-reduces counted into *t.
 */
double sli_cost_op_self(const sli_cost_model *cm, uint32_t o,
                        const sli_cost_asg *s, double *compute,
                        sli_cost_parts *t);

#endif
