/*
 * axes.c - the model's axes (shardlp-cost(7), "The model of a program"):
 * the one mesh with axes of the module, each of its axes whole or, with
 * --sub-axes, split into prime pieces between the places where the
 * module's sub-axes start and end; each axis' bandwidth and latency.
 */
#include "cost/axes.h"
#include "util/checked.h"

#include <stdlib.h>
#include <string.h>

#include "ir/axis.h"

/* A mesh with axes; with big, one with an axis that can shard (size > 1). */
static const sl_mesh *
mesh_of(const sl_op *op, bool big)
{
	sl_attr *a = op->kind == SL_OP_SDY_MESH ? sli_op_get(op, SLS_mesh) : NULL;
	if (!a || a->kind != SL_ATTR_MESH || a->u.mesh.naxes == 0)
		return NULL;
	for (uint32_t k = 0; big && k < a->u.mesh.naxes; k++)
		if (a->u.mesh.axes[k].size > 1)
			return &a->u.mesh;
	return big ? NULL : &a->u.mesh;
}

/* {--------------------------------------------------------------------
 * Sub-axes: the pieces each mesh axis is split into
 * --------------------------------------------------------------------- */

#define MAX_CUTS 16

/* Where the sub-axes written in the module start and end, per mesh axis. */
typedef struct cuts {
	const sl_mesh *mesh;
	int64_t at[SLI_COST_MAX_AXES][MAX_CUTS];
	uint32_t n[SLI_COST_MAX_AXES];
} cuts;

static void
cut_ref(cuts *c, const sl_axis_ref *r)
{
	if (!r->sub)
		return;
	int x = sli_mesh_axis_index(c->mesh, r->name);
	if (x < 0)
		return;
	int64_t ends[2] = {r->pre, sli_mul_i64_sat(r->pre, r->size)};
	for (int e = 0; e < 2; e++) {
		bool have = false;
		for (uint32_t k = 0; k < c->n[x]; k++)
			have |= c->at[x][k] == ends[e];
		if (!have && c->n[x] < MAX_CUTS)
			c->at[x][c->n[x]++] = ends[e];
	}
}

static void
cut_list(cuts *c, const sl_axis_list *l)
{
	for (uint32_t k = 0; k < l->n; k++)
		cut_ref(c, &l->v[k]);
}

static void
cut_sharding(cuts *c, const sl_sharding *s)
{
	for (uint32_t d = 0; d < s->rank; d++)
		cut_list(c, &s->dims[d].axes);
	cut_list(c, &s->replicated);
	cut_list(c, &s->unreduced);
}

/* One attribute of an sli_attr_visit walk. */
static void
cut_one(const sl_attr *a, void *ud)
{
	if (a->kind == SL_ATTR_SHARDING)
		cut_sharding(ud, &a->u.sharding);
	else if (a->kind == SL_ATTR_SHARDING_PER_VALUE)
		for (uint32_t i = 0; i < a->u.spv.n; i++)
			cut_sharding(ud, a->u.spv.v[i]);
}

static void
cut_attr(cuts *c, const sl_attr *a)
{
	sli_attr_visit(a, cut_one, c);
}

static void
cut_block(cuts *c, const sl_block *b)
{
	for (uint32_t i = 0; i < b->nargs; i++)
		for (uint32_t k = 0; k < b->args[i].nattrs; k++)
			cut_attr(c, b->args[i].attrs[k].attr);
	for (const sl_op *op = b->first; op; op = op->next) {
		for (uint32_t k = 0; k < op->nattrs; k++)
			cut_attr(c, op->attrs[k].attr);
		for (uint32_t k = 0; k < op->nprops; k++)
			cut_attr(c, op->props[k].attr);
		for (uint32_t r = 0; r < op->nregions; r++)
			for (const sl_block *inner = op->regions[r].first; inner;
			     inner = inner->next)
				cut_block(c, inner);
	}
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/*
 * Splits n (a factor of an axis between two cuts) into its prime factors,
 * smallest first, onto piece[*np..] (at most `room` of them; the rest of
 * n goes whole into the last).  Factors past 65535 stay whole.
 */
static void
split_primes(int64_t n, int64_t *piece, uint32_t *np, uint32_t room)
{
	uint32_t k = 0;
	for (int64_t p = 2; p * p <= n && p < 65536 && k + 1 < room; p++)
		while (n % p == 0 && k + 1 < room) {
			piece[(*np)++] = p;
			n /= p;
			k++;
		}
	if (n > 1 || k == 0)
		piece[(*np)++] = n;
}

/* The places where the sub-axes of module m start and end, added to c. */
static void
cut_module(cuts *c, const sl_module *m)
{
	for (uint32_t r = 0; m->top && r < m->top->nregions; r++)
		for (const sl_block *blk = m->top->regions[r].first; blk; blk = blk->next)
			cut_block(c, blk);
}

/*
 * The pieces of each mesh axis, in device order: the axis itself, or with
 * sub_axes its prime factors, taken smallest first between the places
 * where the module's sub-axes start and end (so that "x":(1)2, "x":(2)2
 * of an axis of 4 are two model axes, and "x":(3)2 of an axis of 6 is
 * one); a place that does not divide the next (another sub-axis of the
 * same axis crosses it) is left out and that sub-axis stays outside the
 * model.  The sub-axes of the modules in params.cut_by (greedy results)
 * cut the axes too, and without sub_axes only they do, into the pieces
 * between their cuts (so that greedy's "y":(1)4 of "y"=8 is a model axis
 * and greedy's result a point of the model).  At most SLI_COST_MAX_AXES
 * pieces in all: past that, the last two pieces of the axis with the most
 * are joined, and a warning says so.
 */
static void
split_axes(sli_cost_model *cm, sl_context *ctx, const sl_mesh *mesh,
           int64_t piece[SLI_COST_MAX_AXES][SLI_COST_MAX_AXES],
           uint32_t npiece[SLI_COST_MAX_AXES])
{
	uint32_t total = 0;
	cuts c;
	memset(&c, 0, sizeof c);
	c.mesh = mesh;
	bool primes = cm->params.sub_axes;
	if (primes)
		cut_module(&c, cm->m);
	for (uint32_t k = 0; k < cm->params.ncut_by; k++)
		if (cm->params.cut_by[k] && cm->params.cut_by[k]->ctx == cm->m->ctx)
			cut_module(&c, cm->params.cut_by[k]);
	for (uint32_t x = 0; x < mesh->naxes; x++) {
		int64_t n = mesh->axes[x].size;
		npiece[x] = 0;
		if ((!primes && !c.n[x]) || n <= 1) {
			piece[x][npiece[x]++] = n;
			total++;
			continue;
		}
		/* the cuts that keep a chain 1 | c1 | c2 | ... | n */
		qsort(c.at[x], c.n[x], sizeof c.at[x][0], cmp_i64);
		int64_t last = 1;
		for (uint32_t k = 0; k < c.n[x]; k++) {
			int64_t at = c.at[x][k];
			if (at <= last || at >= n || at % last || n % at ||
			    npiece[x] + 1 >= SLI_COST_MAX_AXES)
				continue;
			split_primes(at / last, piece[x], &npiece[x],
			             primes ? SLI_COST_MAX_AXES - 1 - npiece[x] : 1);
			last = at;
		}
		split_primes(n / last, piece[x], &npiece[x],
		             primes ? SLI_COST_MAX_AXES - npiece[x] : 1);
		total += npiece[x];
	}
	if (total > SLI_COST_MAX_AXES && cm->params.report)
		sli_diag(ctx, SL_DIAG_WARNING, sli_loc_none(), "--sub-axes: %u "
		         "pieces of the mesh axes, the model takes %d; the largest "
		         "axes are split less finely", total, SLI_COST_MAX_AXES);
	while (total > SLI_COST_MAX_AXES) {
		uint32_t w = 0;
		for (uint32_t x = 1; x < mesh->naxes; x++)
			if (npiece[x] > npiece[w])
				w = x;
		npiece[w]--;
		piece[w][npiece[w] - 1] *= piece[w][npiece[w]];
		total--;
	}
}

/* }-------------------------------------------------------------------- */

int
sli_cost_find_mesh(sli_cost_model *cm, sl_context *ctx, sl_block *body)
{
	const sl_mesh *mesh = NULL;
	bool big = false;
	for (sl_op *op = body->first; op; op = op->next)
		if (op->kind == SL_OP_MODULE) {
			/* each has its own symbols: programs of their own */
			sli_error(ctx, op->loc, "a module inside the module: the cost model "
			          "takes one program (for a file of several, separated by "
			          "'// -----' lines, use --split-input-file)");
			return -1;
		}
	for (sl_op *op = body->first; op && !big; op = op->next)
		big = mesh_of(op, true) != NULL;
	for (sl_op *op = body->first; op; op = op->next) {
		if (!mesh_of(op, big))
			continue;
		sl_attr *a = sli_op_get(op, SLS_mesh);
		if (mesh) {
			sli_error(ctx, op->loc, "the cost model takes one mesh with "
			          "axes; found a second one");
			return -1;
		}
		mesh = &a->u.mesh;
		cm->mesh_name = sli_op_sym_name(cm->m, op);
	}
	if (!mesh) {
		sli_error(ctx, cm->m->top ? cm->m->top->loc : sli_loc_none(),
		          "no sdy.mesh with axes: nothing to shard over (--mesh "
		          "AXIS=SIZE,... gives the program one)");
		return -1;
	}
	if (mesh->naxes > SLI_COST_MAX_AXES) {
		sli_error(ctx, sli_loc_none(), "mesh of %u axes: the cost model "
		          "takes %d at most", mesh->naxes, SLI_COST_MAX_AXES);
		return -1;
	}
	cm->mesh = mesh;
	int64_t piece[SLI_COST_MAX_AXES][SLI_COST_MAX_AXES];
	uint32_t npiece[SLI_COST_MAX_AXES];
	split_axes(cm, ctx, mesh, piece, npiece);
	cm->naxes = 0;
	for (uint32_t x = 0; x < mesh->naxes; x++) {
		double bw = cm->params.bandwidth > 0 ? cm->params.bandwidth
		                                     : SLI_COST_DEFAULT_BANDWIDTH;
		double lat = cm->params.latency;
		for (uint32_t k = 0; k < cm->params.naxes; k++) {
			const sli_cost_axis *p = &cm->params.axes[k];
			if (strcmp(p->name, sl_sym_str(ctx, mesh->axes[x].name)))
				continue;
			if (p->bandwidth > 0)
				bw = p->bandwidth;
			if (p->latency >= 0)
				lat = p->latency;
		}
		int64_t pre = 1;
		for (uint32_t k = 0; k < npiece[x]; k++) {
			uint32_t a = cm->naxes++;
			cm->axis_name[a] = mesh->axes[x].name;
			cm->axis_whole[a] = mesh->axes[x].size;
			cm->axis_pre[a] = pre;
			cm->axis_size[a] = piece[x][k];
			cm->axis_bw[a] = bw;
			cm->axis_lat[a] = lat;
			pre *= piece[x][k];
		}
	}
	return 0;
}
