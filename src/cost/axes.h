/*
 * axes.h - the model's axes, private to src/cost: finding the module's
 * mesh and splitting its axes (shardlp-cost(7), --sub-axes).
 */
#ifndef SL_COST_AXES_H
#define SL_COST_AXES_H

#include "cost/cost.h"

/*
 * Finds the one mesh with axes among the ops of body (the module's top
 * block) and fills cm's mesh and axis arrays.  Returns 0, or -1 after an
 * error to ctx (no such mesh, two of them, too many axes).
 */
int sli_cost_find_mesh(sli_cost_model *cm, sl_context *ctx, sl_block *body);

#endif
