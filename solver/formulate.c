/*
 * formulate.c - builds formulation F3 (shardlp-cost(7), FORMULATION).
 *
 * An edge joins a source (the tensor for an operand, the op for a result)
 * to a target (the op, the tensor).  Every source option pays the full
 * gather of each axis it uses; per axis a, agreement columns refund what
 * the target's choice saves: alpha[a,d,k] (same dim d, bytes class k)
 * refunds the all-to-all price, beta[a,k] (a used on both sides) the
 * difference between gather and all-to-all.  Both are bounded by the sum
 * of the source options in their class and, summed over k, by the sum of
 * the target options using a (on d); at integral points they equal the
 * indicator products, so the objective is the model's price exactly.
 */
#include "solver/formulate.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cost/memo.h"
#include "cost/terms.h"
#include "util/uf.h"

typedef SL_VEC(uint32_t) u32vec;
typedef SL_VEC(double) dvec;

typedef struct side {
	const sli_cost_asg *asg;	/* per option: dim per axis */
	const double *bytes;		/* source only: bytes per device */
	size_t n;
	uint32_t col;
} side;

static void
refund(sli_form *f, double coef, const side *src, const uint32_t *in, size_t nin,
       u32vec *tgt_members, u32vec *cols, dvec *vals)
{
	sli_lp *lp = &f->lp;
	uint32_t c = sli_lp_col(lp, -coef, 0, 1, false);
	cols->n = vals->n = 0;
	SL_VEC_PUSH(*cols, c);
	SL_VEC_PUSH(*vals, 1.0);
	for (size_t k = 0; k < nin; k++) {
		SL_VEC_PUSH(*cols, src->col + in[k]);
		SL_VEC_PUSH(*vals, -1.0);
	}
	uint32_t r = sli_lp_row_add(lp, cols->n, cols->v, vals->v, SLI_LP_LE, 0, NULL);
	SL_VEC_PUSH(*tgt_members, (uint32_t)f->refunds.n);
	SL_VEC_PUSH(f->refunds, c);
	SL_VEC_PUSH(f->refund_rows, r);
	SL_VEC_PUSH(f->refund_rows, UINT32_MAX);	/* set by target_row */
}

/* Closes a target row: sum of the refunds <= sum of the target options. */
static void
target_row(sli_form *f, const u32vec *members, const side *tgt, int axis, int dim,
           u32vec *cols, dvec *vals)
{
	if (!members->n)
		return;
	cols->n = vals->n = 0;
	for (size_t k = 0; k < members->n; k++) {
		SL_VEC_PUSH(*cols, f->refunds.v[members->v[k]]);
		SL_VEC_PUSH(*vals, 1.0);
	}
	for (size_t j = 0; j < tgt->n; j++) {
		int d = tgt->asg[j].a[axis];
		if (dim >= 0 ? d == dim : d >= 0) {
			SL_VEC_PUSH(*cols, tgt->col + (uint32_t)j);
			SL_VEC_PUSH(*vals, -1.0);
		}
	}
	uint32_t r = sli_lp_row_add(&f->lp, cols->n, cols->v, vals->v, SLI_LP_LE, 0, NULL);
	/* each member's second row is this one */
	for (size_t k = 0; k < members->n; k++)
		f->refund_rows.v[2 * members->v[k] + 1] = r;
}

static void
add_edge(sli_form *f, const side *src, const side *tgt, uint32_t rank)
{
	const sli_cost_model *cm = f->cm;
	sli_lp *lp = &f->lp;

	if (tgt->n == 1 || src->n == 1) {
		/* one side is fixed: the reshard folds into the other side */
		for (size_t i = 0; i < src->n; i++)
			for (size_t j = 0; j < tgt->n; j++) {
				if (src->n > 1 && j > 0)
					break;
				double c = sli_cost_term_reshard(cm, &src->asg[i],
				                                 src->bytes[i], &tgt->asg[j]);
				if (src->n > 1)
					lp->obj.v[src->col + i] += c;
				else
					lp->obj.v[tgt->col + j] += c;
			}
		return;
	}
	for (size_t i = 0; i < src->n; i++)
		sli_cost_term_gathers(cm, &src->asg[i], src->bytes[i],
		                      &lp->obj.v[src->col + i]);

	/*
	 * per axis and dim, the source options that hold it, grouped by
	 * bytes per device (one refund each): groups in the order of their
	 * first option, options in order; one pass, then one per group
	 */
	double *key = sli_xmalloc((src->n + 1) * sizeof *key);
	uint32_t *gid = sli_xmalloc((src->n + 1) * sizeof *gid);
	size_t *start = sli_xmalloc((src->n + 2) * sizeof *start);
	uint32_t *in = sli_xmalloc((src->n + 1) * sizeof *in);
	u32vec members = {0}, cols = {0};
	dvec vals = {0};
	for (uint32_t a = 0; a < cm->naxes; a++) {
		/* alpha: same dim; d = -1 stands for beta: a on both sides */
		for (int d = -1; d < (int)rank; d++) {
			bool tgt_has = false;
			for (size_t j = 0; j < tgt->n && !tgt_has; j++)
				tgt_has = d >= 0 ? tgt->asg[j].a[a] == d : tgt->asg[j].a[a] >= 0;
			if (!tgt_has)
				continue;
			size_t ng = 0;
			for (size_t i = 0; i < src->n; i++) {
				int sd = src->asg[i].a[a];
				gid[i] = UINT32_MAX;
				if (sd < 0 || (d >= 0 && sd != d))
					continue;
				size_t g = 0;
				while (g < ng && !(key[g] == src->bytes[i]))
					g++;
				if (g == ng)
					key[ng++] = src->bytes[i];
				/* a NaN size matches nothing, not even itself */
				if (src->bytes[i] == src->bytes[i])
					gid[i] = (uint32_t)g;
			}
			memset(start, 0, (ng + 2) * sizeof *start);
			for (size_t i = 0; i < src->n; i++)
				if (gid[i] != UINT32_MAX)
					start[gid[i] + 2]++;
			for (size_t g = 0; g < ng; g++)
				start[g + 2] += start[g + 1];
			for (size_t i = 0; i < src->n; i++)
				if (gid[i] != UINT32_MAX)
					in[start[gid[i] + 1]++] = (uint32_t)i;
			members.n = 0;
			for (size_t g = 0; g < ng; g++) {
				double coef = sli_cost_term_refund(cm, a, key[g], d >= 0);
				if (coef > 0)
					refund(f, coef, src, in + start[g], start[g + 1] - start[g],
					       &members, &cols, &vals);
			}
			target_row(f, &members, tgt, (int)a, d, &cols, &vals);
		}
	}
	free(key);
	free(gid);
	free(start);
	free(in);
	SL_VEC_FREE(members);
	SL_VEC_FREE(cols);
	SL_VEC_FREE(vals);
}

/* {====================================================================
 * Contradictions found before solving
 * ===================================================================== */

static uint64_t
key(const sli_cost_asg *q, uint32_t naxes, uint32_t rank)
{
	uint64_t k = 0;
	for (uint32_t a = naxes; a-- > 0;)
		k = k * (rank + 1) + (uint64_t)(q->a[a] + 1);
	return k;
}

static void
note_pin(sl_context *ctx, const sli_cost_model *cm, uint32_t t)
{
	const sli_cost_tensor *ct = &cm->tensors.v[t];
	if (ct->pin.any)
		sli_diag(ctx, SL_DIAG_NOTE, ct->pin.loc, "user %s here", ct->pin.what);
}

/* Tie components whose options do not intersect. */
static int
check_ties(sli_form *f)
{
	const sli_cost_model *cm = f->cm;
	sl_context *ctx = cm->m->ctx;
	size_t nt = cm->tensors.n;
	int rc = 0;
	if (!cm->ties.n)
		return 0;
	sli_uf ties;
	sli_uf_init(&ties, (uint32_t)nt);
	for (size_t i = 0; i < cm->ties.n; i++)
		sli_uf_union(&ties, cm->ties.v[i].a, cm->ties.v[i].b);
	unsigned char *seen = sli_xcalloc(nt + 1, 1);
	for (size_t t = 0; t < nt; t++) {
		uint32_t root = sli_uf_find(&ties, (uint32_t)t);
		if (seen[root])
			continue;
		seen[root] = 1;
		/* options common to every member: count key hits */
		const sli_form_var *rv = &f->t[root];
		uint32_t rank = cm->tensors.v[root].rank;
		size_t members = 0;
		unsigned *hits = sli_xcalloc(rv->n + 1, sizeof *hits);
		for (size_t u = 0; u < nt; u++) {
			if (sli_uf_find(&ties, (uint32_t)u) != root)
				continue;
			members++;
			const sli_form_var *uv = &f->t[u];
			for (size_t k = 0, j = 0; k < rv->n && j < uv->n;) {
				uint64_t a = key(&rv->opt[k], cm->naxes, rank);
				uint64_t b = key(&uv->opt[j], cm->naxes, rank);
				if (a == b)
					hits[k]++, k++, j++;
				else if (a < b)
					k++;
				else
					j++;
			}
		}
		bool any = false;
		for (size_t k = 0; k < rv->n; k++)
			any |= hits[k] == members;
		free(hits);
		if (any || members < 2)
			continue;
		rc = -1;
		const sli_cost_tie *why = NULL;
		for (size_t i = 0; i < cm->ties.n; i++)
			if (sli_uf_find(&ties, cm->ties.v[i].a) == root)
				why = &cm->ties.v[i];
		sli_error(ctx, why ? why->loc : sli_loc_none(), "infeasible: values tied "
		          "by %s cannot share one sharding under the user constraints",
		          why ? why->why : "data flow");
		for (size_t u = 0; u < nt; u++)
			if (sli_uf_find(&ties, (uint32_t)u) == root)
				note_pin(ctx, cm, (uint32_t)u);
	}
	free(seen);
	sli_uf_fini(&ties);
	return rc;
}

/* }==================================================================== */

/* Model tensor and op of local index k (identity without a part). */
#define TENSOR(p, k) ((p) ? (p)->tensors[k] : (uint32_t)(k))
#define OP(p, k) ((p) ? (p)->ops[k] : (uint32_t)(k))
#define LOCAL(p, t) ((p) ? (p)->local[t] : (t))

/*
 * Tensors: one-hot over their shardings (memory is no cost: the budget
 * rows hold it).  Returns -1 after an error on a tensor without
 * options (only the whole model reports; a part has none).
 */
static int
add_tensors(sli_form *f, const sli_form_part *p)
{
	const sli_cost_model *cm = f->cm;
	sl_context *ctx = cm->m->ctx;
	sli_lp *lp = &f->lp;
	u32vec cols = {0};
	dvec vals = {0};
	int rc = 0;

	for (size_t k = 0; k < f->nt; k++) {
		uint32_t t = TENSOR(p, k);
		sli_form_var *v = &f->t[k];
		v->n = sli_cost_tensor_options(cm, t, &v->opt);
		v->col = (uint32_t)sli_lp_ncols(lp);
		if (p && p->leaf && p->leaf[k] && v->n) {
			v->col = UINT32_MAX;
			continue;
		}
		if (!v->n) {
			const sli_cost_tensor *ct = &cm->tensors.v[t];
			sli_error(ctx, ct->pin.any ? ct->pin.loc : sli_value_loc(ct->v),
			          "infeasible: the user sharding admits no valid sharding "
			          "of this tensor (manual axes or divisibility)");
			rc = -1;
			continue;
		}
		cols.n = vals.n = 0;
		for (size_t j = 0; j < v->n; j++) {
			uint32_t c = sli_lp_col(lp, 0, 0, 1, true);
			SL_VEC_PUSH(cols, c);
			SL_VEC_PUSH(vals, 1.0);
		}
		sli_lp_row_add(lp, cols.n, cols.v, vals.v, SLI_LP_EQ, 1, NULL);
	}
	SL_VEC_FREE(cols);
	SL_VEC_FREE(vals);
	return rc;
}

/*
 * The one edge of leaf lt, on operand or result i of local op k: each
 * option of the op pays the least the leaf's edge can cost given it.
 */
static void
fold_leaf(sli_form *f, const sli_form_part *p, uint32_t lt, uint32_t k, uint32_t i,
          int res, const sli_cost_asg *proj, const double *pb, const double *tb)
{
	const sli_cost_model *cm = f->cm;
	sli_form_var *tv = &f->t[lt];
	const sli_form_var *ov = &f->o[k];
	uint32_t o = OP(p, k);
	tv->op = k;
	tv->i = i;
	tv->res = res;
	tv->fold = sli_xcalloc(ov->n + 1, sizeof *tv->fold);
	double *least = sli_xcalloc(ov->n + 1, sizeof *least);
	/* the least depends on the option only through its projection */
	sli_htab seen = {0};
	for (size_t j = 0; j < ov->n; j++) {
		double best = INFINITY;
		size_t bi = 0;
		uint32_t same = sli_cost_memo(&seen, &proj[j], (uint32_t)j);
		if (same != j) {
			f->lp.obj.v[ov->col + j] += least[same];
			tv->fold[j] = tv->fold[same];
			continue;
		}
		for (size_t q = 0; q < tv->n; q++) {
			double c = sli_cost_term_leaf(cm, o, i, res, &proj[j], pb[j],
			                              &tv->opt[q], tb[q]);
			if (c < best)
				best = c, bi = q;
		}
		f->lp.obj.v[ov->col + j] += best;
		least[j] = best;
		tv->fold[j] = (double)bi;
	}
	sli_htab_fini(&seen);
	free(least);
}

/* Ops, edges and ties: everything but the tensors and the budget. */
static void
add_ops(sli_form *f, const sli_form_part *p)
{
	const sli_cost_model *cm = f->cm;
	sli_lp *lp = &f->lp;
	u32vec cols = {0};
	dvec vals = {0};

	/* ops: one-hot over factor assignments, paying compute and all-reduce */
	for (size_t k = 0; k < f->no; k++) {
		uint32_t o = OP(p, k);
		sli_form_var *v = &f->o[k];
		v->n = sli_cost_op_options(cm, o, &v->opt);
		v->col = (uint32_t)sli_lp_ncols(lp);
		cols.n = vals.n = 0;
		for (size_t j = 0; j < v->n; j++) {
			double c = sli_cost_term_op(cm, o, &v->opt[j]);
			uint32_t col = sli_lp_col(lp, c, 0, 1, true);
			SL_VEC_PUSH(cols, col);
			SL_VEC_PUSH(vals, 1.0);
		}
		sli_lp_row_add(lp, cols.n, cols.v, vals.v, SLI_LP_EQ, 1, NULL);
	}

	/* edges; each local tensor's bytes per option, once (tbytes) */
	double **tbytes = sli_xcalloc(f->nt + 1, sizeof *tbytes);
	for (size_t k = 0; k < f->no; k++) {
		uint32_t o = OP(p, k);
		const sli_cost_op *co = &cm->ops.v[o];
		const sli_form_var *ov = &f->o[k];
		sli_cost_asg *proj = sli_xcalloc(ov->n + 1, sizeof *proj);
		double *pb = sli_xcalloc(ov->n + 1, sizeof *pb);
		for (int res = 0; res < 2; res++) {
			uint32_t n = res ? co->nresults : co->noperands;
			for (uint32_t i = 0; i < n; i++) {
				uint32_t t = res ? co->results[i] : co->operands[i];
				if (t == UINT32_MAX)
					continue;
				uint32_t lt = LOCAL(p, t);
				assert(lt != UINT32_MAX);
				const sli_form_var *tv = &f->t[lt];
				if (!tbytes[lt]) {
					tbytes[lt] = sli_xmalloc((tv->n + 1) * sizeof **tbytes);
					for (size_t j = 0; j < tv->n; j++)
						tbytes[lt][j] = sli_cost_term_bytes(cm, t, &tv->opt[j]);
				}
				const double *tb = tbytes[lt];
				for (size_t j = 0; j < ov->n; j++)
					pb[j] = sli_cost_term_project(cm, o, res, i, &ov->opt[j],
					                              &proj[j]);
				if (tv->col == UINT32_MAX) {
					fold_leaf(f, p, lt, (uint32_t)k, i, res, proj, pb, tb);
					continue;
				}
				if (!res && co->ropt && co->ropt[i]) {
					/* a result sharding the solution may extend: each
					 * option of the operand pays its cheapest reshard */
					for (size_t j = 0; j < tv->n; j++)
						lp->obj.v[tv->col + j] +=
						    sli_cost_term_require(cm, o, i, &tv->opt[j], NULL);
					continue;
				}
				side ts = {tv->opt, tb, tv->n, tv->col};
				side os = {proj, pb, ov->n, ov->col};
				if (res)
					add_edge(f, &os, &ts, cm->tensors.v[t].rank);
				else
					add_edge(f, &ts, &os, cm->tensors.v[t].rank);
			}
		}
		free(proj);
		free(pb);
	}
	for (size_t lt = 0; lt < f->nt; lt++)
		free(tbytes[lt]);
	free(tbytes);

	/* ties: equal one-hot vectors */
	size_t nties = p ? p->nties : cm->ties.n;
	for (size_t i = 0; i < nties; i++) {
		const sli_cost_tie *tie = &cm->ties.v[p ? p->ties[i] : i];
		uint32_t la = LOCAL(p, tie->a), lb = LOCAL(p, tie->b);
		assert(la != UINT32_MAX && lb != UINT32_MAX);
		const sli_form_var *x = &f->t[la], *y = &f->t[lb];
		uint32_t rank = cm->tensors.v[tie->a].rank;
		size_t k = 0, j = 0;
		while (k < x->n || j < y->n) {
			uint64_t a = k < x->n ? key(&x->opt[k], cm->naxes, rank) : UINT64_MAX;
			uint64_t b = j < y->n ? key(&y->opt[j], cm->naxes, rank) : UINT64_MAX;
			uint32_t c[2];
			double w[2] = {1, -1};
			size_t nz = 0;
			if (a <= b)
				c[nz++] = x->col + (uint32_t)k++;
			if (b <= a) {
				if (!nz)
					w[0] = -1;
				c[nz++] = y->col + (uint32_t)j++;
			}
			sli_lp_row_add(lp, nz, c, w, SLI_LP_EQ, 0, NULL);
		}
	}
	SL_VEC_FREE(cols);
	SL_VEC_FREE(vals);
}

static void
form_init(sli_form *f, const sli_cost_model *cm, size_t nt, size_t no)
{
	memset(f, 0, sizeof *f);
	f->cm = cm;
	sli_lp_init(&f->lp);
	/* the exports say the objective's unit (cost/cost.h, SLI_COST_UNIT) */
	f->lp.prob_name = "shardlp_objective_in_microseconds";
	f->lp.obj_name = "step_time_us";
	f->nt = nt;
	f->no = no;
	f->t = sli_xcalloc(nt + 1, sizeof *f->t);
	f->o = sli_xcalloc(no + 1, sizeof *f->o);
}

/*
 * The memory budget: per tensor of several options a continuous column
 * of its bytes per device in units of the budget (the one-hot sum of its
 * options' bytes), and
 * per maximal live set (cost/liveness.c) the sum of those columns (and
 * of the fixed tensors' bytes) at most the budget; nothing when the
 * budget cannot bind.  Summing columns rather than options keeps a row
 * as long as its live set, not its options.  -1 after an error when a
 * set cannot fit even with every tensor at its smallest.
 */
static int
budget_rows(sli_form *f)
{
	const sli_cost_model *cm = f->cm;
	if (!cm->budget_binds)
		return 0;
	u32vec cols = {0};
	dvec vals = {0};
	int rc = 0;
	double *least = sli_xcalloc(f->nt + 1, sizeof *least);
	f->bytes_col = sli_xmalloc((f->nt + 1) * sizeof *f->bytes_col);
	for (uint32_t t = 0; t < f->nt; t++) {
		double lo = INFINITY, hi = 0;
		cols.n = vals.n = 0;
		for (size_t j = 0; j < f->t[t].n; j++) {
			/* in units of the budget: rows of order one */
			double b = sli_cost_term_bytes(cm, t, &f->t[t].opt[j]) / cm->budget;
			lo = fmin(lo, b);
			hi = fmax(hi, b);
			SL_VEC_PUSH(cols, f->t[t].col + (uint32_t)j);
			SL_VEC_PUSH(vals, -b);
		}
		least[t] = f->t[t].n ? lo : 0;
		f->bytes_col[t] = UINT32_MAX;
		if (f->t[t].n < 2)
			continue;
		uint32_t c = sli_lp_col(&f->lp, 0, lo, hi, false);
		SL_VEC_PUSH(cols, c);
		SL_VEC_PUSH(vals, 1.0);
		sli_lp_row_add(&f->lp, cols.n, cols.v, vals.v, SLI_LP_EQ, 0, NULL);
		f->bytes_col[t] = c;
	}
	for (size_t r = 0; r + 1 < cm->row_start.n; r++) {
		double fixed = 0, floor = 0;
		cols.n = vals.n = 0;
		for (uint32_t k = cm->row_start.v[r]; k < cm->row_start.v[r + 1]; k++) {
			uint32_t t = cm->rows.v[k];
			floor += least[t];
			if (f->bytes_col[t] == UINT32_MAX) {
				fixed += least[t];
				continue;
			}
			SL_VEC_PUSH(cols, f->bytes_col[t]);
			SL_VEC_PUSH(vals, 1.0);
		}
		if (floor > 1) {
			sli_error(cm->m->ctx, cm->row_loc.v[r], "infeasible: the tensors "
			          "live here need at least %.0f bytes per device, over "
			          "the memory budget of %.0f bytes", floor * cm->budget,
			          cm->budget);
			rc = -1;
			break;
		}
		char name[48];
		snprintf(name, sizeof name, "memory_budget_%zu", r);
		sli_lp_row_add(&f->lp, cols.n, cols.v, vals.v, SLI_LP_LE, 1 - fixed, name);
	}
	free(least);
	SL_VEC_FREE(cols);
	SL_VEC_FREE(vals);
	return rc;
}

/*
 * The objective's scale for the solver: its largest coefficient becomes
 * one, so that GLPK's absolute tolerances hold however small the step
 * times (a program of a few bytes costs 1e-7 us).
 */
static void
set_scale(sli_lp *lp)
{
	double mx = fabs(lp->obj_const);
	for (size_t j = 0; j < lp->obj.n; j++)
		mx = fmax(mx, fabs(lp->obj.v[j]));
	lp->obj_scale = mx > 0 && isfinite(mx) ? 1 / mx : 1;
}

int
sli_form_build(sli_form *f, const sli_cost_model *cm)
{
	size_t nt = cm->tensors.n;
	form_init(f, cm, nt, cm->ops.n);
	if (add_tensors(f, NULL))
		return -1;
	if (check_ties(f))
		return -1;
	add_ops(f, NULL);
	int rc = budget_rows(f);
	set_scale(&f->lp);
	return rc;
}

void
sli_form_build_part(sli_form *f, const sli_cost_model *cm, const sli_form_part *p)
{
	form_init(f, cm, p->ntensors, p->nops);
	for (size_t k = 0; k < p->ntensors; k++)
		p->local[p->tensors[k]] = (uint32_t)k;
	add_tensors(f, p);
	add_ops(f, p);
	set_scale(&f->lp);
	for (size_t k = 0; k < p->ntensors; k++)
		p->local[p->tensors[k]] = UINT32_MAX;
}

void
sli_form_fini(sli_form *f)
{
	if (f->t)
		for (size_t t = 0; t < f->nt; t++) {
			free(f->t[t].opt);
			free(f->t[t].fold);
		}
	if (f->o)
		for (size_t o = 0; o < f->no; o++)
			free(f->o[o].opt);
	free(f->t);
	free(f->o);
	SL_VEC_FREE(f->refunds);
	SL_VEC_FREE(f->refund_rows);
	free(f->bytes_col);
	sli_lp_fini(&f->lp);
}

static size_t
argmax(const double *x, uint32_t col, size_t n)
{
	size_t best = 0;
	for (size_t k = 1; k < n; k++)
		if (x[col + k] > x[col + best])
			best = k;
	return best;
}

void
sli_form_pick(const sli_form *f, const double *x, uint32_t *pick)
{
	for (size_t t = 0; t < f->nt; t++) {
		const sli_form_var *v = &f->t[t];
		pick[t] = 0;
		if (!v->n)
			continue;
		if (v->col != UINT32_MAX) {
			pick[t] = (uint32_t)argmax(x, v->col, v->n);
		} else if (v->fold) {
			const sli_form_var *ov = &f->o[v->op];
			pick[t] = (uint32_t)v->fold[argmax(x, ov->col, ov->n)];
		}
	}
}

void
sli_form_pick_ops(const sli_form *f, const double *x, uint32_t *pick)
{
	for (size_t o = 0; o < f->no; o++)
		pick[o] = f->o[o].n ? (uint32_t)argmax(x, f->o[o].col, f->o[o].n) : 0;
}

void
sli_form_decode(const sli_form *f, const double *x, sli_cost_asg *q, sli_cost_asg *s)
{
	uint32_t *pick = sli_xcalloc(f->nt + 1, sizeof *pick);
	sli_form_pick(f, x, pick);
	for (size_t t = 0; t < f->nt; t++)
		if (f->t[t].n)
			q[t] = f->t[t].opt[pick[t]];
	free(pick);
	if (s)
		for (size_t o = 0; o < f->no; o++)
			if (f->o[o].n)
				s[o] = f->o[o].opt[argmax(x, f->o[o].col, f->o[o].n)];
}

void
sli_form_fill_refunds(const sli_form *f, double *x)
{
	const sli_lp *lp = &f->lp;
	for (size_t i = 0; i < f->refunds.n; i++)
		x[f->refunds.v[i]] = 0;
	double *act = sli_xcalloc(lp->rows.n + 1, sizeof *act);
	for (size_t r = 0; r < lp->rows.n; r++)
		for (size_t e = 0; e < lp->rows.v[r].n; e++)
			act[r] += lp->val.v[lp->rows.v[r].first + e] *
			          x[lp->idx.v[lp->rows.v[r].first + e]];
	for (size_t i = 0; i < f->refunds.n; i++) {
		uint32_t r1 = f->refund_rows.v[2 * i], r2 = f->refund_rows.v[2 * i + 1];
		if (act[r1] <= -1 + 1e-9 && act[r2] <= -1 + 1e-9) {
			x[f->refunds.v[i]] = 1;
			act[r1] += 1;
			act[r2] += 1;
		}
	}
	free(act);
}

int
sli_form_encode(const sli_form *f, const sli_cost_asg *q, double *x)
{
	const sli_cost_model *cm = f->cm;
	const sli_lp *lp = &f->lp;
	memset(x, 0, sli_lp_ncols(lp) * sizeof *x);
	for (size_t t = 0; t < cm->tensors.n; t++) {
		uint32_t rank = cm->tensors.v[t].rank;
		uint64_t want = key(&q[t], cm->naxes, rank);
		size_t k;
		for (k = 0; k < f->t[t].n; k++)
			if (key(&f->t[t].opt[k], cm->naxes, rank) == want)
				break;
		if (k == f->t[t].n)
			return -1;
		x[f->t[t].col + k] = 1;
	}
	sli_cost_asg *s = sli_xcalloc(cm->ops.n + 1, sizeof *s);
	sli_cost_parts parts;
	if (sli_cost_eval_asg(cm, q, &parts, s)) {
		free(s);
		return -1;
	}
	for (size_t o = 0; o < cm->ops.n; o++) {
		size_t k;
		for (k = 0; k < f->o[o].n; k++)
			if (!memcmp(&f->o[o].opt[k], &s[o], sizeof s[o]))
				break;
		if (k == f->o[o].n) {
			free(s);
			return -1;
		}
		x[f->o[o].col + k] = 1;
	}
	free(s);
	for (size_t t = 0; f->bytes_col && t < cm->tensors.n; t++)
		if (f->bytes_col[t] != UINT32_MAX)
			x[f->bytes_col[t]] = sli_cost_term_bytes(cm, (uint32_t)t, &q[t]) /
			                     cm->budget;
	sli_form_fill_refunds(f, x);
	return 0;
}
