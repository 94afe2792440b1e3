/*
 * census.h - which kinds of ops a module holds.  Pipelines skip a pass
 * whose ops are absent (each skip saves a walk of the whole module).  The
 * flags only ever grow: a pass that may create an op of some kind adds
 * its flag after it ran.
 */
#ifndef SL_PASSES_CENSUS_H
#define SL_PASSES_CENSUS_H

#include "ir/ir.h"

enum {
	SLI_HAS_CALL = 1 << 0,		/* func.call */
	SLI_HAS_DATA_FLOW_OP = 1 << 1,	/* while, case, optimization_barrier, computations */
	SLI_HAS_MANUAL = 1 << 2,	/* sdy.manual_computation */
	SLI_HAS_NAMED = 1 << 3,		/* sdy.named_computation */
	SLI_HAS_EDGE = 1 << 4,		/* sdy.data_flow_edge */
	SLI_HAS_FUNC_EDGE = 1 << 5,	/* sdy.func_data_flow_edge */
	SLI_HAS_CONSTRAINT = 1 << 6,	/* sdy.sharding_constraint */
	SLI_HAS_GROUP = 1 << 7,		/* sdy.sharding_group */
	SLI_HAS_RESHARD = 1 << 8,	/* sdy.reshard */
	SLI_HAS_COMPOSITE = 1 << 9,	/* stablehlo.composite */
	/* not a census flag: a step that needs a private top-level symbol */
	SLI_NEEDS_PRIVATE = 1 << 16
};

/* The SLI_HAS_* flags of the ops of m (one walk). */
unsigned sli_census(sl_module *m);
/* Whether some top-level symbol is private (symbol-dce may erase it). */
bool sli_has_private_symbol(sl_module *m);
/* Whether sdy-pre-order-funcs may move a function: two or more
 * functions, or one that is not the last top-level op. */
bool sli_funcs_may_move(sl_module *m);

#endif
