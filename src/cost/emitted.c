/*
 * emitted.c - the evaluator's compute and communication (shardlp-cost(7),
 * "The collectives priced"): what Shardy's export runs for a module's
 * shardings.  Each op computes with the factor assignment its tensors
 * have once the export has resharded them; each collective the export
 * emits is priced by the alpha-beta model over the axes it spans, in
 * their order, on each axis's link.  Both are one walk of the program.
 *
 * A copy of the module (printed and read back: the module scored stays
 * as it is) runs what `shardlp propagate --pipeline --collectives` runs
 * after the propagation: the export steps, -sdy-insert-explicit-reshards
 * in its full version and -sdy-reshard-to-collectives.  Every collective
 * left in the copy is then priced; its bytes are those of its operand
 * (an all-reduce's: its result) under the operand's sharding.  The copy's
 * diagnostics are dropped: the module scored has reported its own.
 *
 * The ILP cannot price these exactly with linear terms (it prices each
 * axis apart, terms.h); the evaluator is therefore the one answer, and
 * the ILP's objective a bound on it (solver/solve.c).
 */
#include "cost/emitted.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cost/primitives.h"
#include "formats/mlir_parser.h"
#include "ir/access.h"
#include "ir/axis.h"
#include "ir/stablehlo_attrs.h"
#include "passes/symtab.h"
#include "shardlp.h"
#include "passes/options.h"
#include "pipeline/pipeline.h"
#include "pipeline/registry.h"

/* {====================================================================
 * Prices of one collective over a list of axes
 * ===================================================================== */

/* The link an axis ref uses: its mesh axis's (a sub-axis shares it). */
typedef struct link {
	double n, bw, lat;
} link;

static link
link_of(const sli_cost_model *cm, const sl_axis_ref *r, const sl_mesh *mesh)
{
	link l = {(double)sli_axis_size(r, mesh), cm->params.bandwidth,
	          cm->params.latency};
	for (uint32_t a = 0; a < cm->naxes; a++)
		if (cm->axis_name[a] == r->name) {
			l.bw = cm->axis_bw[a];
			l.lat = cm->axis_lat[a];
			break;
		}
	return l;
}

/* One ring step pattern: steps x (latency + bytes / bandwidth), in us. */
static double
ring(link l, double steps, double bytes)
{
	return steps * (l.lat + bytes / l.bw) * SLI_COST_UNIT;
}

/* What one collective costs and what each device sends. */
typedef struct price {
	double us, sent;
} price;

/* The links of the axes of l, in order, into k (at most
 * SLI_COST_MAX_AXES); their count. */
static uint32_t
links_of(const sli_cost_model *cm, const sl_mesh *mesh, const sl_axis_list *l, link *k)
{
	uint32_t n = l->n < SLI_COST_MAX_AXES ? l->n : SLI_COST_MAX_AXES;
	for (uint32_t i = 0; i < n; i++)
		k[i] = link_of(cm, &l->v[i], mesh);
	return n;
}

/* An all-gather of pieces of b bytes over links in order: each gathers
 * what the ones before it have gathered. */
static void
gather_on(const link *k, uint32_t n, double *b, price *p)
{
	for (uint32_t i = 0; i < n; i++) {
		p->us += ring(k[i], k[i].n - 1, *b);
		p->sent += (k[i].n - 1) * *b;
		*b *= k[i].n;
	}
}

/* A reduce-scatter of b bytes over links in order: each scatters what
 * the ones before it have left. */
static void
scatter_on(const link *k, uint32_t n, double *b, price *p)
{
	for (uint32_t i = 0; i < n; i++) {
		p->us += ring(k[i], k[i].n - 1, *b / k[i].n);
		p->sent += (k[i].n - 1) * *b / k[i].n;
		*b /= k[i].n;
	}
}

/* An all-to-all of b bytes per device over links: per link, each device
 * keeps 1/n of its piece and sends the rest; the piece keeps its size. */
static void
all_to_all_on(const link *k, uint32_t n, double b, price *p)
{
	for (uint32_t i = 0; i < n; i++) {
		p->us += ring(k[i], k[i].n - 1, b / k[i].n);
		p->sent += (k[i].n - 1) * b / k[i].n;
	}
}

static void
gather(const sli_cost_model *cm, const sl_mesh *mesh, const sl_axis_list *l,
       double *b, price *p)
{
	link k[SLI_COST_MAX_AXES];
	gather_on(k, links_of(cm, mesh, l, k), b, p);
}

static void
scatter(const sli_cost_model *cm, const sl_mesh *mesh, const sl_axis_list *l,
        double *b, price *p)
{
	link k[SLI_COST_MAX_AXES];
	scatter_on(k, links_of(cm, mesh, l, k), b, p);
}

static void
all_to_all(const sli_cost_model *cm, const sl_mesh *mesh, const sl_axis_list *l,
           double b, price *p)
{
	link k[SLI_COST_MAX_AXES];
	all_to_all_on(k, links_of(cm, mesh, l, k), b, p);
}

/* A collective permute of b bytes: one step on the slowest link of the
 * axes either side uses (a device's piece moves along those). */
static void
permute(const sli_cost_model *cm, const sl_mesh *mesh, const sl_sharding *const *s,
        double b, price *p)
{
	double worst = 0;
	for (int k = 0; k < 2; k++)
		for (uint32_t d = 0; s[k] && d < s[k]->rank; d++)
			for (uint32_t i = 0; i < s[k]->dims[d].axes.n; i++) {
				link l = link_of(cm, &s[k]->dims[d].axes.v[i], mesh);
				worst = fmax(worst, ring(l, 1, b));
			}
	p->us += worst;
	p->sent += b;
}

/* }==================================================================== */

/* {====================================================================
 * The collectives of a module
 * ===================================================================== */

/* Per-device bytes of a value of type ty under s (NULL: replicated). */
static double
value_bytes(const sl_module *m, const sl_type *ty, const sl_sharding *s)
{
	if (ty->kind != SL_TYPE_TENSOR || ty->unranked)
		return 0;
	const sl_mesh *mesh = s ? sli_sharding_mesh(m, s) : NULL;
	double e = ty->elem && ty->elem->bits ? (ty->elem->bits + 7) / 8 : 4;
	for (uint32_t d = 0; d < ty->rank; d++) {
		int64_t n = 1, dim = ty->dims[d] == SL_DYN ? 1 : ty->dims[d];
		for (uint32_t i = 0; mesh && s && d < s->rank && i < s->dims[d].axes.n; i++)
			n *= sli_axis_size(&s->dims[d].axes.v[i], mesh);
		e *= (double)((dim + n - 1) / (n > 0 ? n : 1));
	}
	return e;
}

typedef struct walk {
	const sli_cost_model *cm;
	sl_module *m;
	sli_cost_parts *out;
} walk;

/* The axis lists of a per-dimension property, concatenated in order. */
static void
lists_do(const sl_attr *a, void (*fn)(const sli_cost_model *, const sl_mesh *,
                                      const sl_axis_list *, double *, price *),
         const sli_cost_model *cm, const sl_mesh *mesh, double *b, price *p)
{
	for (uint32_t d = 0; a && a->kind == SL_ATTR_AXIS_REF_LISTS && d < a->u.lists.n; d++)
		fn(cm, mesh, &a->u.lists.v[d], b, p);
}

/* {--------------------------------------------------------------------
 * The collectives a program writes itself (StableHLO's, in manual code)
 * --------------------------------------------------------------------- */

/* The slowest link of the model (the defaults without axes), of n devices. */
static link
slowest(const sli_cost_model *cm, double n)
{
	link l = {n, cm->params.bandwidth, cm->params.latency};
	for (uint32_t a = 0; a < cm->naxes; a++)
		if (a == 0 || cm->axis_bw[a] < l.bw ||
		    (cm->axis_bw[a] == l.bw && cm->axis_lat[a] > l.lat)) {
			l.bw = cm->axis_bw[a];
			l.lat = cm->axis_lat[a];
		}
	return l;
}

/* The mesh axis named by the text [p, p + n) of mesh, or -1. */
static int
axis_named(const sl_module *m, const sl_mesh *mesh, const char *p, size_t n)
{
	for (uint32_t x = 0; mesh && x < mesh->naxes; x++) {
		const char *s = sl_sym_str(m->ctx, mesh->axes[x].name);
		if (strlen(s) == n && !memcmp(s, p, n))
			return (int)x;
	}
	return -1;
}

/* The links of the axes named `name = "..."` in the text [p, e) of a
 * replica group on mesh, in order, into k; their count. */
static uint32_t
named_links(const walk *w, const sl_mesh *mesh, const char *p, const char *e, link *k)
{
	static const char key[] = "name = \"";
	uint32_t n = 0;
	while (mesh && n < SLI_COST_MAX_AXES && p < e &&
	       (p = memmem(p, (size_t)(e - p), key, sizeof key - 1))) {
		p += sizeof key - 1;
		const char *q = memchr(p, '"', (size_t)(e - p));
		int x = q ? axis_named(w->m, mesh, p, (size_t)(q - p)) : -1;
		if (x >= 0) {
			sl_axis_ref ref = sli_axis_full(mesh->axes[x].name);
			k[n++] = link_of(w->cm, &ref, mesh);
		}
		p = q ? q + 1 : e;
	}
	return n;
}

/* The mesh declared as @name ([p, p + n)), or NULL. */
static const sl_mesh *
mesh_called(sl_module *m, const char *p, size_t n)
{
	char *s = strndup(p, n);
	sl_sharding named;
	memset(&named, 0, sizeof named);
	named.mesh_name = s ? sli_sym(m, s) : 0;
	free(s);
	return named.mesh_name ? sli_sharding_mesh(m, &named) : NULL;
}

/*
 * The links a StableHLO collective's replica groups span, into k: for
 * #stablehlo.replica_group_mesh_axes the named axes in order, each on its
 * link; for dense<[[...], ...]> groups of n devices, one ring of n on the
 * slowest link of the model (which axes a list of devices spans is not
 * read).  Their count; 0 when there are none to read.
 */
static uint32_t
group_links(const walk *w, const sl_op *op, link *k)
{
	const sl_attr *a = sli_op_get(op, sli_sym(w->m, "replica_groups"));
	const sl_replica_mesh_axes *r = sli_attr_get_replica_mesh_axes(a);
	if (r) {
		sl_sharding named;
		memset(&named, 0, sizeof named);
		named.mesh_name = r->mesh_name;
		const sl_mesh *mesh = r->mesh_name ? sli_sharding_mesh(w->m, &named) : &r->mesh;
		return named_links(w, mesh, r->tail, r->tail + r->ntail, k);
	}
	if (a && a->kind == SL_ATTR_OPAQUE) {
		/* #stablehlo.replica_group_mesh_axes<mesh = @name, axes = ...> */
		static const char key[] = "mesh = @";
		const char *p = a->u.text.p, *e = p + a->u.text.n;
		const char *at = memmem(p, a->u.text.n, key, sizeof key - 1);
		if (!at)
			return 0;
		at += sizeof key - 1;
		size_t len = strcspn(at, ",> ");
		if (len > (size_t)(e - at))
			len = (size_t)(e - at);
		return named_links(w, mesh_called(w->m, at, len), at + len, e, k);
	}
	if (!a || a->kind != SL_ATTR_DENSE || !a->u.dense.type ||
	    a->u.dense.type->rank != 2 || a->u.dense.type->dims[1] < 2)
		return 0;
	k[0] = slowest(w->cm, (double)a->u.dense.type->dims[1]);
	return 1;
}

/* Per-device bytes of the values vs[0..n), as their local types say. */
static double
local_bytes(const sl_module *m, sl_value *const *vs, const sl_value *rs, uint32_t n)
{
	double b = 0;
	for (uint32_t i = 0; i < n; i++)
		b += value_bytes(m, vs ? vs[i]->type : rs[i].type, NULL);
	return b;
}

/*
 * A StableHLO collective written in the program (in the body of a manual
 * computation its types are per device): priced as the export's are, on
 * the links its replica groups span (a collective permute: one step on
 * the slowest link).  False for any other op.
 */
static bool
price_written(walk *w, const sl_op *op)
{
	link k[SLI_COST_MAX_AXES];
	price p = {0, 0};
	sli_cost_coll kind;
	uint32_t n = 0;
	double b = local_bytes(w->m, op->operands, NULL, op->noperands);
	switch (op->kind) {
	case SL_OP_ALL_REDUCE:
		kind = SLI_COLL_ALL_REDUCE;
		n = group_links(w, op, k);
		b = local_bytes(w->m, NULL, op->results, op->nresults);
		scatter_on(k, n, &b, &p);
		gather_on(k, n, &b, &p);
		break;
	case SL_OP_ALL_GATHER:
		kind = SLI_COLL_ALL_GATHER;
		gather_on(k, group_links(w, op, k), &b, &p);
		break;
	case SL_OP_REDUCE_SCATTER:
		kind = SLI_COLL_REDUCE_SCATTER;
		scatter_on(k, group_links(w, op, k), &b, &p);
		break;
	case SL_OP_ALL_TO_ALL:
		kind = SLI_COLL_ALL_TO_ALL;
		all_to_all_on(k, group_links(w, op, k), b, &p);
		break;
	case SL_OP_COLLECTIVE_PERMUTE:
		kind = SLI_COLL_PERMUTE;
		p.us = ring(slowest(w->cm, 2), 1, b);
		p.sent = b;
		break;
	default:
		return false;
	}
	if (p.sent > 0) {	/* groups of one device move nothing */
		w->out->communication += p.us;
		w->out->ncoll[kind] += 1;
		w->out->coll_bytes[kind] += p.sent;
	}
	return true;
}

/* }-------------------------------------------------------------------- */

static int
price_op(sl_op *op, void *ud)
{
	walk *w = ud;
	const sli_cost_model *cm = w->cm;
	if (price_written(w, op))
		return 0;
	if (sli_op_info[op->kind].format != SL_FMT_SDY_COLLECTIVE || !op->noperands)
		return 0;
	const sl_sharding *s[2] = {sli_value_sharding_seen(w->m, op->operands[0]),
	                           sli_value_sharding(&op->results[0])};
	const sl_mesh *mesh = sli_sharding_mesh(w->m, s[1] ? s[1] : s[0]);
	if (!mesh)
		return 0;
	double b = value_bytes(w->m, op->operands[0]->type, s[0]);
	price p = {0, 0};
	sli_cost_coll kind;
	switch (op->kind) {
	case SL_OP_SDY_ALL_GATHER:
		kind = SLI_COLL_ALL_GATHER;
		lists_do(sli_op_get(op, SLS_gathering_axes), gather, cm, mesh, &b, &p);
		break;
	case SL_OP_SDY_REDUCE_SCATTER:
		kind = SLI_COLL_REDUCE_SCATTER;
		lists_do(sli_op_get(op, SLS_scatter_axes), scatter, cm, mesh, &b, &p);
		break;
	case SL_OP_SDY_ALL_REDUCE: {
		/* a reduce-scatter then an all-gather over the same axes */
		kind = SLI_COLL_ALL_REDUCE;
		const sl_attr *a = sli_op_get(op, SLS_reduction_axes);
		if (a && a->kind == SL_ATTR_AXIS_REF_LIST) {
			scatter(cm, mesh, &a->u.axes, &b, &p);
			gather(cm, mesh, &a->u.axes, &b, &p);
		}
		break;
	}
	case SL_OP_SDY_ALL_TO_ALL: {
		kind = SLI_COLL_ALL_TO_ALL;
		const sl_attr *a = sli_op_get(op, SLS_params);
		for (uint32_t i = 0; a && a->kind == SL_ATTR_ALL_TO_ALL_PARAMS && i < a->u.a2a.n; i++)
			all_to_all(cm, mesh, &a->u.a2a.v[i].axes, b, &p);
		break;
	}
	case SL_OP_SDY_COLLECTIVE_PERMUTE:
		kind = SLI_COLL_PERMUTE;
		permute(cm, mesh, s, b, &p);
		break;
	default:
		return 0;	/* all-slice and the unreduced conversions are local */
	}
	w->out->communication += p.us;
	w->out->ncoll[kind] += 1;
	w->out->coll_bytes[kind] += p.sent;
	return 0;
}

/*
 * The factor assignment op o of model cc runs with, read off its tensors'
 * shardings q: each axis on a dim goes to the factor that leads the dim
 * (the first tensor that has it wins).
 */
static void
assignment_of(const sli_cost_model *cc, uint32_t o, const sli_cost_asg *q,
              sli_cost_asg *s)
{
	const sli_cost_op *co = &cc->ops.v[o];
	memset(s->a, SLI_COST_NONE, sizeof s->a);
	for (uint32_t k = 0; k < co->noperands + co->nresults; k++) {
		bool res = k >= co->noperands;
		uint32_t i = res ? k - co->noperands : k;
		uint32_t t = res ? co->results[i] : co->operands[i];
		const sl_tensor_mapping *tm = sli_cost_mapping_of(co, res, i);
		for (uint32_t d = 0; tm && t != SLI_COST_NO_TENSOR && d < tm->rank; d++)
			for (uint32_t a = 0; tm->dims[d].n && a < cc->naxes; a++)
				if (q[t].a[a] == (int8_t)d && s->a[a] < 0)
					s->a[a] = (int8_t)tm->dims[d].factors[0];
	}
}

/* The compute of the exported copy c: every op with the assignment its
 * tensors give it.  Returns 0 or -1 (no model of c). */
static int
compute_of(sl_module *c, const sli_cost_model *cm, double *out)
{
	sli_cost_params cp = cm->params;
	sli_cost_model cc;
	cp.report = false;
	if (sli_cost_model_build(c, &cp, &cc))
		return -1;
	sli_cost_asg *q = sli_xcalloc(cc.tensors.n + 1, sizeof *q);
	sli_cost_read(&cc, q, NULL);
	*out = 0;
	for (uint32_t o = 0; o < cc.ops.n; o++) {
		sli_cost_asg s;
		double comp = 0;
		assignment_of(&cc, o, q, &s);
		sli_cost_op_self(&cc, o, &s, &comp, NULL);
		*out += comp;
	}
	free(q);
	sli_cost_model_fini(&cc);
	return 0;
}

static void
drop_diag(void *ud, const sl_diag *d)
{
	(void)ud;
	(void)d;
}

/* Runs pass `flag` with options text on m.  Returns 0 or -1. */
static int
run_pass(sl_module *m, const char *flag, const char *options)
{
	const sli_pass_info *p = sli_pass_find(flag, strlen(flag));
	sli_pass_opts opts;
	char err[256];
	if (!p || sli_pass_opts_parse(p, options, &opts, err, sizeof err))
		return -1;
	int rc = p->run(m, &opts);
	sli_pass_opts_fini(&opts);
	return rc ? -1 : 0;
}

sl_module *
sli_cost_copy(sl_module *m)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	int rc = sl_module_print(m, f, NULL);
	if (fclose(f) || rc) {
		free(text);
		return NULL;
	}
	sl_module *c = sli_mlir_parse_at(m->ctx, "<copy>", text, len, 1);
	free(text);
	return c;
}

/* A copy of m through the export (file comment), or NULL. */
static sl_module *
exported_copy(sl_module *m)
{
	sl_module *c = sli_cost_copy(m);
	sli_pipeline_state s;
	if (c) {
		sli_pipeline_start(&s, c, false, true);
		if (sli_pipeline_run(c, &sli_export_steps, &s) ||
		    run_pass(c, "sdy-insert-explicit-reshards", "enable-full-version=true") ||
		    run_pass(c, "sdy-reshard-to-collectives", "")) {
			sl_module_free(c);
			c = NULL;
		}
	}
	return c;
}

int
sli_cost_emitted(sl_module *m, const sli_cost_model *cm, sli_cost_parts *out)
{
	sl_context *ctx = m->ctx;
	sl_diag_fn *fn = ctx->diag_fn;
	void *ud = ctx->diag_ud;
	unsigned errors = ctx->errors;
	ctx->diag_fn = drop_diag;
	ctx->diag_ud = NULL;
	sl_module *c = exported_copy(m);
	ctx->diag_fn = fn;
	ctx->diag_ud = ud;
	ctx->errors = errors;
	double compute;
	if (c && compute_of(c, cm, &compute)) {
		sl_module_free(c);
		c = NULL;
	}
	if (!c)
		return -1;
	out->compute = compute;
	out->communication = 0;
	for (int k = 0; k < SLI_COLL_KINDS; k++)
		out->ncoll[k] = out->coll_bytes[k] = 0;
	walk w = {cm, c, out};
	sli_walk(c->top, price_op, &w);
	sl_module_free(c);
	return 0;
}

/* }==================================================================== */
