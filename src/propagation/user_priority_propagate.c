/*
 * user_priority_propagate.c - the sdy-user-priority-propagate pass
 * (spec/propagation.md section 6): dimensions with priority p > 0 are
 * closed and their axes reserved as replicated until round p, and one
 * op-priority propagation runs per distinct priority, lowest first.
 */
#include "propagation/prop_internal.h"

#include <stdlib.h>
#include <string.h>

/* A value (or function result) whose original sharding has priorities. */
typedef struct uref {
	sl_value *v;
	sl_op *func;
	uint32_t res;
	const sl_sharding *orig;
} uref;

typedef struct bucket {
	int64_t prio;
	SL_VEC(uref) refs;
} bucket;

typedef struct upstate {
	sli_prop *P;
	SL_VEC(bucket) buckets;
} upstate;

static bucket *
bucket_for(upstate *u, int64_t prio)
{
	size_t i = 0;
	while (i < u->buckets.n && u->buckets.v[i].prio < prio)
		i++;
	if (i < u->buckets.n && u->buckets.v[i].prio == prio)
		return &u->buckets.v[i];
	bucket b;
	memset(&b, 0, sizeof b);
	b.prio = prio;
	SL_VEC_PUSH(u->buckets, b);
	memmove(&u->buckets.v[i + 1], &u->buckets.v[i],
	        sizeof b * (u->buckets.n - 1 - i));
	u->buckets.v[i] = b;
	return &u->buckets.v[i];
}

static const sl_sharding *
get_ref(sli_prop *P, const uref *r)
{
	return r->v ? sli_prop_get(P, r->v) : sli_prop_func_result(P, r->func, r->res);
}

static void
set_ref(sli_prop *P, const uref *r, const sl_sharding *s)
{
	if (r->v)
		sli_prop_set(P, r->v, s);
	else
		sli_prop_set_func_result(P, r->func, r->res, s);
}

static sl_sharding *
copy_sharding(sl_module *m, const sl_sharding *s)
{
	sl_sharding *o = SL_NEW(&m->arena, sl_sharding);
	*o = *s;
	o->dims = SL_NEWN(&m->arena, sl_dim_sharding, s->rank ? s->rank : 1);
	memcpy(o->dims, s->dims, sizeof *s->dims * s->rank);
	return o;
}

/* Spec 6.1: records the references of s and writes its round-0 form. */
static void
init_one(upstate *u, uref r, const sl_sharding *s)
{
	sli_prop *P = u->P;
	sl_module *m = sli_prop_module(P);
	if (!s)
		return;
	bool any = false;
	for (uint32_t d = 0; d < s->rank; d++)
		any |= s->dims[d].priority != SL_NO_PRIORITY;
	if (!any)
		return;
	r.orig = s;
	for (uint32_t d = 0; d < s->rank; d++) {
		int64_t p = s->dims[d].priority;
		if (p <= 0)
			continue;
		bool seen = false;
		for (uint32_t e = 0; e < d; e++)
			seen |= s->dims[e].priority == p;
		if (!seen)
			SL_VEC_PUSH(bucket_for(u, p)->refs, r);
	}
	sl_sharding *n = copy_sharding(m, s);
	SL_VEC(sl_axis_ref) rep = {0};
	for (uint32_t i = 0; i < s->replicated.n; i++)
		SL_VEC_PUSH(rep, s->replicated.v[i]);
	for (uint32_t d = 0; d < s->rank; d++) {
		if (s->dims[d].priority > 0) {
			for (uint32_t i = 0; i < s->dims[d].axes.n; i++)
				SL_VEC_PUSH(rep, s->dims[d].axes.v[i]);
			n->dims[d].axes.v = NULL;
			n->dims[d].axes.n = 0;
			n->dims[d].open = false;
		}
		n->dims[d].priority = SL_NO_PRIORITY;
	}
	const sl_mesh *mesh = sli_prop_mesh_of(P, s);
	if (mesh && rep.n)
		sli_axis_mesh_sort(m->ctx, mesh, rep.v, rep.n);
	n->replicated.n = (uint32_t)rep.n;
	n->replicated.v = rep.n ? sli_arena_dup(&m->arena, rep.v, sizeof *rep.v * rep.n) : NULL;
	SL_VEC_FREE(rep);
	set_ref(P, &r, n);
}

static void
init_walk(upstate *u)
{
	sli_prop *P = u->P;
	for (uint32_t i = 0; i < P->nops; i++) {
		/* no sharding on an op the index saw without attributes, unless
		 * an edge holds it: its results are not even looked at */
		if (!P->edge && !(P->opclass[i] & SLI_OPCLASS_ATTRS))
			continue;
		sl_op *op = P->ops[i];
		if (op->kind == SL_OP_FUNC) {
			sl_block *b = op->nregions ? op->regions[0].first : NULL;
			for (uint32_t a = 0; b && a < b->nargs; a++) {
				uref r = {&b->args[a], NULL, 0, NULL};
				init_one(u, r, sli_prop_get(P, &b->args[a]));
			}
			sl_attr *ft = sli_op_get(op, SLS_function_type);
			uint32_t nres = ft && ft->kind == SL_ATTR_TYPE ? ft->u.type->nres : 0;
			for (uint32_t k = 0; k < nres; k++) {
				uref r = {NULL, op, k, NULL};
				init_one(u, r, sli_prop_func_result(P, op, k));
			}
			continue;
		}
		for (uint32_t k = 0; k < op->nresults; k++) {
			sl_value *v = &op->results[k];
			if (sli_prop_is_edge_target(P, v))
				continue;
			uref r = {v, NULL, 0, NULL};
			init_one(u, r, sli_prop_get(P, v));
		}
	}
}

/* Spec 6.2: restores the dimensions of priority prio. */
static void
restore(sli_prop *P, const uref *r, int64_t prio)
{
	sl_module *m = sli_prop_module(P);
	const sl_sharding *cur = get_ref(P, r);
	if (!cur || cur->rank != r->orig->rank)
		return;
	sl_sharding *n = copy_sharding(m, cur);
	for (uint32_t d = 0; d < n->rank; d++) {
		if (r->orig->dims[d].priority != prio)
			continue;
		n->dims[d] = r->orig->dims[d];
		n->dims[d].priority = SL_NO_PRIORITY;
	}
	sl_axis_list rep = {NULL, 0};
	if (cur->replicated.n)
		rep.v = SL_NEWN(&m->arena, sl_axis_ref, cur->replicated.n);
	for (uint32_t i = 0; i < cur->replicated.n; i++) {
		bool restored = false;
		for (uint32_t d = 0; d < n->rank && !restored; d++) {
			if (r->orig->dims[d].priority != prio)
				continue;
			for (uint32_t k = 0; k < n->dims[d].axes.n; k++)
				restored |= sli_axis_equal(&n->dims[d].axes.v[k], &cur->replicated.v[i]);
		}
		if (!restored)
			rep.v[rep.n++] = cur->replicated.v[i];
	}
	n->replicated = rep;
	set_ref(P, r, n);
}

void
sli_prop_user_priority(sli_prop *P)
{
	upstate u;
	memset(&u, 0, sizeof u);
	u.P = P;
	init_walk(&u);
	sli_prop_op_priority(P);
	int64_t prev = 0;
	for (size_t b = 0; b < u.buckets.n; b++) {
		char name[64];
		snprintf(name, sizeof name, "propagation_after_user_priority_%lld", (long long)prev);
		sli_prop_dump(P, name);
		for (size_t i = 0; i < u.buckets.v[b].refs.n; i++)
			restore(P, &u.buckets.v[b].refs.v[i], u.buckets.v[b].prio);
		sli_prop_op_priority(P);
		prev = u.buckets.v[b].prio;
	}
	for (size_t b = 0; b < u.buckets.n; b++)
		SL_VEC_FREE(u.buckets.v[b].refs);
	SL_VEC_FREE(u.buckets);
}

int
sli_pass_user_priority_propagate(sl_module *m, const sli_pass_opts *opts)
{
	sli_prop_opts o;
	if (sli_prop_opts_parse(m, opts, SLI_PROP_USER_PRIORITY, &o))
		return -1;
	return sli_propagate(m, &o);
}
