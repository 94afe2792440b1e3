/*
 * order.h - the written order of the model's tensors, private to
 * src/cost.
 */
#ifndef SL_COST_ORDER_H
#define SL_COST_ORDER_H

#include "cost/cost.h"

/* Fills sli_cost_tensor.major of every tensor of the built model cm. */
void sli_cost_compute_major(sli_cost_model *cm);

#endif
