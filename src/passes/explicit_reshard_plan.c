/*
 * explicit_reshard_plan.c - the reshards and all-reduces one op needs
 * (explicit_reshard_plan.h), as -sdy-insert-explicit-reshards decides them
 * in its full version (sdy_export_passes.md).
 *
 * The op's shardings are projected onto the factors of its rule (a
 * missing sharding counts as closed and replicated).  One sharding per
 * factor is then chosen ("common axes"), every tensor whose projection
 * differs from it (or that has overflow axes, or whose mesh has other
 * device ids) is resharded: an operand before the op, a result by giving
 * the op the common sharding and resharding back after it.  Results are
 * all-reduced over the axes of the reduction factors that the first
 * result does not keep unreduced (sorted in mesh order and merged).
 *
 * Choosing the common axes:
 *
 *   - Unary ops (exactly two tensors of rank > 0, no need-replication
 *     factor, no dimension with several factors): one tensor keeps its
 *     sharding, the preferred one by, in order, having no sharded
 *     permutation factor, more elements, a larger sharded size (ties: the
 *     operand).  The other tensor's factors that the preferred tensor
 *     lacks keep their axes up to the first one overlapping the
 *     preferred tensor's axes.
 *
 *   - Otherwise a greedy choice over (factor, axes) candidates: each
 *     non-empty prefix of a factor's axes in some tensor.  A candidate
 *     scores, compared in this order: the summed elements of the tensors
 *     it comes from; the factor kind
 *     (pass-through > reduction > permutation); the largest local size
 *     of a tensor holding the factor; the sharded size it adds; then the
 *     higher factor index and the longer axes.  The best candidate is
 *     taken; candidates of its factor that do not extend it are dropped,
 *     candidates of other factors are cut before their first axis
 *     overlapping it (dropped when nothing new is left), and the scores
 *     are recomputed (local sizes now divide each tensor by what its
 *     factors got; a cut or extending candidate counts only what it adds
 *     beyond its factor's current axes, any other candidate its whole
 *     size).  A factor that follows another in some dimension is not a
 *     candidate until that other factor is fully sharded (no strided
 *     views).  Then the axes chosen for each need-replication factor are
 *     taken off it and, when it is in every tensor of rank > 0, moved
 *     onto the batching factors (pass-through factors in every such
 *     tensor), in factor order, as long as the factor's size stays a
 *     multiple of what it is sharded by; axes that fit nowhere are
 *     dropped (the sort cases show this, where Shardy's description
 *     speaks of a common prefix).
 *
 * A reshape whose projection has overflow axes (a dimension's axes that
 * its factors cannot take) is planned apart (choose_reshape): the axes
 * of the side with the larger sharded size (overflow axes not counted;
 * ties: the operand) are handed out again to the factors of each side,
 * major to minor, each factor taking from each remaining piece the part
 * its remaining size shares with it (pieces that share nothing are
 * skipped, what is left overflows the last factor); the two shardings
 * this gives are projected again and each factor keeps the common prefix
 * of what the two sides give it.  A tensor is then resharded when its
 * dimensions differ from its own sharding's.
 *
 * Without the full version nothing is resharded except the result of a
 * dot (plan_dot_result), and the results are all-reduced only when the
 * first one has unreduced axes, over the axes the first operand with
 * each reduction factor has for it.
 *
 * Rules inferred where the cases and the description leave them open
 * (each checked against the insert_explicit_reshards cases): the score's
 * tie-break on the higher factor index; candidates that are neither cut
 * nor extending count their whole size after each step; need-replication
 * factors compete like the others and then hand their axes over (sort);
 * the hand-out of a reshape's axes, skipping pieces that share nothing
 * with a factor and letting the last factor overflow (reshape); the
 * greater side of a unary op on ties is the operand (elementwise_ops).
 */
#include "passes/explicit_reshard_plan.h"

#include <string.h>

#include "propagation/projection.h"
#include "rules/rules.h"

/* One (factor, axes) candidate of the greedy choice. */
typedef struct cand {
	uint32_t f;
	sl_axis_ref *axes;
	uint32_t n;
	int64_t total, local, size, prec;
	bool live;
} cand;

typedef struct planner {
	const sl_context *ctx;
	sli_arena *a;
	const sli_xr_in *in;
	const sl_mesh *mesh;
	sli_proj p;
	uint32_t nt, nf;
	sli_axes *common;	/* per factor */
} planner;

static int64_t
list_size(const planner *P, const sl_axis_ref *v, uint32_t n)
{
	return sli_axis_list_size(v, n, P->mesh);
}

static bool
present(const planner *P, uint32_t t, uint32_t f)
{
	return P->p.t[t].f[f].present;
}

static int64_t
precedence(sli_factor_kind k)
{
	switch (k) {
	case SLI_FACTOR_PASS_THROUGH:
		return 3;
	case SLI_FACTOR_REDUCTION:
		return 2;
	case SLI_FACTOR_PERMUTATION:
		return 1;
	default:
		return 0;
	}
}

/* ---- projection ---- */

/* A closed sharding without axes, for a tensor that has none. */
static sl_sharding *
closed_empty(sli_arena *a, uint32_t rank)
{
	sl_sharding *s = SL_NEW(a, sl_sharding);
	s->rank = rank;
	s->dims = SL_NEWN(a, sl_dim_sharding, rank ? rank : 1);
	for (uint32_t d = 0; d < rank; d++)
		s->dims[d].priority = SL_NO_PRIORITY;
	return s;
}

static const sl_tensor_mapping *
mapping(const planner *P, uint32_t t)
{
	const sl_rule *r = P->in->rule;
	return t < P->in->nin ? &r->operands[t] : &r->results[t - P->in->nin];
}

static void
project(planner *P)
{
	const sli_xr_in *in = P->in;
	sli_proj_init(&P->p, P->a, P->mesh, in->rule->factor_sizes, P->nf, in->nin, in->nout);
	for (uint32_t t = 0; t < P->nt; t++) {
		const sl_sharding *s = t < in->nin ? in->in[t] : in->out[t - in->nin];
		const sl_tensor_mapping *map = mapping(P, t);
		sli_proj_tensor(&P->p, t, map, s ? s : closed_empty(P->a, map->rank));
	}
}

/* ---- axis-list helpers (Shardy's AxisListRef) ---- */

/* a is a strict prefix of b (the last ref of a may be a sub-axis prefix). */
static bool
strict_prefix(const sl_axis_ref *a, uint32_t na, const sl_axis_ref *b, uint32_t nb)
{
	if (na == 0)
		return nb > 0;
	if (na > nb)
		return false;
	for (uint32_t i = 0; i + 1 < na; i++)
		if (!sli_axis_equal(&a[i], &b[i]))
			return false;
	const sl_axis_ref *ta = &a[na - 1], *tb = &b[na - 1];
	if (na == nb)
		return sli_axis_prefix_of(ta, tb) && !sli_axis_equal(ta, tb);
	return sli_axis_prefix_of(ta, tb);
}

/*
 * Cuts v before its first ref overlapping one of `against` (keeping the
 * part of that ref before the overlap); whether anything was cut.
 */
static bool
cut_overlap(sl_axis_ref *v, uint32_t *n, const sl_axis_ref *against, uint32_t na)
{
	for (uint32_t i = 0; i < *n; i++) {
		sl_axis_ref cur = v[i];
		bool left = true;
		for (uint32_t j = 0; j < na && left; j++) {
			sl_axis_ref o;
			left = sli_axis_prefix_without_overlap(&cur, &against[j], &o);
			if (left)
				cur = o;
		}
		if (!left) {
			*n = i;
			return true;
		}
		if (!sli_axis_equal(&cur, &v[i])) {
			v[i] = cur;
			*n = i + 1;
			return true;
		}
	}
	return false;
}

/* ---- the greedy choice ---- */

static int
cmp_i64(int64_t x, int64_t y)
{
	return x < y ? -1 : x > y;
}

static int
cmp_cand(const planner *P, const cand *x, const cand *y)
{
	int c;
	if ((c = cmp_i64(x->total, y->total)) || (c = cmp_i64(x->prec, y->prec)) ||
	    (c = cmp_i64(x->local, y->local)) || (c = cmp_i64(x->size, y->size)) ||
	    (c = cmp_i64(x->f, y->f)) || (c = cmp_i64(x->n, y->n)))
		return c;
	for (uint32_t i = 0; i < x->n; i++)
		if (!sli_axis_equal(&x->axes[i], &y->axes[i]))
			return sli_axis_less(P->ctx, &x->axes[i], &y->axes[i]) ? -1 : 1;
	return 0;
}

/* Adds (f, v[0..n)) coming from a tensor of `size` elements. */
static void
add_cand(planner *P, cand *c, uint32_t *nc, uint32_t f, const sl_axis_ref *v,
         uint32_t n, int64_t size)
{
	for (uint32_t i = 0; i < *nc; i++) {
		if (c[i].f == f && sli_axis_list_equal(c[i].axes, c[i].n, v, n)) {
			c[i].total += size;
			if (size > c[i].local)
				c[i].local = size;
			return;
		}
	}
	cand *k = &c[(*nc)++];
	k->f = f;
	k->axes = sli_arena_dup(P->a, v, sizeof *v * n);
	k->n = n;
	k->total = k->local = size;
	k->size = list_size(P, v, n);
	k->prec = precedence(sli_rule_factor_kind(P->in->rule, f));
	k->live = true;
}

/* dep[g * nf + f]: factor f follows g in a dimension, and g is not full. */
static uint8_t *
dependencies(planner *P)
{
	uint8_t *dep = SL_NEWN(P->a, uint8_t, (size_t)P->nf * P->nf + 1);
	for (uint32_t t = 0; t < P->nt; t++) {
		const sl_tensor_mapping *map = mapping(P, t);
		for (uint32_t d = 0; d < map->rank; d++)
			for (uint32_t k = 1; k < map->dims[d].n; k++)
				dep[(size_t)map->dims[d].factors[k - 1] * P->nf +
				    map->dims[d].factors[k]] = 1;
	}
	return dep;
}

static bool
blocked(const planner *P, const uint8_t *dep, uint32_t f)
{
	for (uint32_t g = 0; g < P->nf; g++)
		if (dep[(size_t)g * P->nf + f])
			return true;
	return false;
}

static cand *
best_cand(const planner *P, cand *c, uint32_t nc, const uint8_t *dep)
{
	cand *best = NULL;
	for (uint32_t i = 0; i < nc; i++)
		if (c[i].live && !blocked(P, dep, c[i].f) &&
		    (!best || cmp_cand(P, &c[i], best) > 0))
			best = &c[i];
	return best;
}

/* Local size of every tensor holding a candidate's factor, largest. */
static void
update_local_sizes(planner *P, cand *c, uint32_t nc)
{
	for (uint32_t i = 0; i < nc; i++)
		c[i].local = 0;
	for (uint32_t t = 0; t < P->nt; t++) {
		int64_t local = P->in->sizes[t];
		for (uint32_t f = 0; f < P->nf; f++) {
			int64_t s = list_size(P, P->common[f].v, P->common[f].n);
			if (present(P, t, f) && s > 0)
				local /= s;
		}
		for (uint32_t i = 0; i < nc; i++)
			if (c[i].live && present(P, t, c[i].f) && local > c[i].local)
				c[i].local = local;
	}
}

/* After `best` was taken, drops, cuts and rescores the other candidates. */
static void
retire(planner *P, cand *c, uint32_t nc, const cand *best)
{
	for (uint32_t i = 0; i < nc; i++) {
		cand *k = &c[i];
		if (!k->live)
			continue;
		const sli_axes *mine = &P->common[k->f];
		if (k->f == best->f) {
			if (!strict_prefix(best->axes, best->n, k->axes, k->n))
				k->live = false;
			else
				k->size = list_size(P, k->axes, k->n) /
				          list_size(P, best->axes, best->n);
			continue;
		}
		if (cut_overlap(k->axes, &k->n, best->axes, best->n)) {
			if (sli_axis_list_equal(k->axes, k->n, mine->v, mine->n))
				k->live = false;
			else
				k->size = list_size(P, k->axes, k->n) /
				          list_size(P, mine->v, mine->n);
			continue;
		}
		k->size = list_size(P, k->axes, k->n);
	}
}

static void
choose_greedy(planner *P)
{
	uint32_t max = 0, nc = 0;
	for (uint32_t t = 0; t < P->nt; t++)
		for (uint32_t f = 0; f < P->nf; f++)
			if (present(P, t, f))
				max += P->p.t[t].f[f].axes.n;
	cand *c = SL_NEWN(P->a, cand, max + 1);
	for (uint32_t t = 0; t < P->nt; t++) {
		for (uint32_t f = 0; f < P->nf; f++) {
			const sli_fsh *fs = &P->p.t[t].f[f];
			if (!fs->present)
				continue;
			for (uint32_t n = fs->axes.n; n > 0; n--)
				add_cand(P, c, &nc, f, fs->axes.v, n, P->in->sizes[t]);
		}
	}
	uint8_t *dep = dependencies(P);
	cand *best;
	while ((best = best_cand(P, c, nc, dep))) {
		cand taken = *best;
		taken.axes = sli_arena_dup(P->a, best->axes, sizeof *best->axes * best->n);
		sli_axes_set(P->a, &P->common[taken.f], taken.axes, taken.n);
		if (list_size(P, taken.axes, taken.n) == P->in->rule->factor_sizes[taken.f])
			for (uint32_t g = 0; g < P->nf; g++)
				dep[(size_t)taken.f * P->nf + g] = 0;
		retire(P, c, nc, &taken);
		update_local_sizes(P, c, nc);
	}
}

/* ---- unary ops ---- */

static bool
is_unary(const planner *P, uint32_t *pair)
{
	const sl_rule *r = P->in->rule;
	uint32_t n = 0;
	if (r->need_replication.n)
		return false;
	for (uint32_t t = 0; t < P->nt; t++) {
		const sl_tensor_mapping *map = mapping(P, t);
		for (uint32_t d = 0; d < map->rank; d++)
			if (map->dims[d].n > 1)
				return false;
		if (map->rank > 0) {
			if (n == 2)
				return false;
			pair[n++] = t;
		}
	}
	return n == 2;
}

static int64_t
tensor_sharded_size(const planner *P, uint32_t t)
{
	int64_t s = 1;
	for (uint32_t f = 0; f < P->nf; f++)
		if (present(P, t, f))
			s *= list_size(P, P->p.t[t].f[f].axes.v, P->p.t[t].f[f].axes.n);
	return s;
}

static bool
sharded_permutation(const planner *P, uint32_t t)
{
	for (uint32_t f = 0; f < P->nf; f++)
		if (present(P, t, f) && P->p.t[t].f[f].axes.n &&
		    sli_rule_factor_kind(P->in->rule, f) == SLI_FACTOR_PERMUTATION)
			return true;
	return false;
}

/* Whether tensor x is preferred over tensor y (ties: x). */
static bool
preferred(const planner *P, uint32_t x, uint32_t y)
{
	bool px = !sharded_permutation(P, x), py = !sharded_permutation(P, y);
	if (px != py)
		return px;
	if (P->in->sizes[x] != P->in->sizes[y])
		return P->in->sizes[x] > P->in->sizes[y];
	return tensor_sharded_size(P, x) >= tensor_sharded_size(P, y);
}

static void
choose_unary(planner *P, const uint32_t *pair)
{
	uint32_t keep = pair[0], other = pair[1];
	if (!preferred(P, keep, other)) {
		keep = pair[1];
		other = pair[0];
	}
	sli_axes used = {0};
	for (uint32_t f = 0; f < P->nf; f++) {
		const sli_fsh *fs = &P->p.t[keep].f[f];
		if (!fs->present)
			continue;
		sli_axes_set(P->a, &P->common[f], fs->axes.v, fs->axes.n);
		for (uint32_t i = 0; i < fs->axes.n; i++)
			sli_axes_push(P->a, &used, fs->axes.v[i]);
	}
	for (uint32_t f = 0; f < P->nf; f++) {
		const sli_fsh *fs = &P->p.t[other].f[f];
		if (!fs->present || P->p.t[keep].f[f].present)
			continue;
		sli_axes *v = &P->common[f];
		sli_axes_set(P->a, v, fs->axes.v, fs->axes.n);
		cut_overlap(v->v, &v->n, used.v, used.n);
	}
}

/* ---- need-replication axes onto batching factors ---- */

static bool
in_all_nonscalar(const planner *P, uint32_t f)
{
	for (uint32_t t = 0; t < P->nt; t++)
		if (mapping(P, t)->rank > 0 && !present(P, t, f))
			return false;
	return true;
}

static void
distribute(planner *P, const sl_axis_ref *v, uint32_t n)
{
	const sl_rule *r = P->in->rule;
	for (uint32_t f = 0; f < P->nf && n; f++) {
		if (sli_rule_factor_kind(r, f) != SLI_FACTOR_PASS_THROUGH || !in_all_nonscalar(P, f))
			continue;
		int64_t size = r->factor_sizes[f];
		sli_axes *mine = &P->common[f];
		int64_t have = list_size(P, mine->v, mine->n);
		if (size == 0 || have <= 0 || size % have)
			continue;
		int64_t cap = size / have;
		while (n) {
			int64_t as = sli_axis_size(v, P->mesh);
			if (as <= 0 || cap % as)
				break;
			sli_axes_add_or_merge(P->a, P->mesh, mine, *v);
			cap /= as;
			v++;
			n--;
		}
	}
}

static void
move_need_replication(planner *P)
{
	const sl_rule *r = P->in->rule;
	for (uint32_t i = 0; i < r->need_replication.n; i++) {
		uint32_t f = (uint32_t)r->need_replication.v[i];
		if (f >= P->nf)
			continue;
		sli_axes *mine = &P->common[f];
		if (mine->n && in_all_nonscalar(P, f))
			distribute(P, mine->v, mine->n);
		mine->n = 0;
	}
}

/* ---- reshapes with overflow axes ---- */

/* A piece of an axis still to be handed out: name, pre-size, size. */
typedef struct piece {
	sl_sym name;
	int64_t pre, size;
} piece;

static bool
has_overflow(const planner *P)
{
	for (uint32_t t = 0; t < P->nt; t++)
		for (uint32_t f = 0; f < P->nf; f++)
			if (present(P, t, f) && P->p.t[t].f[f].overflow.n)
				return true;
	return false;
}

/*
 * Hands the pieces out to tensor t's factors, dimension by dimension and
 * major to minor: each factor takes, from each piece in turn, the part
 * its remaining size shares with it; what is left overflows the last
 * factor.
 */
static void
hand_out(planner *P, uint32_t t, piece *pc, uint32_t npc)
{
	const sl_tensor_mapping *map = mapping(P, t);
	sli_fsh *last = NULL;
	for (uint32_t d = 0; d < map->rank; d++) {
		for (uint32_t k = 0; k < map->dims[d].n; k++) {
			sli_fsh *fs = &P->p.t[t].f[map->dims[d].factors[k]];
			int64_t cap = P->in->rule->factor_sizes[map->dims[d].factors[k]];
			fs->axes.n = fs->overflow.n = 0;
			last = fs;
			for (uint32_t i = 0; i < npc && cap > 1; i++) {
				int64_t g = sli_gcd64(cap, pc[i].size);
				if (g <= 1)
					continue;
				sli_axes_add_or_merge(P->a, P->mesh, &fs->axes,
				                      sli_axis_piece(pc[i].name, pc[i].pre, g, P->mesh));
				pc[i].pre *= g;
				pc[i].size /= g;
				cap /= g;
			}
		}
	}
	for (uint32_t i = 0; last && i < npc; i++)
		if (pc[i].size > 1)
			sli_axes_add_or_merge(P->a, P->mesh, &last->overflow,
			                      sli_axis_piece(pc[i].name, pc[i].pre, pc[i].size, P->mesh));
}

/* The axes and overflow axes of tensor t's factors, as pieces. */
static uint32_t
pieces_of(const planner *P, uint32_t t, piece *pc)
{
	uint32_t n = 0;
	for (uint32_t f = 0; f < P->nf; f++) {
		const sli_fsh *fs = &P->p.t[t].f[f];
		for (uint32_t i = 0; fs->present && i < fs->axes.n + fs->overflow.n; i++) {
			const sl_axis_ref *r = i < fs->axes.n ? &fs->axes.v[i]
			                                     : &fs->overflow.v[i - fs->axes.n];
			pc[n++] = (piece){r->name, sli_axis_pre(r), sli_axis_size(r, P->mesh)};
		}
	}
	return n;
}

static uint32_t
count_axes(const planner *P, uint32_t t)
{
	uint32_t n = 0;
	for (uint32_t f = 0; f < P->nf; f++)
		if (present(P, t, f))
			n += P->p.t[t].f[f].axes.n + P->p.t[t].f[f].overflow.n;
	return n;
}

/*
 * Per factor, the greatest common prefix of its axes over the tensors of
 * projection q that have it, into P->common.
 */
static void
common_prefixes(planner *P, const sli_proj *q)
{
	for (uint32_t f = 0; f < P->nf; f++) {
		sli_axes *c = &P->common[f];
		bool first = true;
		c->n = 0;
		for (uint32_t t = 0; t < P->nt; t++) {
			const sli_axes *a = &q->t[t].f[f].axes;
			if (!q->t[t].f[f].present)
				continue;
			if (first) {
				sli_axes_set(P->a, c, a->v, a->n);
				first = false;
				continue;
			}
			uint32_t i = 0;
			while (i < c->n && i < a->n && sli_axis_equal(&c->v[i], &a->v[i]))
				i++;
			if (i < c->n && i < a->n && sli_axis_prefix_of(&a->v[i], &c->v[i]))
				c->v[i] = a->v[i], i++;
			else if (i < c->n && i < a->n && sli_axis_prefix_of(&c->v[i], &a->v[i]))
				i++;
			c->n = i;
		}
	}
}

/*
 * A reshape with overflow axes: the axes of the side with the larger
 * sharded size are handed out again to the factors of each side, the two
 * shardings this gives are projected again, and each factor keeps the
 * common prefix of what the two sides then give it.
 */
static void
choose_reshape(planner *P)
{
	uint32_t best = tensor_sharded_size(P, 0) >= tensor_sharded_size(P, 1) ? 0 : 1;
	uint32_t n = count_axes(P, best);
	piece *all = SL_NEWN(P->a, piece, n + 1), *pc = SL_NEWN(P->a, piece, n + 1);
	n = pieces_of(P, best, all);
	sli_proj q;
	sl_sharding *built[2];
	for (uint32_t t = 0; t < 2; t++) {
		memcpy(pc, all, sizeof *pc * n);
		hand_out(P, t, pc, n);
		built[t] = sli_proj_back(P->a, &P->p, t, P->in->mesh_name, P->in->inline_mesh);
	}
	sli_proj_init(&q, P->a, P->mesh, P->in->rule->factor_sizes, P->nf, 1, 1);
	for (uint32_t t = 0; t < 2; t++)
		sli_proj_tensor(&q, t, mapping(P, t), built[t]);
	common_prefixes(P, &q);
}

/* ---- the plan ---- */

/* Sets every tensor's factors to the common axes; which tensors changed. */
static void
apply_common(planner *P, bool *changed)
{
	for (uint32_t t = 0; t < P->nt; t++) {
		for (uint32_t f = 0; f < P->nf; f++) {
			sli_fsh *fs = &P->p.t[t].f[f];
			if (!fs->present)
				continue;
			const sli_axes *c = &P->common[f];
			if (fs->overflow.n || !sli_axis_list_equal(fs->axes.v, fs->axes.n, c->v, c->n))
				changed[t] = true;
			sli_axes_set(P->a, &fs->axes, c->v, c->n);
			fs->overflow.n = 0;
		}
	}
}

static void
plan_all_reduce(planner *P, sli_arena *out, sli_xr_plan *plan)
{
	const sl_rule *r = P->in->rule;
	sli_axis_vec red = {0}, diff = {0};
	for (uint32_t i = 0; i < r->reduction.n; i++) {
		uint32_t f = (uint32_t)r->reduction.v[i];
		for (uint32_t j = 0; f < P->nf && j < P->common[f].n; j++)
			SL_VEC_PUSH(red, P->common[f].v[j]);
	}
	const sl_sharding *r0 = P->in->nout ? P->in->out[0] : NULL;
	if (red.n && P->in->nout) {
		sli_axis_set_diff(P->ctx, P->mesh, red.v, red.n, r0 ? r0->unreduced.v : NULL,
		                  r0 ? r0->unreduced.n : 0, &diff);
		sli_axis_vec_sort_and_merge(P->ctx, P->mesh, &diff);
	}
	plan->all_reduce.n = (uint32_t)diff.n;
	plan->all_reduce.v = diff.n ? sli_arena_dup(out, diff.v, sizeof *diff.v * diff.n) : NULL;
	SL_VEC_FREE(red);
	SL_VEC_FREE(diff);
}

/*
 * Without the full version: when the first result has unreduced axes,
 * each reduction factor keeps the axes of the first operand that has it.
 */
static void
reduction_axes_as_is(planner *P)
{
	const sl_sharding *r0 = P->in->nout ? P->in->out[0] : NULL;
	const sl_rule *r = P->in->rule;
	if (!r0 || !r0->unreduced.n)
		return;
	for (uint32_t i = 0; i < r->reduction.n; i++) {
		uint32_t f = (uint32_t)r->reduction.v[i];
		for (uint32_t t = 0; f < P->nf && t < P->in->nin; t++) {
			if (present(P, t, f)) {
				const sli_axes *a = &P->p.t[t].f[f].axes;
				sli_axes_set(P->a, &P->common[f], a->v, a->n);
				break;
			}
		}
	}
}

static bool
any_overlap(const sl_axis_ref *v, uint32_t n, const sli_axes *seen)
{
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t j = 0; j < seen->n; j++)
			if (sli_axis_overlaps(&v[i], &seen->v[j]))
				return true;
	return false;
}

/*
 * The dot's one factor (batching or non-contracting) on which the result
 * conflicts with its operand, or -1 when there is none, or more than one,
 * or lhs and rhs conflict, or the operand is larger than the result, or
 * the operand's axes are empty.  *axes: the operand's axes for it;
 * *red: the axes of the contracting factors.
 */
static int
dot_conflict(planner *P, const sli_axes **axes, sli_axes *red)
{
	const sli_tproj *lhs = &P->p.t[0], *rhs = &P->p.t[1], *res = &P->p.t[2];
	const int64_t *sz = P->in->sizes;
	sli_axes seen = {0};
	int conflict = -1;
	for (uint32_t f = 0; f < P->nf; f++) {
		const sli_axes *op;
		int64_t max;
		bool l = lhs->f[f].present, r = rhs->f[f].present;
		if (!l && !r)
			continue;
		if (l && r) {
			op = &lhs->f[f].axes;
			max = sz[0] > sz[1] ? sz[0] : sz[1];
			if (!sli_axis_list_equal(op->v, op->n, rhs->f[f].axes.v, rhs->f[f].axes.n))
				return -1;
			if (sli_rule_factor_kind(P->in->rule, f) == SLI_FACTOR_REDUCTION) {
				for (uint32_t i = 0; i < op->n; i++)
					sli_axes_push(P->a, red, op->v[i]);
				continue;
			}
		} else {
			op = l ? &lhs->f[f].axes : &rhs->f[f].axes;
			max = l ? sz[0] : sz[1];
			if (any_overlap(op->v, op->n, &seen))
				return -1;
			for (uint32_t i = 0; i < op->n; i++)
				sli_axes_push(P->a, &seen, op->v[i]);
		}
		const sli_axes *ra = &res->f[f].axes;
		if (sli_axis_list_equal(ra->v, ra->n, op->v, op->n))
			continue;
		if (!op->n || conflict >= 0 || sz[2] > max)
			return -1;
		conflict = (int)f;
		*axes = op;
	}
	return conflict;
}

/*
 * Without the full version, a dot whose operands agree and whose result
 * conflicts on one factor sharded by exactly the contracting axes is
 * computed with the operand's axes for that factor, and its result then
 * resharded: a smaller reshard and an all-reduce instead of a
 * reduce-scatter of a larger operand.
 */
static void
plan_dot_result(planner *P, sli_arena *out, sli_xr_plan *plan)
{
	const sli_axes *axes = NULL;
	sli_axes red = {0};
	if (!P->in->out[0])
		return;
	int f = dot_conflict(P, &axes, &red);
	if (f < 0)
		return;
	sli_fsh *rf = &P->p.t[2].f[f];
	if (!rf->axes.n || !sli_axis_list_equal(rf->axes.v, rf->axes.n, red.v, red.n))
		return;
	sli_axes_set(P->a, &rf->axes, axes->v, axes->n);
	plan->out_as[0] = sli_proj_back(out, &P->p, 2, P->in->mesh_name, P->in->inline_mesh);
}

/* Whether s has the dimension axes of `orig` (NULL: none). */
static bool
same_dims(const sl_sharding *s, const sl_sharding *orig)
{
	for (uint32_t d = 0; d < s->rank; d++) {
		const sl_axis_list *o = orig && d < orig->rank ? &orig->dims[d].axes : NULL;
		if (!sli_axis_list_equal(s->dims[d].axes.v, s->dims[d].axes.n, o ? o->v : NULL,
		                         o ? o->n : 0))
			return false;
	}
	return true;
}

static bool
axes_in_mesh(const planner *P)
{
	for (uint32_t t = 0; t < P->nt; t++) {
		const sl_sharding *s = t < P->in->nin ? P->in->in[t] : P->in->out[t - P->in->nin];
		for (uint32_t d = 0; s && d < s->rank; d++)
			for (uint32_t i = 0; i < s->dims[d].axes.n; i++)
				if (sli_mesh_axis_size(P->mesh, s->dims[d].axes.v[i].name) < 0)
					return false;
	}
	return true;
}

int
sli_xr_plan_op(const sl_context *ctx, sli_arena *scratch, sli_arena *out,
               const sli_xr_in *in, sli_xr_plan *plan)
{
	planner P = {ctx, scratch, in, in->mesh, {0}, in->nin + in->nout,
	             in->rule->nfactors, NULL};
	memset(plan, 0, sizeof *plan);
	plan->mesh_name = in->mesh_name;
	plan->inline_mesh = in->inline_mesh;
	plan->mesh = in->mesh;
	plan->nin = in->nin;
	plan->nout = in->nout;
	plan->in_to = SL_NEWN(out, sl_sharding *, in->nin + 1);
	plan->out_as = SL_NEWN(out, sl_sharding *, in->nout + 1);
	if (!axes_in_mesh(&P))
		return -1;
	P.common = SL_NEWN(scratch, sli_axes, P.nf + 1);
	project(&P);
	uint32_t pair[2];
	if (!in->full) {
		if (in->dot && in->nin == 2 && in->nout == 1)
			plan_dot_result(&P, out, plan);
		reduction_axes_as_is(&P);
		plan_all_reduce(&P, out, plan);
		return 0;
	}
	bool reshape = in->reshape && in->nin == 1 && in->nout == 1 && has_overflow(&P);
	if (reshape) {
		choose_reshape(&P);
	} else if (is_unary(&P, pair)) {
		choose_unary(&P, pair);
	} else {
		choose_greedy(&P);
		move_need_replication(&P);
	}
	bool *changed = SL_NEWN(scratch, bool, P.nt + 1);
	apply_common(&P, changed);
	for (uint32_t t = 0; t < P.nt; t++) {
		sl_sharding *s = NULL;
		if (reshape) {
			s = sli_proj_back(out, &P.p, t, in->mesh_name, in->inline_mesh);
			changed[t] = !same_dims(s, t < in->nin ? in->in[t] : in->out[t - in->nin]);
		}
		if (!changed[t] && !(in->other_ids && in->other_ids[t]))
			continue;
		if (!s)
			s = sli_proj_back(out, &P.p, t, in->mesh_name, in->inline_mesh);
		if (t < in->nin)
			plan->in_to[t] = s;
		else
			plan->out_as[t - in->nin] = s;
	}
	plan_all_reduce(&P, out, plan);
	plan->nfactors = P.nf;
	plan->factor_axes = SL_NEWN(out, sl_axis_list, P.nf + 1);
	for (uint32_t f = 0; f < P.nf; f++) {
		plan->factor_axes[f].n = P.common[f].n;
		plan->factor_axes[f].v = P.common[f].n
			? sli_arena_dup(out, P.common[f].v, sizeof(sl_axis_ref) * P.common[f].n)
			: NULL;
	}
	return 0;
}

bool
sli_xr_plan_is_empty(const sli_xr_plan *plan)
{
	for (uint32_t i = 0; i < plan->nin; i++)
		if (plan->in_to[i])
			return false;
	for (uint32_t i = 0; i < plan->nout; i++)
		if (plan->out_as[i])
			return false;
	return plan->all_reduce.n == 0;
}
