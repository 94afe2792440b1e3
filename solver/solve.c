/*
 * solve.c - the optimal-sharding pipeline: cost model, formulation,
 * backend, decoding into sdy shardings, checker, and the evaluator's
 * score held against the ILP objective (they must agree to 1e-6).
 */
#include "solver/solve.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cost/emitted.h"
#include "cost/terms.h"
#include "ir/axis.h"
#include "passes/symtab.h"
#include "propagation/propagation.h"
#include "solver/decompose.h"
#include "solver/formulate.h"
#include "solver/report.h"
#include "shardlp.h"

void
sli_solve_opts_init(sli_solve_opts *o)
{
	memset(o, 0, sizeof *o);
	sli_cost_params_init(&o->cost);
	o->lp.time_limit = 0;
	o->lp.deadline = 0;
	o->lp.gap = 0;
}

/* {====================================================================
 * Decoding: per-axis assignments back into sdy shardings
 * ===================================================================== */

/*
 * q as a sharding of rank `rank` on the mesh of its axes (none: old's
 * mesh when the model has it, else the model's first), in the order major
 * gives (per dim; NULL: mesh order), keeping what the user sharding old
 * (or NULL) had besides.  Where old is on that mesh its axis refs
 * come first verbatim (sub-axes the model's pieces do not add up to
 * included), then the axes of q they do not cover; a piece that continues
 * the ref before it joins it ("x":(1)2 then "x":(2)2 of an axis of 4 is
 * written "x").  Where old is on another mesh and q shards nothing, old
 * is returned unchanged: an empty mesh nothing was added to, or a mesh the
 * model does not cover (the tensor is fixed replicated).
 */
static sl_sharding *
make_sharding(sl_module *m, const sli_cost_model *cm, uint32_t rank,
              const int8_t (*major)[SLI_COST_MAX_AXES], const sl_sharding *old,
              const sli_cost_asg *q)
{
	/* the mesh of q's axes, else old's (when the model's), else the first */
	int mi = sli_cost_asg_mesh(cm, q);
	for (uint32_t i = 0; mi < 0 && old && !old->mesh && i < cm->nmeshes; i++)
		if (old->mesh_name == cm->mesh_names[i])
			mi = (int)i;
	mi = mi < 0 ? 0 : mi;
	sl_sym mesh_name = cm->mesh_names[mi];
	bool same = old && !old->mesh && old->mesh_name == mesh_name &&
	            old->rank == rank;
	bool any = false;
	for (uint32_t a = 0; a < cm->naxes; a++)
		any |= q->a[a] >= 0;
	if (old && !same && !any)
		return (sl_sharding *)old;
	sl_sharding *s = SL_NEW(&m->arena, sl_sharding);
	s->mesh_name = mesh_name;
	s->rank = rank;
	s->dims = SL_NEWN(&m->arena, sl_dim_sharding, rank + 1);
	sli_axis_vec refs = {0};
	for (uint32_t d = 0; d < rank; d++) {
		sl_dim_sharding *ds = &s->dims[d];
		const sl_axis_list *u = same ? &old->dims[d].axes : NULL;
		int8_t w[SLI_COST_MAX_AXES];
		uint32_t nw = sli_cost_dim_axes(cm, major ? major[d] : NULL, q, d, w);
		refs.n = 0;
		for (uint32_t k = 0; u && k < u->n; k++)
			SL_VEC_PUSH(refs, u->v[k]);
		for (uint32_t k = 0; k < nw; k++) {
			sl_axis_ref r = sli_cost_axis_ref(cm, (uint32_t)w[k]);
			bool dup = false;
			for (uint32_t j = 0; u && j < u->n; j++)
				dup |= sli_axis_contains(&u->v[j], &r);
			if (!dup)
				sli_axis_vec_add_or_merge(&refs, &r, cm->meshes[mi]);
		}
		ds->axes.v = SL_NEWN(&m->arena, sl_axis_ref, refs.n + 1);
		ds->axes.n = (uint32_t)refs.n;
		if (refs.n)
			memcpy(ds->axes.v, refs.v, refs.n * sizeof *refs.v);
		/* priorities only order greedy propagation: spent, as the
		 * pipeline's user-priority propagation leaves them */
		ds->open = true;
		ds->priority = SL_NO_PRIORITY;
		if (old && old->rank == rank)
			ds->open = old->dims[d].open;
	}
	SL_VEC_FREE(refs);
	if (old) {
		s->replicated = old->replicated;
		s->unreduced = old->unreduced;
		s->reduction = old->reduction;
	}
	return s;
}

static sl_sharding *
new_sharding(sl_module *m, const sli_cost_model *cm, uint32_t t,
             const sli_cost_asg *q)
{
	const sli_cost_tensor *ct = &cm->tensors.v[t];
	const sl_sharding *old = sli_cost_value_sharding(ct->v);
	if (ct->kept)
		return (sl_sharding *)old;
	return make_sharding(m, cm, ct->rank, ct->major, old, q);
}

static bool
annotatable(const sl_op *op)
{
	switch (op->kind) {
	case SL_OP_SDY_SHARDING_CONSTRAINT:
	case SL_OP_SDY_RESHARD:
	case SL_OP_SDY_DATA_FLOW_EDGE:
	case SL_OP_SDY_MANUAL_COMPUTATION:
	case SL_OP_SDY_NAMED_COMPUTATION:
		return false;	/* their shardings are their own, pinned */
	default:
		return !(sli_op_info[op->kind].traits & T_SDY) ||
		       op->kind == SL_OP_SDY_PROPAGATION_BARRIER ||
		       op->kind == SL_OP_SDY_CONSTANT ||
		       op->kind == SL_OP_SDY_FUNC_DATA_FLOW_EDGE;
	}
}

/*
 * The function result shardings the solution extended (in their open
 * dims) written back to their functions.
 */
static void
decode_results(sl_module *m, const sli_cost_model *cm, const sli_cost_asg *q)
{
	for (size_t o = 0; o < cm->ops.n; o++) {
		const sli_cost_op *co = &cm->ops.v[o];
		if (!co->ropt)
			continue;
		sl_op *func = co->op->parent->parent->parent;
		for (uint32_t i = 0; i < co->noperands; i++) {
			if (!co->ropt[i])
				continue;
			uint32_t t = co->operands[i];
			const sl_sharding *old = sli_func_res_sharding(func, i);
			sli_cost_asg to;
			sli_cost_term_require(cm, (uint32_t)o, i, &q[t], &to);
			sl_sharding *s = make_sharding(m, cm, cm->tensors.v[t].rank, NULL,
			                               old, &to);
			if (s != old)
				sli_func_set_res_sharding(m, func, i, s);
		}
	}
}

/*
 * The sharding of a value outside the model (a token, a dynamic tensor):
 * the one written there, else open and empty on the model's mesh.
 */
static sl_sharding *
outside_sharding(sl_module *m, const sli_cost_model *cm, const sl_value *v)
{
	const sl_sharding *old = sli_cost_value_sharding(v);
	if (old)
		return (sl_sharding *)old;
	const sl_type *ty = v->type;
	sl_sharding *s = SL_NEW(&m->arena, sl_sharding);
	s->mesh_name = cm->mesh_name;
	s->rank = ty && ty->kind == SL_TYPE_TENSOR && !ty->unranked ? ty->rank : 0;
	s->dims = SL_NEWN(&m->arena, sl_dim_sharding, s->rank + 1);
	for (uint32_t d = 0; d < s->rank; d++) {
		s->dims[d].open = true;
		s->dims[d].priority = SL_NO_PRIORITY;
	}
	return s;
}

/*
 * The shardings of the n values vals (an array in the module arena), or
 * NULL when none of them is a tensor of the model of rank above 0.
 */
static sl_sharding **
value_list(sl_module *m, const sli_cost_model *cm, const sli_cost_asg *q,
           sl_value *vals, uint32_t n)
{
	sl_sharding **v = SL_NEWN(&m->arena, sl_sharding *, n + 1);
	bool any = false;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t u = sli_cost_tensor_of(cm, &vals[i]);
		if (u == UINT32_MAX) {
			v[i] = outside_sharding(m, cm, &vals[i]);
			continue;
		}
		any |= cm->tensors.v[u].rank > 0;
		v[i] = new_sharding(m, cm, u, &q[u]);
	}
	return any ? v : NULL;
}

/* Whether vals[i] is the first of vals in the model (lists are written once). */
static bool
first(const sli_cost_model *cm, sl_value *vals, uint32_t i)
{
	for (uint32_t k = 0; k < i; k++)
		if (sli_cost_tensor_of(cm, &vals[k]) != UINT32_MAX)
			return false;
	return true;
}

/*
 * A function result without a sharding is open: as a propagation does,
 * it takes the sharding of the value it returns (no reshard, so no cost
 * in the model, which leaves such a return free).
 */
static void
decode_open_results(sl_module *m, const sli_cost_model *cm, const sli_cost_asg *q)
{
	sl_block *body = sli_module_body(m);
	for (sl_op *f = body ? body->first : NULL; f; f = f->next) {
		sl_block *e = f->kind == SL_OP_FUNC ? sli_func_body(f) : NULL;
		sl_op *ret = e ? e->last : NULL;
		if (!ret || ret->kind != SL_OP_RETURN)
			continue;
		for (uint32_t i = 0; i < ret->noperands && i < sli_func_nresults(f); i++) {
			uint32_t t = sli_cost_tensor_of(cm, ret->operands[i]);
			if (t != UINT32_MAX && cm->tensors.v[t].rank > 0 &&
			    !sli_func_res_sharding(f, i))
				sli_func_set_res_sharding(m, f, i, new_sharding(m, cm, t, &q[t]));
		}
	}
}

/*
 * Function results the solution left as written lose their priorities,
 * as the pipeline's user-priority propagation spends them.
 */
static void
spend_result_priorities(sl_module *m)
{
	sl_block *body = sli_module_body(m);
	for (sl_op *f = body ? body->first : NULL; f; f = f->next) {
		if (f->kind != SL_OP_FUNC)
			continue;
		for (uint32_t i = 0; i < sli_func_nresults(f); i++) {
			const sl_sharding *old = sli_func_res_sharding(f, i);
			bool any = false;
			for (uint32_t d = 0; old && d < old->rank; d++)
				any |= old->dims[d].priority != SL_NO_PRIORITY;
			if (!any)
				continue;
			sl_sharding *n = SL_NEW(&m->arena, sl_sharding);
			*n = *old;
			n->dims = SL_NEWN(&m->arena, sl_dim_sharding, old->rank + 1);
			memcpy(n->dims, old->dims, old->rank * sizeof *n->dims);
			for (uint32_t d = 0; d < n->rank; d++)
				n->dims[d].priority = SL_NO_PRIORITY;
			sli_func_set_res_sharding(m, f, i, n);
		}
	}
}

static void
decode_into(sl_module *m, const sli_cost_model *cm, const sli_cost_asg *q)
{
	if (!cm->nmeshes)
		return;	/* no axes: every sharding stays as written */
	decode_results(m, cm, q);
	decode_open_results(m, cm, q);
	spend_result_priorities(m);
	for (size_t t = 0; t < cm->tensors.n; t++) {
		sl_value *v = cm->tensors.v[t].v;
		sl_sharding **list;
		if (!v->def) {
			sl_op *owner = v->block && v->block->parent ? v->block->parent->parent : NULL;
			if (owner && owner->kind == SL_OP_FUNC &&
			    v->block == owner->regions[0].first && cm->tensors.v[t].rank > 0)
				sli_value_set_sharding(m, v, new_sharding(m, cm, (uint32_t)t, &q[t]));
			/* a named computation's in_shardings are its arguments' */
			if (owner && owner->kind == SL_OP_SDY_NAMED_COMPUTATION &&
			    v->block == owner->regions[0].first &&
			    first(cm, v->block->args, v->index) &&
			    (list = value_list(m, cm, q, v->block->args, v->block->nargs)))
				sli_comp_set_in_shardings(m, owner, list, v->block->nargs);
			continue;
		}
		sl_op *op = v->def;
		if ((op->kind == SL_OP_SDY_NAMED_COMPUTATION ||
		     (op->kind == SL_OP_SDY_MANUAL_COMPUTATION &&
		      sli_result_sharding(op, 0))) &&
		    first(cm, op->results, v->index)) {
			/* their out_shardings are their results', open dims grown */
			if ((list = value_list(m, cm, q, op->results, op->nresults)))
				sli_result_set_shardings(m, op, list, op->nresults);
			continue;
		}
		if (op->kind == SL_OP_SDY_SHARDING_CONSTRAINT || op->kind == SL_OP_SDY_RESHARD ||
		    op->kind == SL_OP_SDY_DATA_FLOW_EDGE) {
			/* open dimensions of these may grow: their sharding is the result's */
			sli_value_set_sharding(m, v, new_sharding(m, cm, (uint32_t)t, &q[t]));
			continue;
		}
		if (!first(cm, op->results, v->index) || !annotatable(op))
			continue;
		if ((list = value_list(m, cm, q, op->results, op->nresults)))
			sli_result_set_shardings(m, op, list, op->nresults);
	}
}

/* }==================================================================== */

/*
 * The incumbent o->start as a point of the model (read_start): its
 * sharding of each tensor and, tensor by tensor, the value of o->start
 * that carries it, whose axis orders the incumbent is written in.
 */
typedef struct incumbent {
	sli_cost_asg *q;
	const sl_value **v;
} incumbent;

static void
incumbent_free(incumbent *in)
{
	free(in->q);
	free(in->v);
	in->q = NULL;
	in->v = NULL;
}

/*
 * The axis orders of like (per tensor of cm, the value of another module
 * of the same program that carries it), as the orders cm's decoding
 * writes in: per tensor and dim, the model axes of like's refs in their
 * order (a whole axis: its pieces).
 */
static void
orders_of(sli_cost_model *cm, const sl_value *const *like)
{
	for (size_t t = 0; t < cm->tensors.n; t++) {
		const sl_sharding *sh = sli_cost_value_sharding(like[t]);
		sli_cost_tensor *ct = &cm->tensors.v[t];
		for (uint32_t d = 0; sh && d < sh->rank && d < ct->rank; d++) {
			uint32_t k = 0;
			for (uint32_t i = 0; i < sh->dims[d].axes.n; i++)
				for (uint32_t x = 0; x < cm->naxes && k < SLI_COST_MAX_AXES; x++) {
					sl_axis_ref r = sli_cost_axis_ref(cm, x);
					if (sli_axis_contains(&sh->dims[d].axes.v[i], &r))
						ct->major[d][k++] = (int8_t)x;
				}
			if (k < SLI_COST_MAX_AXES)
				ct->major[d][k] = SLI_COST_NONE;
		}
	}
}

/*
 * Writes q onto m in the axis orders of like (orders_of; NULL: the
 * model's own, cm's), through a model of m built for them.
 */
static void
decode_like(sl_module *m, const sli_cost_model *cm, const sli_cost_asg *q,
            const sl_value *const *like)
{
	sli_cost_params cp = cm->params;
	sli_cost_model mm;
	cp.report = false;
	if (!like || sli_cost_model_build(m, &cp, &mm)) {
		decode_into(m, cm, q);
		return;
	}
	orders_of(&mm, like);
	decode_into(m, &mm, q);
	sli_cost_model_fini(&mm);
}

/*
 * The evaluator's score of q written onto a copy of m in the orders of
 * like (orders_of; NULL: the model's own), m untouched (the decoding
 * grows shardings, so it is done once on m).  The copy's model is cm's
 * on the copy, and takes like's orders itself.  Returns 0 or -1.
 */
static int
score_copy(sl_module *m, const sli_cost_model *cm, const sli_solve_opts *o,
           const sli_cost_asg *q, const sl_value *const *like, sli_cost_parts *p)
{
	sl_module *c = sli_cost_copy(m);
	sli_cost_model cc;
	int rc = -1;
	if (c && !sli_cost_model_build_copy(cm, c, &cc)) {
		if (cc.tensors.n == cm->tensors.n) {
			if (like)
				orders_of(&cc, like);
			decode_into(c, &cc, q);
			rc = sli_cost_eval(c, &o->cost, p, NULL);
		}
		sli_cost_model_fini(&cc);
	}
	sl_module_free(c);
	return rc;
}

/* glpsol's words for the status of a MIP solution. */
static const char *
glpsol_status(const sli_solve_result *r)
{
	/* an incumbent kept over the model's optimum is no proven optimum */
	return r->status == SLI_LP_OPTIMAL && !r->start_kept ? "INTEGER OPTIMAL"
	                                                    : "INTEGER NON-OPTIMAL";
}

/*
 * The answer q as a point of the whole model, reported to o->report
 * (report.c).  0, or -1 after an error.
 */
static int
report(const sli_cost_model *cm, const sli_solve_opts *o, const sli_cost_asg *q,
       const sli_solve_result *r)
{
	sli_form f;
	int rc = -1;
	double *x = NULL;
	if (!sli_form_build(&f, cm)) {
		sli_form_name(&f);
		x = sli_xcalloc(sli_lp_ncols(&f.lp) + 1, sizeof *x);
		if (sli_form_encode(&f, q, x))
			sli_error(cm->m->ctx, sli_loc_none(), "cannot write the solution "
			          "report: the answer is not a point of the whole model");
		else if (sli_lp_write_report(&f.lp, x, glpsol_status(r), o->report))
			sli_error(cm->m->ctx, sli_loc_none(), "cannot write the solution report");
		else
			rc = 0;
	}
	free(x);
	sli_form_fini(&f);
	return rc;
}

/* How far the model's price of the answer may be from r->objective. */
static double
price_tolerance(const sli_cost_model *cm, const sli_solve_result *r)
{
	return 1e-6 * fmax(sli_cost_term_scale(cm), fabs(r->objective));
}

/*
 * Breaks q's ties (sli_cost_tidy) in place, and the wide way in a copy:
 * returns the copy, or NULL where both ways give the same answer.
 */
static sli_cost_asg *
tidy_two(const sli_cost_model *cm, sli_cost_asg *q)
{
	size_t size = (cm->tensors.n + 1) * sizeof *q;
	sli_cost_asg *w = sli_xmalloc(size);
	memcpy(w, q, size);
	sli_cost_tidy(cm, q, false);
	sli_cost_tidy(cm, w, true);
	if (!memcmp(w, q, size)) {
		free(w);
		return NULL;
	}
	return w;
}

/*
 * Writes q (or alt, or the incumbent, in (or NULL), when the evaluator
 * scores it less) onto m, runs the checker, and holds the model's score
 * of the annotated module against r->objective.  alt (or NULL) is q
 * tidied the wide way (tidy_two), of the same model price.  The
 * incumbent is read_start's, priced there (r->start_total).  Returns 0
 * or -1.
 */
static int
finish(sl_module *m, const sli_cost_model *cm, const sli_solve_opts *o,
       const sli_cost_asg *q, const sli_cost_asg *alt, const incumbent *in,
       sli_solve_result *r)
{
	sl_context *ctx = m->ctx;
	const sli_cost_asg *q0 = in ? in->q : NULL;
	int rc = 0;
	if (fabs(r->gap) < 1e-12)	/* rounding noise of a proven optimum */
		r->gap = 0;
	/*
	 * r->parts holds the evaluator's score of q once scored here.  The
	 * model prices alt as q; the export may not, and the cheaper is
	 * the answer, or at the same step time the one of lower peak
	 * memory (shardlp-cost(7), "Ties").
	 */
	sli_cost_parts pq, e, ea, e0;
	bool scored = false;
	if (alt && !score_copy(m, cm, o, q, NULL, &e) &&
	    !score_copy(m, cm, o, alt, NULL, &ea)) {
		scored = true;
		double tol = 1e-9 * fabs(e.total);
		if (ea.total < e.total - tol ||
		    (ea.total <= e.total + tol && ea.peak_bytes < e.peak_bytes)) {
			q = alt;
			e = ea;
		}
	}
	/*
	 * The solver tells apart costs to about 1e-7 of its largest
	 * coefficient; below that the incumbent may be cheaper than its
	 * point, and is then the answer (the bound holds within the same
	 * tolerance), so that the ILP is never above its incumbent.
	 */
	double p0 = r->start_total;
	/*
	 * q's price is r->objective within the tolerance finish checks
	 * below, so an incumbent dearer than that is not cheaper than q:
	 * price q only when it may be
	 */
	if (q0 && q != q0 && p0 < r->objective + price_tolerance(cm, r) &&
	    !sli_cost_eval_asg(cm, q, &pq, NULL)) {
		if (p0 < pq.total) {
			q = q0;
			scored = false;
			r->objective = p0;
			if (r->bound > r->objective)
				r->bound = r->objective;
			r->gap = fmax(0, (r->objective - r->bound) /
			                 fmax(1e-9, fabs(r->objective)));
		}
	}
	if (q0 && q != q0 && !scored)
		scored = !score_copy(m, cm, o, q, NULL, &e);
	if (scored)
		r->parts = e;
	if (scored && q0 && q != q0 && !score_copy(m, cm, o, q0, in->v, &e0) &&
	    e0.total < e.total - 1e-9 * fabs(e.total)) {
		/* the incumbent's collectives cost less: it is the answer, at
		 * its price in the model (the bound stays the model's) */
		q = q0;
		r->parts = e0;
		r->objective = p0;
		r->gap = fmax(0, (r->objective - r->bound) / fmax(1e-9, fabs(r->objective)));
		r->start_kept = true;
		/* the answer is not the model's proven optimum: not optimal */
		if (r->gap > 1e-9 && r->status == SLI_LP_OPTIMAL)
			r->status = SLI_LP_FEASIBLE;
	}
	if (o->report && report(cm, o, q, r))
		rc = -1;
	sli_check_snap snap;
	sli_check_snapshot(m, &snap);
	/* the incumbent is written as it was, in its own axis orders */
	decode_like(m, cm, q, q0 && q == q0 ? in->v : NULL);
	if (sli_check(m, &snap)) {
		sli_error(ctx, sli_loc_none(), "the solution fails the checker "
		          "(a bug in shardlp)");
		rc = -1;
	}
	sli_check_snap_free(&snap);

	/*
	 * The objective is the model's price (terms.h), checked against the
	 * model's score of the annotated module re-read from scratch; the
	 * evaluator's score (r->parts) prices the collectives the export
	 * emits, which the model bounds (shardlp-cost(7), "The ILP's bound"),
	 * taken from the choice above where it scored q on a copy of m.
	 */
	sli_cost_parts model;
	sli_cost_params same = o->cost;
	same.like = cm;	/* over the pieces it was solved over */
	sli_buf why;
	sli_buf_init(&why);
	if ((!scored && sli_cost_eval(m, &o->cost, &r->parts, &why)) ||
	    sli_cost_eval_model(m, &same, &model, &why)) {
		sli_error(ctx, sli_loc_none(), "cannot score the solution: %s",
		          sli_buf_cstr(&why));
		rc = -1;
	} else if (fabs(model.total - r->objective) > price_tolerance(cm, r) &&
	           (r->status == SLI_LP_OPTIMAL || r->from_start)) {
		sli_error(ctx, sli_loc_none(), "the model's price %.9g us differs "
		          "from the ILP objective %.9g us (a bug in shardlp)",
		          model.total, r->objective);
		rc = -1;
	}
	sli_buf_fini(&why);
	return rc;
}

/* Exports the whole model when asked.  Returns 0, or -1 after an error. */
static int
export(sl_module *m, const sli_solve_opts *o, const sli_lp_backend *be, sli_form *f)
{
	char err[256];
	if (o->write_lp || o->write_mps)
		sli_form_name(f);
	if (o->write_lp && be->write(&f->lp, SLI_LP_FORMAT_LP, o->write_lp, err, sizeof err)) {
		sli_error(m->ctx, sli_loc_none(), "%s", err);
		return -1;
	}
	if (o->write_mps && be->write(&f->lp, SLI_LP_FORMAT_MPS, o->write_mps, err, sizeof err)) {
		sli_error(m->ctx, sli_loc_none(), "%s", err);
		return -1;
	}
	return 0;
}

static void
model_size(const sli_form *f, sli_solve_result *r)
{
	r->ncols = sli_lp_ncols(&f->lp);
	r->nrows = f->lp.rows.n;
	r->nbinaries = 0;
	for (size_t j = 0; j < r->ncols; j++)
		r->nbinaries += f->lp.binary.v[j];
}

/* solve_decomposed: no chain structure, or an infeasible chain */
enum { FALLBACK = 2 };

/*
 * The solve ended without a solution of its own (time limit): the
 * incumbent becomes the answer, feasible and not proven, scored by
 * the evaluator.  Returns as finish does.
 */
static int
use_start(sl_module *m, const sli_cost_model *cm, const sli_solve_opts *o,
          const incumbent *in, sli_solve_result *r)
{
	/* read_start scored the incumbent (with sub-axes, seconds of work) */
	r->status = SLI_LP_FEASIBLE;
	r->from_start = true;
	r->objective = r->start_total;
	if (r->bound > r->objective)
		r->bound = r->objective;
	r->gap = isinf(r->bound) ? INFINITY
	       : (r->objective - r->bound) / fmax(1e-9, fabs(r->objective));
	return finish(m, cm, o, in->q, NULL, NULL, r);
}

/* {====================================================================
 * Why a model is infeasible: a deletion filter over the user constraints
 * ===================================================================== */

enum { EXPLAIN_MAX = 64 };	/* constraints the filter tries to drop */

/* A diagnostic sink that drops everything: the trial models' own errors. */
static void
mute(void *ud, const sl_diag *d)
{
	(void)ud;
	(void)d;
}

/*
 * Whether cm, with the pins, ties and budget it now holds, admits a
 * sharding: 1 yes, 0 no, -1 unknown (time, a solver failure).
 */
static int
admits(sli_cost_model *cm, const sli_lp_backend *be, const sli_lp_opts *lo)
{
	sli_form f;
	int ok = -1;
	if (sli_form_build(&f, cm)) {
		sli_form_fini(&f);
		return 0;
	}
	sli_lp_result lr;
	memset(&lr, 0, sizeof lr);
	be->solve(&f.lp, lo, &lr);
	if (lr.status == SLI_LP_INFEASIBLE)
		ok = 0;
	else if (lr.status == SLI_LP_OPTIMAL || lr.status == SLI_LP_FEASIBLE)
		ok = 1;
	free(lr.x);
	sli_form_fini(&f);
	return ok;
}

/*
 * The user constraints of an infeasible model that conflict: each pin,
 * tie (group, data flow) and the budget is dropped in turn and kept
 * dropped when the rest is still infeasible, so that what is left
 * conflicts and each of its members is needed for the conflict (up to
 * EXPLAIN_MAX of them, within the deadline).  The error names them with
 * their locations; when the filter cannot finish, every constraint is
 * named.
 */
static void
explain_infeasible(sl_context *ctx, sli_cost_model *cm, const sli_lp_backend *be,
                   const sli_lp_opts *lo, double end)
{
	size_t nt = cm->tensors.n, nties = cm->ties.n;
	bool *pin = sli_xcalloc(nt + 1, sizeof *pin);
	bool *tie = sli_xcalloc(nties + 1, sizeof *tie);
	sli_cost_tie *ties = sli_xcalloc(nties + 1, sizeof *ties);
	if (nties)
		memcpy(ties, cm->ties.v, nties * sizeof *ties);
	size_t ncand = 0;
	for (size_t t = 0; t < nt; t++)
		ncand += pin[t] = cm->tensors.v[t].pin.any;
	for (size_t k = 0; k < nties; k++)
		tie[k] = true;
	ncand += nties;
	bool budget = cm->budget_binds, done = ncand <= EXPLAIN_MAX;

	sl_diag_fn *fn = ctx->diag_fn;
	void *ud = ctx->diag_ud;
	unsigned errors = ctx->errors;
	ctx->diag_fn = mute;
	/* ties live in cm->ties: rebuilt from the kept ones for each trial */
	for (size_t c = 0; done && c < nt + nties + 1; c++) {
		if (sli_lp_clock() >= end) {
			done = false;
			break;
		}
		if (c < nt && !pin[c])
			continue;
		if (c == nt + nties && !budget)
			continue;
		if (c < nt)
			cm->tensors.v[c].pin.any = false;
		else if (c < nt + nties)
			tie[c - nt] = false;
		else
			cm->budget_binds = false;
		cm->ties.n = 0;
		for (size_t k = 0; k < nties; k++)
			if (tie[k])
				cm->ties.v[cm->ties.n++] = ties[k];
		sli_lp_opts o = *lo;
		o.log = NULL;
		int a = admits(cm, be, &o);
		if (a < 0) {
			done = false;
		} else if (a == 1) {
			/* needed for the conflict: restored */
			if (c < nt)
				cm->tensors.v[c].pin.any = true;
			else if (c < nt + nties)
				tie[c - nt] = true;
			else
				cm->budget_binds = true;
		}
	}
	ctx->diag_fn = fn;
	ctx->diag_ud = ud;
	ctx->errors = errors;

	sli_error(ctx, sli_loc_none(), "infeasible: %s admit no sharding together",
	          done ? "these user constraints" : "the user constraints (shardings, "
	          "groups, data flow, memory budget)");
	for (size_t t = 0; t < nt; t++)
		if (pin[t] && (!done || cm->tensors.v[t].pin.any))
			sli_diag(ctx, SL_DIAG_NOTE, cm->tensors.v[t].pin.loc, "user %s here",
			         cm->tensors.v[t].pin.what);
	for (size_t k = 0; k < nties; k++)
		if (!done || tie[k])
			sli_diag(ctx, SL_DIAG_NOTE, ties[k].loc, "%s ties these values",
			         ties[k].why ? ties[k].why : "a tie");
	if (budget && (!done || cm->budget_binds))
		sli_diag(ctx, SL_DIAG_NOTE, sli_loc_none(),
		         "memory budget of %.0f bytes per device", cm->budget);
	/* the model is left as it was */
	for (size_t t = 0; t < nt; t++)
		cm->tensors.v[t].pin.any = pin[t];
	cm->ties.n = 0;
	for (size_t k = 0; k < nties; k++)
		cm->ties.v[cm->ties.n++] = ties[k];
	cm->budget_binds = budget;
	free(pin);
	free(tie);
	free(ties);
}

/* }==================================================================== */

/* The whole model's branch and cut, as progress (sli_lp_opts.on_node). */
typedef struct whole_watch {
	const sli_lp_opts *o;
	double t0;		/* sli_solve's call */
} whole_watch;

static void
whole_node(void *arg, size_t nodes, double gap)
{
	const whole_watch *w = arg;
	sli_lp_progress p = {"whole", 0, 0, 0, sli_lp_clock() - w->t0, nodes, gap};
	w->o->progress(w->o->progress_arg, &p);
}

static void
no_solution(sl_context *ctx, const sli_solve_result *r)
{
	sli_error(ctx, sli_loc_none(), "no solution within the time limit "
	          "(%.1f s)", r->seconds);
}

/*
 * The decomposed solve (solver/decompose.c).  Returns 0, 1 or -1 as
 * sli_solve does, or FALLBACK when the model has no chain structure or
 * the chain is infeasible: the caller then solves the whole model.
 * in is the incumbent (in->q NULL: none), the answer when time runs out.
 */
static int
solve_decomposed(sl_module *m, const sli_cost_model *cm, const sli_solve_opts *o,
                 const sli_lp_backend *be, const incumbent *in,
                 sli_solve_result *r)
{
	sl_context *ctx = m->ctx;
	sli_decomp_result dr;
	sli_cost_asg *q = sli_xcalloc(cm->tensors.n + 1, sizeof *q), *alt = NULL;
	int rc = sli_decomp_solve(cm, be, &o->lp, !o->no_block_reuse, q, &dr);
	if (rc) {
		free(q);
		return FALLBACK;
	}
	r->status = dr.status;
	r->seconds = dr.seconds;
	r->bound = dr.bound;
	r->ncols = dr.ncols;
	r->nrows = dr.nrows;
	r->nbinaries = dr.nbinaries;
	r->nblocks = dr.nblocks;
	r->nclasses = dr.nclasses;
	r->nsolves = dr.nsolves;
	r->nsym = dr.nsym;
	r->ncarried = dr.ncarried;
	r->nknown = dr.nknown;
	r->nlowered = dr.nlowered;
	r->nreuse = dr.nreuse;
	switch (dr.status) {
	case SLI_LP_OPTIMAL:
	case SLI_LP_FEASIBLE:
		r->objective = dr.objective;
		r->gap = dr.gap;
		alt = tidy_two(cm, q);
		rc = finish(m, cm, o, q, alt, in, r);
		break;
	case SLI_LP_NO_SOLUTION:
		if (in->q) {
			rc = use_start(m, cm, o, in, r);
			break;
		}
		no_solution(ctx, r);
		rc = 1;
		break;
	default:
		sli_error(ctx, sli_loc_none(), "solver failure: %s", dr.message);
		rc = -1;
		break;
	}
	free(alt);
	free(q);
	return rc;
}

/*
 * The shardings of pt, another module of the same program, as an
 * assignment of cm (heap, caller frees): each one of its tensor's options
 * in cm, scored by the evaluator.  NULL, with the reason in note, when it
 * is not such a point.  When vals is non-NULL, *vals receives with the
 * assignment the value of pt that carries each tensor (heap, caller
 * frees).  pt is read through a model built as cm was, warnings aside.
 */
static sli_cost_asg *
read_point(const sli_cost_model *cm, sl_module *pt, char *note, size_t cap,
           double *total, const sl_value ***vals)
{
	sli_cost_model sm;
	sli_cost_params cp = cm->params;
	sli_cost_asg *q = NULL;
	const char *why = NULL;
	cp.report = false;	/* cm's module has reported */
	if (sli_cost_model_build(pt, &cp, &sm))
		return NULL;
	if (sm.tensors.n != cm->tensors.n) {
		why = "not the same program";
		goto out;
	}
	sl_loc at;
	if (!sli_cost_reads_exactly(&sm, &at)) {
		snprintf(note, cap, "the sharding of the value at %u:%u uses a "
		         "sub-axis or mesh the model does not hold", at.line, at.col);
		goto done;
	}
	q = sli_xcalloc(sm.tensors.n + 1, sizeof *q);
	sli_cost_read(&sm, q, NULL);
	for (size_t t = 0; t < cm->tensors.n && !why; t++) {
		sli_cost_asg *opt;
		size_t n = sli_cost_tensor_options(cm, (uint32_t)t, &opt), k;
		for (k = 0; k < n; k++)
			if (!memcmp(&opt[k], &q[t], sizeof q[t]))
				break;
		free(opt);
		if (k == n) {
			sl_loc l = sli_value_loc(cm->tensors.v[t].v);
			snprintf(note, cap, "the sharding of the value at %u:%u is "
			         "none of its options in the model (a pin it breaks, "
			         "sub-axes)", l.line, l.col);
			free(q);
			q = NULL;
			goto done;
		}
	}
	sli_cost_parts p;
	if (!why && sli_cost_eval_asg(cm, q, &p, NULL))
		why = "some op has no valid assignment under it";
	else if (!why && total)
		*total = p.total;
	if (!why && vals) {
		*vals = sli_xcalloc(sm.tensors.n + 1, sizeof **vals);
		for (size_t t = 0; t < sm.tensors.n; t++)
			(*vals)[t] = sm.tensors.v[t].v;
	}
out:
	if (why) {
		snprintf(note, cap, "%s", why);
		free(q);
		q = NULL;
	}
done:
	sli_cost_model_fini(&sm);
	return q;
}

/* The incumbent o->start as a point of cm (read_point) into *in; none,
 * with the reason in r->start_note, when it is not one. */
static void
read_start(const sli_cost_model *cm, const sli_solve_opts *o,
           sli_solve_result *r, incumbent *in)
{
	in->q = read_point(cm, o->start, r->start_note, sizeof r->start_note,
	                   &r->start_total, &in->v);
}

int
sli_solve_points(sl_module *m, const sli_solve_opts *o, sl_module *const *pts,
                 size_t n, int *in, char (*why)[128])
{
	/*
	 * A point of the model is an option of every tensor (read_point),
	 * equal on tied tensors, under which every op has an assignment
	 * (read_point scores it): the one-hot, tie and edge rows then hold,
	 * the agreement columns at zero.  No formulation is built.
	 */
	sli_cost_model cm;
	sli_cost_params cp = o->cost;
	cp.extend_results = true;
	cp.memory_budget = 0;	/* the evaluator flags a peak over it */
	sli_groups_resolve_conflicts(m);
	if (sli_cost_model_build(m, &cp, &cm))
		return -1;
	for (size_t i = 0; i < n; i++) {
		why[i][0] = 0;
		in[i] = 0;
		if (!pts[i]) {
			snprintf(why[i], sizeof why[i], "no result");
			continue;
		}
		sli_cost_asg *q = read_point(&cm, pts[i], why[i], sizeof why[i], NULL,
		                             NULL);
		if (!q)
			continue;
		in[i] = 1;
		for (size_t k = 0; k < cm.ties.n && in[i]; k++) {
			const sli_cost_tie *t = &cm.ties.v[k];
			if (memcmp(&q[t->a], &q[t->b], sizeof q[t->a])) {
				sl_loc la = sli_value_loc(cm.tensors.v[t->a].v);
				sl_loc lb = sli_value_loc(cm.tensors.v[t->b].v);
				in[i] = 0;
				snprintf(why[i], sizeof why[i], "tied values at %u:%u and "
				         "%u:%u differ (%s)", la.line, la.col, lb.line, lb.col,
				         t->why ? t->why : "a tie");
			}
		}
		free(q);
	}
	sli_cost_model_fini(&cm);
	return 0;
}

/*
 * Whether two axes of the model could trade places: the same mesh, size,
 * bandwidth and latency.  Branch and cut then branches on the most
 * fractional variable first.  The relaxation's optimum is there often
 * an average of equally cheap points (the axes trading places), with
 * many variables fractional alike; Driebeck and Tomlin's rule prices
 * each of them by a ratio test of its tableau row at every node, and on
 * such models took twice the nodes at twice the time per node (240
 * layers on 2x2x2 with only the input pinned: 138 nodes against 68,
 * 6.80 -> 4.57 s of CPU, the same answer).  Where no two axes are
 * alike their rule saves more nodes than it costs (12 layers on 8x8,
 * model axes of 8, 4 and 2: 21.6 s against 34.0 s most fractional
 * first).
 */
static bool
alike_axes(const sli_cost_model *cm)
{
	for (uint32_t a = 0; a < cm->naxes; a++)
		for (uint32_t b = a + 1; b < cm->naxes; b++)
			if (cm->axis_mesh[a] == cm->axis_mesh[b] &&
			    sli_cost_axes_alike(cm, a, b))
				return true;
	return false;
}

int
sli_solve(sl_module *m, const sli_solve_opts *o, sli_solve_result *r)
{
	sl_context *ctx = m->ctx;
	const sli_lp_backend *be = o->backend ? o->backend : &sli_lp_glpk;
	sli_cost_model cm;
	sli_form f;
	incumbent in = {NULL, NULL};
	int rc = 0;

	memset(r, 0, sizeof *r);
	r->status = SLI_LP_ERROR;
	r->bound = -INFINITY;
	r->objective = INFINITY;
	r->gap = INFINITY;
	/* the time limit covers everything from here: every solve ends by
	 * one deadline */
	double t_start = sli_lp_clock();
	double end = sli_lp_deadline(&o->lp, t_start);
	sli_solve_opts left = *o;
	left.lp.time_limit = 0;
	left.lp.deadline = isinf(end) ? 0 : end;
	/* groups in conflict are resolved as greedy resolves them */
	sli_groups_resolve_conflicts(m);
	/* the model of the solver lets result shardings grow, as greedy does */
	sli_cost_params cp = o->cost;
	cp.extend_results = true;
	cp.report = true;
	if (sli_cost_model_build(m, &cp, &cm))
		return -1;
	r->ntensors = cm.tensors.n;
	r->nops = cm.ops.n;
	left.lp.most_fractional = alike_axes(&cm);
	if (o->start && !o->no_solve)
		read_start(&cm, o, r, &in);
	/* the incumbent's price sizes what the solves must be exact against */
	if (in.q && isfinite(r->start_total))
		left.lp.obj_ref = fabs(r->start_total);
	/*
	 * An exported model is always the whole one; the solve goes by parts
	 * where the structure allows (solve_decomposed returns FALLBACK when
	 * not).
	 */
	bool decompose = !o->no_decompose && !o->no_solve;
	bool whole = false;
	if (o->write_lp || o->write_mps || o->no_solve) {
		if (sli_form_build(&f, &cm))
			goto infeasible;
		whole = true;
		model_size(&f, r);
		if (export(m, o, be, &f)) {
			rc = -1;
			goto out;
		}
		if (o->no_solve)
			goto out;
	}
	if (decompose) {
		if (sli_lp_clock() >= end)
			goto timeout;
		rc = solve_decomposed(m, &cm, &left, be, &in, r);
		if (rc != FALLBACK)
			goto out;
		rc = 0;
		r->status = SLI_LP_ERROR;
	}
	if (!whole) {
		if (sli_form_build(&f, &cm))
			goto infeasible;
		whole = true;
	}
	model_size(&f, r);

	/* the incumbent, as a point of the whole model */
	double *start = NULL;
	if (in.q) {
		start = sli_xcalloc(r->ncols + 1, sizeof *start);
		if (sli_form_encode(&f, in.q, start) ||
		    !sli_lp_feasible(&f.lp, start, 1e-9)) {
			snprintf(r->start_note, sizeof r->start_note, "breaks a row "
			         "of the model (the memory budget, a tie)");
			free(start);
			start = NULL;
			incumbent_free(&in);
		}
	}
	r->start_used = start != NULL;
	if (sli_lp_clock() >= end) {
		free(start);
		goto timeout;
	}
	sli_lp_opts lo = left.lp;
	lo.start = start;
	whole_watch ww = {&lo, t_start};
	if (lo.progress) {
		lo.on_node = whole_node;
		lo.on_node_arg = &ww;
		whole_node(&ww, 0, -1);
	}
	sli_lp_result lr;
	be->solve(&f.lp, &lo, &lr);
	free(start);
	r->status = lr.status;
	r->seconds = lr.seconds;
	r->bound = lr.bound;
	r->nsolves = 1;
	switch (lr.status) {
	case SLI_LP_INFEASIBLE:
		explain_infeasible(ctx, &cm, be, &left.lp, end);
		rc = 1;
		goto out;
	case SLI_LP_NO_SOLUTION:
		if (in.q) {
			rc = use_start(m, &cm, o, &in, r);
			goto out;
		}
		no_solution(ctx, r);
		rc = 1;
		goto out;
	case SLI_LP_ERROR:
		sli_error(ctx, sli_loc_none(), "solver failure: %s", lr.message);
		rc = -1;
		goto out;
	default:
		break;
	}
	r->objective = lr.objective;
	r->gap = lr.gap;

	sli_cost_asg *q = sli_xcalloc(cm.tensors.n + 1, sizeof *q);
	sli_form_decode(&f, lr.x, q, NULL);
	free(lr.x);
	sli_cost_asg *alt = tidy_two(&cm, q);
	rc = finish(m, &cm, o, q, alt, &in, r);
	free(alt);
	free(q);
out:
	if (whole)
		sli_form_fini(&f);
	sli_cost_model_fini(&cm);
	incumbent_free(&in);
	return rc;
timeout:
	r->status = SLI_LP_NO_SOLUTION;
	r->seconds = sli_lp_clock() - t_start;
	if (in.q) {
		rc = use_start(m, &cm, o, &in, r);
		goto out;
	}
	no_solution(ctx, r);
	rc = 1;
	goto out;
infeasible:
	sli_form_fini(&f);
	sli_cost_model_fini(&cm);
	incumbent_free(&in);
	r->status = SLI_LP_INFEASIBLE;
	return 1;
}
