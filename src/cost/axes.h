/*
 * axes.h - the model's axes, private to src/cost: finding the module's
 * meshes and splitting its axes (shardlp-cost(7), --sub-axes).
 */
#ifndef SL_COST_AXES_H
#define SL_COST_AXES_H

#include "cost/cost.h"

/*
 * Finds the meshes of the model among the ops of body (the module's top
 * block) and fills cm's mesh and axis arrays.  Returns 0, or -1 after an
 * error to ctx (no mesh with axes, more than SLI_COST_MAX_AXES in all).
 */
int sli_cost_find_mesh(sli_cost_model *cm, sl_context *ctx, sl_block *body);

#endif
