/*
 * axes.c - the model's axes (shardlp-cost(7), "The model of a program"
 * and "Several meshes"): the meshes with axes that the module's shardings
 * name (none named: the first), their axes one after the other, each
 * whole or, with --sub-axes, split into prime pieces between the places
 * where the module's sub-axes start and end; each axis' bandwidth and
 * latency.  Axes of different meshes are different model axes even when
 * their names agree: a sharding or an op uses those of one mesh, and a
 * tensor moving between meshes is gathered on its own and sliced on the
 * other's (the meshes are taken to span the same devices).
 */
#include "cost/axes.h"
#include "util/checked.h"

#include <stdlib.h>
#include <string.h>

#include "ir/axis.h"
#include "ir/type.h"
#include "rules/rules.h"

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

/*
 * Where the sub-axes written in the module on mesh `name` start and end,
 * per mesh axis; and the meshes its shardings name (used, nused).
 */
typedef struct cuts {
	const sl_mesh *mesh;
	sl_sym name;
	sl_sym used[SLI_COST_MAX_AXES];
	uint32_t nused;
	int64_t at[SLI_COST_MAX_AXES][MAX_CUTS];
	uint32_t n[SLI_COST_MAX_AXES];
	/*
	 * With fits set (--sub-axes), the module's dimension and reshape
	 * factor sizes also place cuts (fit, nfit): where a part of the axis
	 * fits a size the whole does not divide; a size that places more than
	 * MAX_CUTS sets full (the axis is split into primes).
	 */
	sli_cost_model *fits;
	int64_t fit[SLI_COST_MAX_AXES][MAX_CUTS];
	uint32_t nfit[SLI_COST_MAX_AXES];
	bool full[SLI_COST_MAX_AXES];
} cuts;

/* Adds place `at` to the list l of *n places (no duplicate); false: full. */
static bool
add_place(int64_t *l, uint32_t *n, int64_t at)
{
	for (uint32_t k = 0; k < *n; k++)
		if (l[k] == at)
			return true;
	if (*n >= MAX_CUTS)
		return false;
	l[(*n)++] = at;
	return true;
}

/*
 * The places a dimension or factor of size s cuts each mesh axis of n:
 * at gcd(n, s), the largest part of the axis that divides s, and (unless
 * conservative) at the largest divisor of n not above s when s < n, the
 * largest part that fits s with padding.
 */
static void
fit_size(cuts *c, int64_t s)
{
	if (s <= 1)
		return;
	for (uint32_t x = 0; x < c->mesh->naxes; x++) {
		int64_t n = c->mesh->axes[x].size, g = sli_gcd64(n, s);
		if (g > 1 && g < n)
			c->full[x] |= !add_place(c->fit[x], &c->nfit[x], g);
		if (c->fits->params.conservative || s >= n)
			continue;
		int64_t d = s;
		while (d > 1 && n % d)
			d--;
		if (d > 1)
			c->full[x] |= !add_place(c->fit[x], &c->nfit[x], d);
	}
}

static void
fit_value(cuts *c, const sl_value *v)
{
	const sl_type *t = v->type;
	if (!t || !sli_type_is_static(t))
		return;
	for (uint32_t d = 0; d < t->rank; d++)
		fit_size(c, t->dims[d]);
}

/* A reshape's factors, which split its dimensions (256 -> 4x64: 4). */
static void
fit_reshape(cuts *c, const sl_op *op)
{
	sli_rule_opts ro;
	sl_rule rule;
	memset(&ro, 0, sizeof ro);
	ro.conservative = c->fits->params.conservative;
	ro.arena = &c->fits->arena;
	if (sli_rule_for_op(c->fits->m, op, &ro, &rule) == SLI_RULE_FOUND)
		for (uint32_t f = 0; f < rule.nfactors; f++)
			fit_size(c, rule.factor_sizes[f]);
	sli_rule_opts_fini(&ro);
}

/* The sizes of op's results, and of its factors if it is a reshape. */
static void
fit_op(cuts *c, const sl_op *op)
{
	for (uint32_t i = 0; i < op->nresults; i++)
		fit_value(c, &op->results[i]);
	if (op->kind == SL_OP_RESHAPE)
		fit_reshape(c, op);
}

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
	bool seen = false;
	for (uint32_t k = 0; k < c->nused; k++)
		seen |= c->used[k] == s->mesh_name;
	if (!seen && s->mesh_name && c->nused < SLI_COST_MAX_AXES)
		c->used[c->nused++] = s->mesh_name;
	if (s->mesh_name != c->name)
		return;	/* another mesh's axes, or an inline mesh */
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
	for (uint32_t i = 0; i < b->nargs; i++) {
		uint32_t n;
		const sl_named_attr *a = sli_arg_attrs(&b->args[i], &n);
		for (uint32_t k = 0; k < n; k++)
			cut_attr(c, a[k].attr);
		if (c->fits)
			fit_value(c, &b->args[i]);
	}
	for (const sl_op *op = b->first; op; op = op->next) {
		if (c->fits)
			fit_op(c, op);
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

/* Every sharding of the module's functions into c. */
static void
cut_module(cuts *c, const sl_module *m)
{
	for (uint32_t r = 0; m->top && r < m->top->nregions; r++)
		for (const sl_block *blk = m->top->regions[r].first; blk; blk = blk->next)
			cut_block(c, blk);
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

/*
 * Whether the places that cut mesh axis x of size n (the module's and
 * greedy's sub-axes, the sizes that fit) form a chain 1 | c1 | ... | n;
 * if so they become c->at[x], the places the axis is cut at.
 */
static bool
fits_chain(cuts *c, uint32_t x, int64_t n)
{
	if (c->full[x])
		return false;
	int64_t at[MAX_CUTS];
	uint32_t m = 0;
	for (uint32_t k = 0; k < c->n[x] + c->nfit[x]; k++) {
		int64_t p = k < c->n[x] ? c->at[x][k] : c->fit[x][k - c->n[x]];
		if (p > 1 && p < n && !add_place(at, &m, p))
			return false;
	}
	qsort(at, m, sizeof at[0], cmp_i64);
	int64_t last = 1;
	for (uint32_t k = 0; k < m; last = at[k++])
		if (at[k] % last)
			return false;
	if (n % last)
		return false;
	memcpy(c->at[x], at, m * sizeof at[0]);
	c->n[x] = m;
	return true;
}

/*
 * The pieces of each mesh axis, in device order: the axis itself, or with
 * sub_axes the pieces between the places where a part of the axis fits
 * a dimension or reshape factor the whole does not divide (fit_size) and
 * where the module's sub-axes start and end, when those places form a
 * chain (x=8 with heads of 4: "x":(1)4 and "x":(4)2); when they do not
 * (x=6 with sizes 2 and 3) the axis' prime factors, taken smallest first
 * between the places where the module's sub-axes start and end (so that
 * "x":(1)2, "x":(2)2 of an axis of 4 are two model axes, and "x":(3)2 of
 * an axis of 6 is one); a place that does not divide the next (another
 * sub-axis of the same axis crosses it) is left out and that sub-axis
 * stays outside the model.  The sub-axes of the modules in
 * params.cut_by (greedy results)
 * cut the axes too, and without sub_axes only they do, into the pieces
 * between their cuts (so that greedy's "y":(1)4 of "y"=8 is a model axis
 * and greedy's result a point of the model).  At most SLI_COST_MAX_AXES
 * pieces in all: past that, the last two pieces of the axis with the most
 * are joined, and a warning says so.
 */
static void
split_axes(sli_cost_model *cm, sl_context *ctx, uint32_t mi,
           int64_t piece[SLI_COST_MAX_AXES][SLI_COST_MAX_AXES],
           uint32_t npiece[SLI_COST_MAX_AXES], uint32_t room)
{
	const sl_mesh *mesh = cm->meshes[mi];
	uint32_t total = 0;
	cuts c;
	memset(&c, 0, sizeof c);
	c.mesh = mesh;
	c.name = cm->mesh_names[mi];
	bool sub = cm->params.sub_axes;
	if (sub) {
		c.fits = cm;
		cut_module(&c, cm->m);
		c.fits = NULL;
	}
	for (uint32_t k = 0; k < cm->params.ncut_by; k++)
		if (cm->params.cut_by[k] && cm->params.cut_by[k]->ctx == cm->m->ctx)
			cut_module(&c, cm->params.cut_by[k]);
	const sli_cost_model *like = cm->params.like;
	for (uint32_t a = 0; like && a < like->naxes; a++) {
		int x = sli_mesh_axis_index(mesh, like->axis_name[a]);
		if (like->mesh_names[like->axis_mesh[a]] == c.name && x >= 0 &&
		    like->axis_pre[a] > 1)
			add_place(c.at[x], &c.n[x], like->axis_pre[a]);
	}
	for (uint32_t x = 0; x < mesh->naxes; x++) {
		int64_t n = mesh->axes[x].size;
		npiece[x] = 0;
		bool primes = sub && (cm->params.sub_axes_primes || !fits_chain(&c, x, n));
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
	if (total > room && cm->params.report)
		sli_diag(ctx, SL_DIAG_WARNING, sli_loc_none(), "--sub-axes: %u "
		         "pieces of the mesh axes, the model takes %u; the largest "
		         "axes are split less finely", total, room);
	while (total > room) {
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

/* Whether the module's shardings name mesh `name`. */
static bool
named(const cuts *used, sl_sym name)
{
	for (uint32_t k = 0; k < used->nused; k++)
		if (used->used[k] == name)
			return true;
	return false;
}

/*
 * The meshes of the model into cm: those with axes (with an axis of size
 * above 1, when one has) that some sharding names, or the first of them
 * when no sharding names one; so that the model of a solved module, whose
 * shardings name only the model's meshes, is the model it was solved in.
 * Returns 0, or -1 after an error.
 */
static int
find_meshes(sli_cost_model *cm, sl_context *ctx, sl_block *body)
{
	bool big = false, any_named = false;
	uint32_t total = 0;
	cuts used;
	memset(&used, 0, sizeof used);
	cut_module(&used, cm->m);
	for (sl_op *op = body->first; op && !big; op = op->next)
		big = mesh_of(op, true) != NULL;
	for (sl_op *op = body->first; op; op = op->next)
		any_named |= mesh_of(op, big) && named(&used, sli_op_sym_name(cm->m, op));
	for (sl_op *op = body->first; op; op = op->next) {
		const sl_mesh *mesh = mesh_of(op, big);
		sl_sym name = sli_op_sym_name(cm->m, op);
		if (!mesh || (any_named ? !named(&used, name) : cm->nmeshes > 0))
			continue;
		total += mesh->naxes;
		if (total > SLI_COST_MAX_AXES) {
			if (cm->nmeshes == 0)
				sli_error(ctx, sli_loc_none(), "mesh of %u axes: the cost "
				          "model takes %d at most", mesh->naxes,
				          SLI_COST_MAX_AXES);
			else
				sli_error(ctx, op->loc, "meshes of %u axes in all: the "
				          "cost model takes %d at most", total,
				          SLI_COST_MAX_AXES);
			return -1;
		}
		cm->meshes[cm->nmeshes] = mesh;
		cm->mesh_names[cm->nmeshes++] = name;
	}
	if (cm->nmeshes) {
		cm->mesh = cm->meshes[0];
		cm->mesh_name = cm->mesh_names[0];
		return 0;
	}
	/* maximal or empty meshes only: a model without axes, one sharding
	 * per tensor, its compute and memory priced */
	for (sl_op *op = body->first; op; op = op->next)
		if (op->kind == SL_OP_SDY_MESH)
			return 0;
	sli_error(ctx, cm->m->top ? cm->m->top->loc : sli_loc_none(),
	          "no sdy.mesh with axes: nothing to shard over (--mesh "
	          "AXIS=SIZE,... gives the program one)");
	return -1;
}

/* The links of mesh axis x of mesh: the cluster's, by axis name. */
static void
axis_link(const sli_cost_model *cm, sl_context *ctx, const sl_mesh *mesh,
          uint32_t x, double *bw, double *lat)
{
	*bw = cm->params.bandwidth > 0 ? cm->params.bandwidth
	                               : SLI_COST_DEFAULT_BANDWIDTH;
	*lat = cm->params.latency;
	for (uint32_t k = 0; k < cm->params.naxes; k++) {
		const sli_cost_axis *p = &cm->params.axes[k];
		if (strcmp(p->name, sl_sym_str(ctx, mesh->axes[x].name)))
			continue;
		if (p->bandwidth > 0)
			*bw = p->bandwidth;
		if (p->latency >= 0)
			*lat = p->latency;
	}
}

bool
sli_cost_axes_alike(const sli_cost_model *cm, uint32_t a, uint32_t b)
{
	return cm->axis_size[a] == cm->axis_size[b] && cm->axis_bw[a] == cm->axis_bw[b] &&
	       cm->axis_lat[a] == cm->axis_lat[b];
}

int
sli_cost_find_mesh(sli_cost_model *cm, sl_context *ctx, sl_block *body)
{
	for (sl_op *op = body->first; op; op = op->next)
		if (op->kind == SL_OP_MODULE) {
			/* each has its own symbols: programs of their own */
			sli_error(ctx, op->loc, "a module inside the module: the cost model "
			          "takes one program (for a file of several, separated by "
			          "'// -----' lines, use --split-input-file)");
			return -1;
		}
	if (find_meshes(cm, ctx, body))
		return -1;
	uint32_t left = 0;	/* axes of the meshes not split yet */
	for (uint32_t mi = 0; mi < cm->nmeshes; mi++)
		left += cm->meshes[mi]->naxes;
	cm->naxes = 0;
	for (uint32_t mi = 0; mi < cm->nmeshes; mi++) {
		const sl_mesh *mesh = cm->meshes[mi];
		int64_t piece[SLI_COST_MAX_AXES][SLI_COST_MAX_AXES];
		uint32_t npiece[SLI_COST_MAX_AXES];
		left -= mesh->naxes;
		split_axes(cm, ctx, mi, piece, npiece, SLI_COST_MAX_AXES - cm->naxes - left);
		for (uint32_t x = 0; x < mesh->naxes; x++) {
			double bw, lat;
			axis_link(cm, ctx, mesh, x, &bw, &lat);
			int64_t pre = 1;
			for (uint32_t k = 0; k < npiece[x]; k++) {
				uint32_t a = cm->naxes++;
				cm->axis_name[a] = mesh->axes[x].name;
				cm->axis_whole[a] = mesh->axes[x].size;
				cm->axis_pre[a] = pre;
				cm->axis_size[a] = piece[x][k];
				cm->axis_bw[a] = bw;
				cm->axis_lat[a] = lat;
				cm->axis_mesh[a] = (uint8_t)mi;
				cm->mesh_axes[mi] |= 1u << a;
				pre *= piece[x][k];
			}
		}
	}
	return 0;
}
