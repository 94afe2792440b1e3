/*
 * shardings.h - shardings as written in the module, in the model's
 * per-axis form; private to src/cost (the public readers, sli_cost_read
 * and sli_cost_value_sharding, are in cost.h).
 */
#ifndef SL_COST_SHARDINGS_H
#define SL_COST_SHARDINGS_H

#include "cost/cost.h"

/*
 * What sli_cost_from_sharding made of a sharding: the model holds it
 * exactly (any axis order; an empty mesh, which Shardy replaces by the
 * mesh it meets, counts as the model's), holds its full axes but not its
 * sub-axes (those its pieces do not add up to, or all without
 * --sub-axes), or cannot hold it (another mesh, a rank mismatch, an
 * unknown axis).
 */
enum { SLI_COST_SH_EXACT, SLI_COST_SH_SUBAXES, SLI_COST_SH_OTHER };

/* The model axes that are mesh axis `name` or pieces of it (a mask). */
uint32_t sli_cost_axis_mask(const sli_cost_model *cm, sl_sym name);
/*
 * The model mesh s is on (an index into cm->meshes), -1 for an empty mesh
 * (Shardy replaces it by the mesh it meets: any of the model's), -2 for a
 * mesh outside the model.
 */
int sli_cost_sharding_mesh(const sli_cost_model *cm, const sl_sharding *s);
/*
 * Converts s, the sharding of a tensor of rank `rank`, into q and pin
 * (or NULL), as the enum above says; returns one of its values.
 */
int sli_cost_from_sharding(const sli_cost_model *cm, const sl_sharding *s,
                           uint32_t rank, sli_cost_asg *q, sli_cost_pin *pin);

#endif
