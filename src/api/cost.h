/*
 * cost.h - the public cost parameters (sl_cost_params, shardlp.h) as the
 * internal cost model takes them: one conversion that every wrapper of
 * src/api uses, so the two structs cannot drift apart.
 */
#ifndef SL_API_COST_H
#define SL_API_COST_H

#include "cost/cost.h"

/* Internal parameters with the storage their axes point into. */
typedef struct sli_api_cost {
	sli_cost_params p;
	sli_cost_axis axes[2 * SL_COST_MAX_AXES];
	sli_cost_flops types[SL_COST_MAX_TYPES];
} sli_api_cost;

/* Fills *c from p (NULL: the defaults); c->p points into c. */
void sli_api_cost_from(sli_api_cost *c, const sl_cost_params *p);
/* The public parts of an internal score. */
void sli_api_parts_to(sl_cost_parts *out, const sli_cost_parts *in);

#endif
