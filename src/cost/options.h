/*
 * options.h - the valid shardings and assignments of the model, private
 * to src/cost (the public enumerators are in cost.h).
 */
#ifndef SL_COST_OPTIONS_H
#define SL_COST_OPTIONS_H

#include "cost/cost.h"

/*
 * Whether q is a valid sharding of ct that honours pin, its axes written
 * in the order major gives (per dim).
 */
bool sli_cost_pin_allows(const sli_cost_model *cm, const sli_cost_tensor *ct,
                         const sli_cost_pin *pin,
                         const int8_t (*major)[SLI_COST_MAX_AXES],
                         const sli_cost_asg *q);
/*
 * Whether q (a sharding, per model axis a dim or -1) keeps the pieces of
 * a mesh axis apart: on different dims, or some on one and some on none.
 */
bool sli_cost_asg_apart(const sli_cost_model *cm, const sli_cost_asg *q);
/*
 * The requirements operand i of return op co may take (co->ropt[i]): the
 * result sharding as written (co->req[i]), then every other valid
 * sharding of the operand that extends it in its open dims (pin).
 */
void sli_cost_result_options(sli_cost_model *cm, sli_cost_op *co, uint32_t i,
                             const sli_cost_pin *pin);

#endif
