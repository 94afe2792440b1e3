/*
 * reshard_plan.h - the decomposition of one reshard (a source and a target
 * list of axes per dimension on one mesh) into Shardy's collectives, as
 * -sdy-reshard-to-collectives emits them (reshard_to_collectives.c, whose
 * head comment gives the rules).  Kept apart from the IR so that the unit
 * tests can check plans on hand-made shardings.
 * Ownership: a plan is caller-owned (zero-init, build, then fini).
 */
#ifndef SL_PASSES_RESHARD_PLAN_H
#define SL_PASSES_RESHARD_PLAN_H

#include "ir/axis.h"
#include "ir/ir.h"

/* One collective of a plan. */
typedef struct sli_rtc_step {
	sl_op_kind kind;	/* SL_OP_SDY_ALL_SLICE, _COLLECTIVE_PERMUTE, _ALL_TO_ALL, _ALL_GATHER */
	uint32_t src, tgt;	/* all_to_all: the moved dimensions */
	sli_axis_vec *axes;	/* per dimension: sliced or gathered axes;
				 * all_to_all: the moved axes in axes[0] */
	sli_axis_vec *after;	/* per dimension: the sharding after the step */
	bool on_target_mesh;	/* after the step, the target's mesh */
} sli_rtc_step;

typedef struct sli_rtc_plan {
	uint32_t rank;
	SL_VEC(sli_rtc_step) steps;
} sli_rtc_plan;

/*
 * Builds the collectives that turn `in` into `out` (rank lists each) on
 * mesh; no steps when they are equal.  With switch_mesh the target lives
 * on another mesh with the same axes (other device ids): one collective
 * permute must move to it.  -1 when an axis is not in the mesh.
 */
int sli_rtc_plan_build(const sl_context *ctx, const sl_mesh *mesh,
                       const sl_axis_list *in, const sl_axis_list *out,
                       uint32_t rank, bool switch_mesh, sli_rtc_plan *plan);
void sli_rtc_plan_fini(sli_rtc_plan *plan);

#endif
