/*
 * projection.h - sharding projection (spec/propagation.md 2.2-2.4): the
 * dimension shardings of an op's operands and results projected onto the
 * factors of its sharding rule, and the factor shardings projected back.
 * Ownership: a projection and its axis lists live in the caller's scratch
 * arena; back-projected shardings live where the caller asks.
 */
#ifndef SL_PROPAGATION_PROJECTION_H
#define SL_PROPAGATION_PROJECTION_H

#include "ir/axis.h"
#include "ir/ir.h"

/*
 * An axis list that grows in an arena.  cap 0 with n > 0: v is borrowed
 * (a sharding's own list) and is copied before any write.
 */
typedef struct sli_axes {
	sl_axis_ref *v;
	uint32_t n, cap;
} sli_axes;

/* The sharding of one factor in one tensor (spec 2.2). */
typedef struct sli_fsh {
	sli_axes axes;		/* major to minor */
	sli_axes overflow;	/* axes of the dimension this factor could not take */
	bool present;		/* the tensor has this factor (see quirk A1) */
	bool closed;
	bool minor_most;	/* last factor of its dimension in this tensor */
} sli_fsh;

typedef struct sli_tproj {
	sli_fsh *f;		/* one entry per factor of the rule */
	const sl_tensor_mapping *map;
	sl_axis_list replicated, unreduced;
	sl_reduction reduction;
} sli_tproj;

typedef struct sli_proj {
	sli_arena *arena;
	const sl_mesh *mesh;
	const int64_t *fsizes;
	uint32_t nfactors, nops, nres;
	sli_tproj *t;		/* operands, then results */
} sli_proj;

void sli_axes_push(sli_arena *a, sli_axes *v, sl_axis_ref r);
/* Appends r, merged into the last element when they can merge (spec 1.2). */
void sli_axes_add_or_merge(sli_arena *a, const sl_mesh *mesh, sli_axes *v,
                           sl_axis_ref r);
void sli_axes_set(sli_arena *a, sli_axes *v, const sl_axis_ref *src, uint32_t n);
/* A piece of axis `name` from pre-size `pre`: the full axis when it spans it. */
sl_axis_ref sli_axis_piece(sl_sym name, int64_t pre, int64_t size,
                           const sl_mesh *mesh);

/* Prefix status of axis list a against b (spec 1.6). */
enum { SLI_NOT_A_PREFIX, SLI_STRICT_PREFIX, SLI_EQUAL };
int sli_axes_prefix_status(const sl_axis_ref *a, uint32_t na,
                           const sl_axis_ref *b, uint32_t nb);

/*
 * Starts a projection for nops operands and nres results over the given
 * factor sizes; every tensor starts without factors.
 */
void sli_proj_init(sli_proj *p, sli_arena *a, const sl_mesh *mesh,
                   const int64_t *fsizes, uint32_t nfactors,
                   uint32_t nops, uint32_t nres);
/* Projects sharding s (NULL: fully open) of tensor t with mapping map. */
void sli_proj_tensor(sli_proj *p, uint32_t t, const sl_tensor_mapping *map,
                     const sl_sharding *s);
/*
 * Projects tensor t back onto its dimensions (spec 2.4): a new sharding in
 * `arena` on mesh `name` (or the inline mesh when name is 0), without
 * priorities.
 */
sl_sharding *sli_proj_back(sli_arena *arena, const sli_proj *p, uint32_t t,
                           sl_sym name, sl_mesh *inline_mesh);
/* A deep copy of p in the same arena (for the debug hooks). */
void sli_proj_copy(sli_proj *dst, const sli_proj *src);

/* An identity rule over a shape for nops operands and nres results. */
void sli_rule_identity(sli_arena *a, const sl_type *type, uint32_t nops,
                       uint32_t nres, sl_rule *out);

#endif
