/*
 * reshard_plan.c - decomposes a reshard into collectives (reshard_plan.h).
 *
 * The axes of source and target are first cut into aligned pieces: every
 * sub-axis boundary either side uses splits every ref of that axis, so two
 * pieces are equal or disjoint.  The current sharding starts at the source;
 * per dimension, the common prefix with the target stays put and the rest
 * ("remainder") must change.  Up to two rounds try, in Shardy's order:
 *
 *   1. all_slice: in a dimension whose remainder is empty, slice the leading
 *      target pieces that the current sharding does not use anywhere;
 *   2. collective_permute: when every dimension's remainder has the sharded
 *      size of its target remainder, and every target piece is either
 *      unused or in a remainder, permute straight to the target; when the
 *      target is on a mesh with the same axes but other device ids, the
 *      first round always permutes (to the target if it can, else to the
 *      current axes), and the steps after it are on the target's mesh;
 *   3. all_to_all: move the suffix of a source remainder that is exactly
 *      the start of the target remainder of another dimension whose own
 *      remainder is empty (one move per op, dimensions in order, repeated
 *      while one applies);
 *   4. all_gather: gather, per dimension, the longest suffix of the
 *      remainder that the target does not use.
 *
 * Rules inferred here (Shardy's capacity-driven slicing and out-of-order
 * all-to-alls are not followed): what two rounds leave is finished by
 * gathering every remainder, then slicing every target remainder, which is
 * always a valid decomposition though not always Shardy's shortest.
 * Emitted axis lists merge neighbouring pieces of one axis back.
 */
#include "passes/reshard_plan.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

typedef struct planner {
	const sl_context *ctx;
	const sl_mesh *mesh;
	uint32_t rank;
	sli_axis_vec *cur, *tgt;	/* pieces per dimension */
	bool switch_mesh;		/* a permute must still change the mesh */
	sli_rtc_plan *plan;
} planner;

/* ---- alignment into pieces ---- */

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

/* Adds the boundaries of every ref named `name` in lists v[0..rank). */
static void
add_bounds(const planner *P, const sl_axis_list *v, sl_sym name, sli_i64vec *b)
{
	for (uint32_t d = 0; d < P->rank; d++)
		for (uint32_t i = 0; i < v[d].n; i++)
			if (v[d].v[i].name == name) {
				SL_VEC_PUSH(*b, sli_axis_pre(&v[d].v[i]));
				SL_VEC_PUSH(*b, sli_axis_next(&v[d].v[i], P->mesh));
			}
}

/* Appends ref r cut at the boundaries of its axis to out. */
static void
cut(const planner *P, const sl_axis_ref *r, const sl_axis_list *in,
    const sl_axis_list *out, sli_axis_vec *dst)
{
	sli_i64vec b = {0};
	add_bounds(P, in, r->name, &b);
	add_bounds(P, out, r->name, &b);
	qsort(b.v, b.n, sizeof *b.v, cmp_i64);
	int64_t full = sli_mesh_axis_size(P->mesh, r->name);
	int64_t lo = sli_axis_pre(r), hi = sli_axis_next(r, P->mesh);
	for (size_t i = 0; i + 1 < b.n; i++) {
		int64_t a = b.v[i], z = b.v[i + 1];
		if (a == z || a < lo || z > hi)
			continue;
		sl_axis_ref p = a == 1 && z == full ? sli_axis_full(r->name) :
		                sli_axis_sub(r->name, a, z / a);
		SL_VEC_PUSH(*dst, p);
	}
	SL_VEC_FREE(b);
}

static int
pieces(const planner *P, const sl_axis_list *v, const sl_axis_list *in,
       const sl_axis_list *out, sli_axis_vec *dst)
{
	for (uint32_t d = 0; d < P->rank; d++)
		for (uint32_t i = 0; i < v[d].n; i++) {
			if (sli_mesh_axis_size(P->mesh, v[d].v[i].name) < 0)
				return -1;
			cut(P, &v[d].v[i], in, out, &dst[d]);
		}
	return 0;
}

/* ---- queries on the current state ---- */

static size_t
prefix(const planner *P, uint32_t d)
{
	size_t p = 0;
	while (p < P->cur[d].n && p < P->tgt[d].n &&
	       sli_axis_equal(&P->cur[d].v[p], &P->tgt[d].v[p]))
		p++;
	return p;
}

/* Whether piece r is in lists v; its place in *dim, *idx when so. */
static bool
find(const planner *P, const sli_axis_vec *v, const sl_axis_ref *r,
     uint32_t *dim, size_t *idx)
{
	for (uint32_t d = 0; d < P->rank; d++)
		for (size_t i = 0; i < v[d].n; i++)
			if (sli_axis_equal(&v[d].v[i], r)) {
				if (dim)
					*dim = d;
				if (idx)
					*idx = i;
				return true;
			}
	return false;
}

static int64_t
size_from(const planner *P, const sli_axis_vec *v, size_t from)
{
	return sli_axis_list_size(v->v + from, v->n - from, P->mesh);
}

static bool
done(const planner *P)
{
	if (P->switch_mesh)
		return false;
	for (uint32_t d = 0; d < P->rank; d++)
		if (prefix(P, d) != P->cur[d].n || P->cur[d].n != P->tgt[d].n)
			return false;
	return true;
}

/* ---- emitting steps ---- */

static sli_axis_vec *
vecs(uint32_t rank)
{
	return calloc(rank ? rank : 1, sizeof(sli_axis_vec));
}

/* Records a step of `kind` with per-dimension axes (taken over), the
 * current sharding merged as its result. */
static void
emit(planner *P, sl_op_kind kind, sli_axis_vec *axes, uint32_t src, uint32_t tgt)
{
	sli_rtc_step s = {kind, src, tgt, vecs(P->rank), vecs(P->rank), false};
	if (kind == SL_OP_SDY_COLLECTIVE_PERMUTE)
		P->switch_mesh = false;
	s.on_target_mesh = !P->switch_mesh;
	for (uint32_t d = 0; d < P->rank; d++) {
		for (size_t i = 0; axes && i < axes[d].n; i++)
			sli_axis_vec_add_or_merge(&s.axes[d], &axes[d].v[i], P->mesh);
		for (size_t i = 0; i < P->cur[d].n; i++)
			sli_axis_vec_add_or_merge(&s.after[d], &P->cur[d].v[i], P->mesh);
		if (axes)
			SL_VEC_FREE(axes[d]);
	}
	free(axes);
	SL_VEC_PUSH(P->plan->steps, s);
}

/* ---- the four collectives ---- */

static void
try_slice(planner *P)
{
	sli_axis_vec *axes = vecs(P->rank);
	bool any = false;
	for (uint32_t d = 0; d < P->rank; d++) {
		size_t p = prefix(P, d);
		if (p != P->cur[d].n)
			continue;
		for (size_t j = p; j < P->tgt[d].n; j++) {
			sl_axis_ref r = P->tgt[d].v[j];
			if (find(P, P->cur, &r, NULL, NULL))
				break;
			SL_VEC_PUSH(P->cur[d], r);
			SL_VEC_PUSH(axes[d], r);
			any = true;
		}
	}
	if (any)
		emit(P, SL_OP_SDY_ALL_SLICE, axes, 0, 0);
	else
		free(axes);
}

/* Whether target piece r is unused or in a current remainder. */
static bool
permutable(const planner *P, const sl_axis_ref *r)
{
	uint32_t d;
	size_t i;
	return !find(P, P->cur, r, &d, &i) || i >= prefix(P, d);
}

/* Whether one permute can reach the target from the current sharding. */
static bool
can_permute(const planner *P)
{
	for (uint32_t d = 0; d < P->rank; d++) {
		size_t p = prefix(P, d);
		if (size_from(P, &P->cur[d], p) != size_from(P, &P->tgt[d], p))
			return false;
		for (size_t j = p; j < P->tgt[d].n; j++)
			if (!permutable(P, &P->tgt[d].v[j]))
				return false;
	}
	return true;
}

static void
try_permute(planner *P)
{
	if (done(P))
		return;
	if (!can_permute(P)) {
		if (P->switch_mesh)
			emit(P, SL_OP_SDY_COLLECTIVE_PERMUTE, NULL, 0, 0);
		return;
	}
	for (uint32_t d = 0; d < P->rank; d++) {
		P->cur[d].n = 0;
		for (size_t j = 0; j < P->tgt[d].n; j++)
			SL_VEC_PUSH(P->cur[d], P->tgt[d].v[j]);
	}
	emit(P, SL_OP_SDY_COLLECTIVE_PERMUTE, NULL, 0, 0);
}

/* How many trailing pieces of dimension d can move to the end of their
 * target dimension *t in one all_to_all (0: none). */
static size_t
movable(const planner *P, uint32_t d, uint32_t *t)
{
	size_t p = prefix(P, d), n = P->cur[d].n, j;
	if (n == p || !find(P, P->tgt, &P->cur[d].v[n - 1], t, &j) || *t == d)
		return 0;
	size_t pt = prefix(P, *t);
	if (P->cur[*t].n != pt || j < pt || n - p < j - pt + 1)
		return 0;
	size_t k = j - pt + 1;
	for (size_t i = 0; i < k; i++)
		if (!sli_axis_equal(&P->cur[d].v[n - k + i], &P->tgt[*t].v[pt + i]))
			return 0;
	return k;
}

static bool
all_to_all_once(planner *P)
{
	for (uint32_t d = 0; d < P->rank; d++) {
		uint32_t t;
		size_t k = movable(P, d, &t);
		if (!k)
			continue;
		sli_axis_vec *axes = vecs(P->rank);
		size_t n = P->cur[d].n;
		for (size_t i = n - k; i < n; i++) {
			SL_VEC_PUSH(axes[0], P->cur[d].v[i]);
			SL_VEC_PUSH(P->cur[t], P->cur[d].v[i]);
		}
		P->cur[d].n -= k;
		emit(P, SL_OP_SDY_ALL_TO_ALL, axes, d, t);
		return true;
	}
	return false;
}

static void
try_all_to_alls(planner *P)
{
	while (all_to_all_once(P))
		;
}

/* Gathers per dimension the remainder's suffix the target does not use,
 * or with `all` the whole remainder. */
static void
gather(planner *P, bool all)
{
	sli_axis_vec *axes = vecs(P->rank);
	bool any = false;
	for (uint32_t d = 0; d < P->rank; d++) {
		size_t p = prefix(P, d), n = P->cur[d].n, k = n;
		while (k > p && (all || !find(P, P->tgt, &P->cur[d].v[k - 1], NULL, NULL)))
			k--;
		for (size_t i = k; i < n; i++)
			SL_VEC_PUSH(axes[d], P->cur[d].v[i]);
		any |= k < n;
		P->cur[d].n = k;
	}
	if (any)
		emit(P, SL_OP_SDY_ALL_GATHER, axes, 0, 0);
	else
		free(axes);
}

static void
run(planner *P)
{
	for (int round = 0; round < 2 && !done(P); round++) {
		try_slice(P);
		try_permute(P);
		try_all_to_alls(P);
		gather(P, false);
	}
	if (!done(P)) {
		gather(P, true);
		try_slice(P);
	}
}

int
sli_rtc_plan_build(const sl_context *ctx, const sl_mesh *mesh,
                   const sl_axis_list *in, const sl_axis_list *out,
                   uint32_t rank, bool switch_mesh, sli_rtc_plan *plan)
{
	planner P = {ctx, mesh, rank, vecs(rank), vecs(rank), switch_mesh, plan};
	plan->rank = rank;
	int rc = pieces(&P, in, in, out, P.cur) < 0 || pieces(&P, out, in, out, P.tgt) < 0 ? -1 : 0;
	if (rc == 0)
		run(&P);
	for (uint32_t d = 0; d < rank; d++) {
		SL_VEC_FREE(P.cur[d]);
		SL_VEC_FREE(P.tgt[d]);
	}
	free(P.cur);
	free(P.tgt);
	return rc;
}

static void
free_vecs(sli_axis_vec *v, uint32_t rank)
{
	for (uint32_t d = 0; v && d < rank; d++)
		SL_VEC_FREE(v[d]);
	free(v);
}

void
sli_rtc_plan_fini(sli_rtc_plan *plan)
{
	for (size_t i = 0; i < plan->steps.n; i++) {
		free_vecs(plan->steps.v[i].axes, plan->rank);
		free_vecs(plan->steps.v[i].after, plan->rank);
	}
	SL_VEC_FREE(plan->steps);
}
