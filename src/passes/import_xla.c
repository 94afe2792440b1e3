/*
 * import_xla.c - -sdy-import-xla: the sharding encodings JAX, XLA and
 * torch-xla write, turned into sdy.  Two families, as XLA reads them:
 *
 *   Shardy's round trip (the module has `xla.sdy.*` frontend attributes):
 *   `xla.sdy.meshes` becomes sdy.mesh ops, `xla.sdy.sharding` the sdy
 *   shardings of arguments, results and the custom calls that keep one,
 *   `xla.sdy.sharding_rule` an op's rule; the `mhlo.sharding` beside them
 *   only repeats them and is dropped.
 *   GSPMD (`mhlo.sharding` strings alone): every string is read
 *   (formats/gspmd.h) and expressed over one mesh `@mesh` whose axes
 *   split the device order where the shardings need it; maximal shardings
 *   get meshes `@maximal_mesh_N`.  A form with no sdy equivalent (manual,
 *   shard_as, a device list that is no iota) is kept with a warning.
 *
 * Then the custom calls: @Sharding becomes sdy.sharding_constraint,
 * @xla.sdy.FuncResultSharding the function's result sharding,
 * @xla.sdy.ShardingGroup and @xla.sdy.PropagationBarrier their sdy ops,
 * and a call of @xla.sdy.manual_computation_body between its shape custom
 * calls an sdy.manual_computation, as does a call between GSPMD's
 * @SPMDFullToShardShape and @SPMDShardToFullShape.
 * A malformed string is an error located inside the string.
 */
#include "passes/pass.h"
#include "passes/passutil.h"

#include "formats/gspmd.h"
#include "formats/xla_sdy.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Where an mhlo.sharding string was found, for the GSPMD conversion. */
typedef enum { AT_ARG, AT_RES, AT_OP } site_kind;

typedef struct site {
	site_kind kind;
	sl_op *op;		/* the op, or the function */
	uint32_t index;		/* argument or result number */
	const sl_attr *str;
	sli_hlo_sharding h;
	bool fits;		/* its tiles fit the common mesh */
} site;

typedef struct imp {
	sl_module *m;
	sl_context *ctx;
	bool round_trip;
	int failed;
	sl_sym fa, xs_sharding, xs_rule, xs_custom_rule, mhlo_sharding;
	SL_VEC(site) sites;
	/* the GSPMD mesh */
	sli_symtab syms;
	sli_gspmd_cuts cuts;
	sl_sym mesh;		/* 0 until made */
	int64_t *sizes;
	uint32_t naxes;
	SL_VEC(sl_sym) axis_names;
	SL_VEC(int64_t) maximal_ids;
	SL_VEC(sl_sym) maximal_names;
	const char *why;	/* why the last conversion kept its string */
	sli_opvec bodies;	/* body calls seen (kept ones stay listed) */
	SL_VEC(site) deferred;	/* manual GSPMD forms a shard_map may take */
	SL_VEC(sl_sym) inlined;	/* bodies inlined into manual computations */
} imp;

/* ====================================================================
 * Frontend-attribute dictionaries
 * ==================================================================== */

/* The frontend-attribute dictionary in a named-attribute array, or NULL. */
static sl_attr *
fa_dict(imp *I, const sl_named_attr *v, uint32_t n)
{
	sl_attr *d = sli_dict_get(v, n, I->fa);
	return d && d->kind == SL_ATTR_DICT ? d : NULL;
}

static const sl_attr *
fa_string(const sl_attr *dict, sl_sym key)
{
	sl_attr *s = dict ? sli_dict_get(dict->u.dict.v, dict->u.dict.n, key) : NULL;
	return s && s->kind == SL_ATTR_STRING ? s : NULL;
}

/* dict without `key`, or NULL when nothing is left. */
static sl_attr *
fa_without(imp *I, const sl_attr *dict, sl_sym key)
{
	sl_attr *d = sli_attr_new(I->m, SL_ATTR_DICT);
	d->loc = dict->loc;
	d->u.dict.v = SL_NEWN(&I->m->arena, sl_named_attr, dict->u.dict.n);
	for (uint32_t i = 0; i < dict->u.dict.n; i++)
		if (dict->u.dict.v[i].name != key)
			d->u.dict.v[d->u.dict.n++] = dict->u.dict.v[i];
	return d->u.dict.n ? d : NULL;
}

/* A copy of a named-attribute array with `name` set (removed if NULL). */
static sl_named_attr *
named_put(imp *I, const sl_named_attr *v, uint32_t n, sl_sym name, sl_attr *a,
          uint32_t *nout)
{
	sl_named_attr *nv = SL_NEWN(&I->m->arena, sl_named_attr, n + 1);
	uint32_t k = 0;
	bool done = false;
	for (uint32_t i = 0; i < n; i++) {
		if (v[i].name != name) {
			nv[k++] = v[i];
		} else if (a) {
			nv[k].name = name;
			nv[k++].attr = a;
			done = true;
		}
	}
	if (!done && a) {
		nv[k].name = name;
		nv[k++].attr = a;
		sli_sort_named(I->ctx, nv, k);
	}
	*nout = k;
	return nv;
}

/* Attribute `name` of function argument or result i, or op's own. */
static sl_attr *
site_attr(const site *s, sl_sym name)
{
	if (s->kind == AT_OP)
		return sli_op_attr(s->op, name);
	if (s->kind == AT_ARG) {
		sl_block *b = sli_func_body(s->op);
		return b ? sli_arg_attr(&b->args[s->index], name) : NULL;
	}
	sl_attr *ra = sli_op_get(s->op, SLS_res_attrs);
	if (!ra || ra->kind != SL_ATTR_ARRAY || s->index >= ra->u.arr.n ||
	    ra->u.arr.v[s->index]->kind != SL_ATTR_DICT)
		return NULL;
	sl_attr *d = ra->u.arr.v[s->index];
	return sli_dict_get(d->u.dict.v, d->u.dict.n, name);
}

static void
site_set(imp *I, const site *s, sl_sym name, sl_attr *a)
{
	if (s->kind == AT_OP) {
		sli_op_set_attr(I->m, s->op, name, a);
	} else if (s->kind == AT_ARG) {
		sl_value *v = &sli_func_body(s->op)->args[s->index];
		uint32_t n;
		sl_named_attr *attrs = sli_arg_attrs(v, &n);
		attrs = named_put(I, attrs, n, name, a, &n);
		sli_arg_set_attrs(I->m, v, attrs, n);
	} else if (a || site_attr(s, name)) {
		sli_func_set_res_attr(I->m, s->op, s->index, name, a);
	}
}

/* Removes `key` from the site's frontend attributes. */
static void
site_drop_fa(imp *I, const site *s, sl_sym key)
{
	sl_attr *d = site_attr(s, I->fa);
	if (d && d->kind == SL_ATTR_DICT && sli_dict_get(d->u.dict.v, d->u.dict.n, key))
		site_set(I, s, I->fa, fa_without(I, d, key));
}

/* The attribute spelled by frontend string `key` of the site, of kind
 * `want`; NULL when absent or after an error. */
static sl_attr *
site_parse(imp *I, const site *s, sl_sym key, sl_attr_kind want, const char *what)
{
	sl_attr *d = site_attr(s, I->fa);
	const sl_attr *str = d && d->kind == SL_ATTR_DICT ? fa_string(d, key) : NULL;
	if (!str)
		return NULL;
	sl_attr *a = sli_xla_sdy_parse(I->m, str);
	if (!a) {
		I->failed = 1;
		return NULL;
	}
	if (a->kind != want) {
		sli_error(I->ctx, sli_string_loc(str, 0), "expected %s in '%s'", what,
		          sl_sym_str(I->ctx, key));
		I->failed = 1;
		return NULL;
	}
	return a;
}

/* ====================================================================
 * Shardy's round trip
 * ==================================================================== */

/* xla.sdy.meshes = "{name = #sdy.mesh<...>, ...}" on the module */
static void
import_meshes(imp *I)
{
	sl_op *top = I->m->top;
	site s = {AT_OP, top, 0, NULL, {0}, false};
	sl_sym key = sli_sym(I->m, "xla.sdy.meshes");
	sl_attr *d = site_parse(I, &s, key, SL_ATTR_DICT, "a dictionary of meshes");
	if (!d)
		return;
	I->round_trip = true;
	sl_op *before = sli_module_body(I->m)->first;
	for (uint32_t i = 0; i < d->u.dict.n; i++) {
		sl_attr *mesh = d->u.dict.v[i].attr;
		if (mesh->kind != SL_ATTR_MESH) {
			sli_error(I->ctx, mesh->loc, "expected #sdy.mesh in 'xla.sdy.meshes'");
			I->failed = 1;
			return;
		}
		sl_op *op = sli_op_create(I->m, SL_OP_SDY_MESH, NULL, 0, NULL, 0, 0);
		op->loc = top->loc;
		sli_set_sym_name(I->m, op, d->u.dict.v[i].name);
		sli_op_set_prop(I->m, op, SLS_mesh, mesh);
		sli_symtab_insert(&I->syms, op, before);
	}
	site_drop_fa(I, &s, key);
}

/* Whether any argument, result or op carries an xla.sdy.* string. */
static int
find_round_trip(sl_op *op, void *ud)
{
	imp *I = ud;
	sl_attr *d = fa_dict(I, op->attrs, op->nattrs);
	/* shardings mark the round trip; a sharding rule alone does not */
	for (uint32_t i = 0; d && i < d->u.dict.n; i++) {
		const char *key = sl_sym_str(I->ctx, d->u.dict.v[i].name);
		if (!strncmp(key, "xla.sdy.", 8) && strstr(key, "sharding") && !strstr(key, "rule"))
			I->round_trip = true;
	}
	sl_block *b = op->kind == SL_OP_FUNC ? sli_func_body(op) : NULL;
	for (uint32_t i = 0; b && i < b->nargs; i++) {
		site s = {AT_ARG, op, i, NULL, {0}, false};
		if (fa_string(site_attr(&s, I->fa), I->xs_sharding))
			I->round_trip = true;
	}
	for (uint32_t i = 0; op->kind == SL_OP_FUNC && i < sli_func_nresults(op); i++) {
		site s = {AT_RES, op, i, NULL, {0}, false};
		if (fa_string(site_attr(&s, I->fa), I->xs_sharding))
			I->round_trip = true;
	}
	return I->round_trip;
}

static sl_sym
target_of(imp *I, const sl_op *op)
{
	if (op->kind != SL_OP_CUSTOM_CALL)
		return 0;
	sl_attr *t = sli_op_get(op, SLS_call_target_name);
	return t ? sli_attr_sym(I->ctx, t) : 0;
}

static bool
target_is(imp *I, const sl_op *op, const char *name)
{
	sl_sym t = target_of(I, op);
	return t && !strcmp(sl_sym_str(I->ctx, t), name);
}

/* The ops that keep their round-tripped sharding (XLA drops the others:
 * its passes copy frontend attributes onto ops of other shapes). */
static bool
keeps_sharding(imp *I, const sl_op *op)
{
	static const char *const targets[] = {
		"Sharding", "SPMDFullToShardShape", "SPMDShardToFullShape",
		"xla.sdy.FuncResultSharding", "xla_python_cpu_callback",
		"xla_python_gpu_callback", "xla_ffi_python_cpu_callback",
		"xla_ffi_python_gpu_callback",
	};
	const char *name = sl_sym_str(I->ctx, op->name);
	if (!strcmp(name, "stablehlo.send") || !strcmp(name, "stablehlo.recv"))
		return true;
	for (size_t i = 0; i < sizeof targets / sizeof *targets; i++)
		if (target_is(I, op, targets[i]))
			return true;
	return false;
}

static void
import_site_sharding(imp *I, const site *s)
{
	bool op = s->kind == AT_OP;
	sl_attr *a = site_parse(I, s, I->xs_sharding, op ? SL_ATTR_SHARDING_PER_VALUE : SL_ATTR_SHARDING,
	                        op ? "#sdy.sharding_per_value" : "#sdy.sharding");
	if (!fa_string(site_attr(s, I->fa), I->xs_sharding))
		return;
	if (a && (!op || keeps_sharding(I, s->op)))
		site_set(I, s, SLS_sdy_sharding, a);
	site_drop_fa(I, s, I->xs_sharding);
}

static void
import_site_rule(imp *I, const site *s, sl_sym key)
{
	sl_attr *a = site_parse(I, s, key, SL_ATTR_RULE, "#sdy.op_sharding_rule");
	if (a) {
		sli_op_set_rule_attr(I->m, s->op, a);
		site_drop_fa(I, s, key);
	}
}

/* ====================================================================
 * Collecting mhlo.sharding strings
 * ==================================================================== */

/* had_sdy: the site had an xla.sdy.sharding, which the string repeats;
 * in a round-trip module an argument's string without one is a form an
 * earlier import kept, and stays as it is (a result's sharding comes
 * from @xla.sdy.FuncResultSharding: its string only repeats it). */
static void
collect_gspmd(imp *I, site *s, bool had_sdy)
{
	sl_attr *str = site_attr(s, I->mhlo_sharding);
	if (!str || str->kind != SL_ATTR_STRING)
		return;
	if (I->round_trip) {
		if (had_sdy || s->kind != AT_ARG)
			site_set(I, s, I->mhlo_sharding, NULL);
		return;
	}
	char msg[160];
	size_t off = 0;
	s->str = str;
	if (sli_gspmd_parse(&I->m->arena, str->u.s.p, str->u.s.n, &s->h, &off, msg, sizeof msg)) {
		sli_error(I->ctx, sli_string_loc(str, off), "%s", msg);
		I->failed = 1;
		return;
	}
	SL_VEC_PUSH(I->sites, *s);
}

static void
visit_site(imp *I, site *s)
{
	bool had_sdy = fa_string(site_attr(s, I->fa), I->xs_sharding) != NULL;
	import_site_sharding(I, s);
	if (s->kind == AT_OP) {
		import_site_rule(I, s, I->xs_rule);
		import_site_rule(I, s, I->xs_custom_rule);
	}
	collect_gspmd(I, s, had_sdy);
}

static int
visit_op(sl_op *op, void *ud)
{
	imp *I = ud;
	if (op->kind == SL_OP_MODULE)
		return 0;
	site s = {AT_OP, op, 0, NULL, {0}, false};
	if (op->kind != SL_OP_FUNC) {
		visit_site(I, &s);
		return I->failed;
	}
	sl_block *b = sli_func_body(op);
	for (uint32_t i = 0; b && i < b->nargs; i++) {
		site a = {AT_ARG, op, i, NULL, {0}, false};
		visit_site(I, &a);
	}
	for (uint32_t i = 0; i < sli_func_nresults(op); i++) {
		site r = {AT_RES, op, i, NULL, {0}, false};
		visit_site(I, &r);
	}
	return I->failed;
}

/* ====================================================================
 * GSPMD shardings to sdy
 * ==================================================================== */

static sl_sharding *
new_sharding(imp *I, sl_sym mesh, uint32_t rank, bool open)
{
	sl_sharding *sh = SL_NEW(&I->m->arena, sl_sharding);
	sh->mesh_name = mesh;
	sh->rank = rank;
	sh->dims = rank ? SL_NEWN(&I->m->arena, sl_dim_sharding, rank) : NULL;
	for (uint32_t d = 0; d < rank; d++) {
		sh->dims[d].open = open;
		sh->dims[d].priority = SL_NO_PRIORITY;
	}
	return sh;
}

static sl_op *
mesh_op(imp *I, const char *name, const sl_mesh *mesh)
{
	sl_op *op = sli_op_create(I->m, SL_OP_SDY_MESH, NULL, 0, NULL, 0, 0);
	op->loc = I->m->top->loc;
	sli_set_sym_name(I->m, op, sli_sym(I->m, name));
	sl_attr *a = sli_attr_new(I->m, SL_ATTR_MESH);
	a->u.mesh = *mesh;
	sli_op_set_prop(I->m, op, SLS_mesh, a);
	/* among the meshes in name order, as xla.sdy.meshes lists them, so
	 * that an export and a new import keep the order */
	sl_op *before = sli_module_body(I->m)->first;
	while (before && before->kind == SL_OP_SDY_MESH &&
	       strcmp(sl_sym_str(I->ctx, sli_op_sym_name(I->m, before)), name) < 0)
		before = before->next;
	sli_symtab_insert(&I->syms, op, before);
	return op;
}

/* The common mesh `@mesh`, made on first use. */
static sl_sym
common_mesh(imp *I)
{
	if (I->mesh)
		return I->mesh;
	sl_mesh mesh = {0};
	mesh.naxes = I->naxes;
	mesh.axes = I->naxes ? SL_NEWN(&I->m->arena, sl_mesh_axis, I->naxes) : NULL;
	for (uint32_t a = 0; a < I->naxes; a++) {
		char name[32];
		snprintf(name, sizeof name, "_axis_%" PRIu32, a);
		mesh.axes[a].name = sli_sym(I->m, name);
		mesh.axes[a].size = I->sizes[a];
		SL_VEC_PUSH(I->axis_names, mesh.axes[a].name);
	}
	I->mesh = sli_op_sym_name(I->m, mesh_op(I, "mesh", &mesh));
	return I->mesh;
}

static sl_sym
maximal_mesh(imp *I, int64_t device)
{
	for (size_t i = 0; i < I->maximal_ids.n; i++)
		if (I->maximal_ids.v[i] == device)
			return I->maximal_names.v[i];
	sl_mesh mesh = {0};
	mesh.nids = 1;
	mesh.ids = SL_NEW(&I->m->arena, int64_t);
	mesh.ids[0] = device;
	char name[48];
	snprintf(name, sizeof name, "maximal_mesh_%" PRId64, device);
	sl_sym s = sli_op_sym_name(I->m, mesh_op(I, name, &mesh));
	SL_VEC_PUSH(I->maximal_ids, device);
	SL_VEC_PUSH(I->maximal_names, s);
	return s;
}

/* The sdy form of tiled sharding h for a tensor of `rank`, or NULL. */
static sl_sharding *
tiled(imp *I, const site *s, const sli_hlo_sharding *h, uint32_t rank)
{
	I->why = "its device order does not fit the mesh of the other shardings";
	if (!s->fits)
		return NULL;
	I->why = "its tile assignment does not match the rank";
	if (h->ntile - h->nsub != rank)
		return NULL;
	I->why = "manual axes exist only inside a manual computation";
	for (uint32_t k = 0; k < h->nsub; k++)
		if (h->subgroups[k] != SLI_HLO_REPLICATED)
			return NULL;
	uint32_t *axes = sli_xmalloc(sizeof *axes * (I->naxes + 1));
	uint32_t *first = sli_xmalloc(sizeof *first * (h->ntile + 1));
	sl_sharding *sh = NULL;
	if (sli_gspmd_tile_axes(&I->cuts, h, axes, first)) {
		sh = new_sharding(I, common_mesh(I), rank, false);
		for (uint32_t d = 0; d < rank; d++) {
			sl_axis_list *l = &sh->dims[d].axes;
			l->n = first[d + 1] - first[d];
			l->v = l->n ? SL_NEWN(&I->m->arena, sl_axis_ref, l->n) : NULL;
			for (uint32_t k = 0; k < l->n; k++)
				l->v[k].name = I->axis_names.v[axes[first[d] + k]];
		}
	}
	free(axes);
	free(first);
	return sh;
}

/* The sdy form of one (non-tuple) GSPMD sharding, or NULL if none. */
static sl_sharding *
convert_one(imp *I, const site *s, const sli_hlo_sharding *h, const sl_type *t)
{
	I->why = "the value is no tensor of static shape";
	if (!t || !sli_type_is_static(t))
		return NULL;
	I->why = "shard_as and shard_like have no sdy form";
	if (h->shard_group)
		return NULL;
	I->why = h->kind == SLI_HLO_TUPLE ? "a tuple sharding on one value"
	                                  : "manual axes exist only inside a manual computation";
	uint32_t rank = t->rank;
	switch (h->kind) {
	case SLI_HLO_REPLICATED:
		return new_sharding(I, common_mesh(I), rank, false);
	case SLI_HLO_UNKNOWN:
		return new_sharding(I, common_mesh(I), rank, true);
	case SLI_HLO_MAXIMAL:
		return new_sharding(I, maximal_mesh(I, h->device), 0, false);
	case SLI_HLO_TILED:
		return tiled(I, s, h, rank);
	default:
		return NULL;
	}
}

static const sl_type *
arg_type(const sl_op *func, uint32_t i)
{
	sl_block *b = sli_func_body(func);
	return b && i < b->nargs ? b->args[i].type : NULL;
}

static const sl_type *
res_type(const sl_op *func, uint32_t i)
{
	sl_attr *ft = sli_op_get(func, SLS_function_type);
	if (!ft || ft->kind != SL_ATTR_TYPE || i >= ft->u.type->nres)
		return NULL;
	return ft->u.type->types[ft->u.type->rank + i];
}

/* Converts one site; false when the form is kept. */
static bool
convert_site(imp *I, const site *s)
{
	const sli_hlo_sharding *h = &s->h;
	if (s->kind != AT_OP) {
		const sl_type *t = s->kind == AT_ARG ? arg_type(s->op, s->index) : res_type(s->op, s->index);
		sl_sharding *sh = convert_one(I, s, h, t);
		if (sh)
			site_set(I, s, SLS_sdy_sharding, sli_attr_sharding(I->m, sh));
		return sh != NULL;
	}
	uint32_t n = s->op->nresults;
	const sli_hlo_sharding *elems = h->kind == SLI_HLO_TUPLE ? h->elems : h;
	I->why = "it does not have one sharding per result";
	if ((h->kind == SLI_HLO_TUPLE ? h->nelems : 1) != n || !n)
		return false;
	sl_sharding **v = SL_NEWN(&I->m->arena, sl_sharding *, n);
	for (uint32_t i = 0; i < n; i++)
		if (!(v[i] = convert_one(I, s, &elems[i], s->op->results[i].type)))
			return false;
	sli_op_set_attr(I->m, s->op, SLS_sdy_sharding, sli_attr_spv(I->m, v, n));
	return true;
}

/* Whether h (or each element of a tuple) fits the mesh so far: adds its
 * cuts if they nest with those already there. */
static bool
fit_cuts(imp *I, const sli_hlo_sharding *h)
{
	if (h->kind == SLI_HLO_TUPLE) {
		bool ok = true;
		for (uint32_t i = 0; i < h->nelems; i++)
			ok &= fit_cuts(I, &h->elems[i]);
		return ok;
	}
	if (h->kind != SLI_HLO_TILED)
		return true;
	uint32_t n = I->cuts.n;
	int64_t ndevices = I->cuts.ndevices;
	int64_t *saved = sli_xmalloc(sizeof *saved * (n + 1));
	if (n)
		memcpy(saved, I->cuts.v, sizeof *saved * n);
	bool ok = sli_gspmd_add_cuts(&I->cuts, h);
	if (ok) {
		int64_t *sizes = sli_xmalloc(sizeof *sizes * (I->cuts.n + 1));
		uint32_t naxes;
		ok = sli_gspmd_mesh_sizes(&I->cuts, sizes, &naxes);
		free(sizes);
	}
	if (!ok) {
		if (n)
			memcpy(I->cuts.v, saved, sizeof *saved * n);
		I->cuts.n = n;
		I->cuts.ndevices = ndevices;
	}
	free(saved);
	return ok;
}

static void
import_gspmd(imp *I)
{
	for (size_t i = 0; i < I->sites.n; i++)
		I->sites.v[i].fits = fit_cuts(I, &I->sites.v[i].h);
	I->sizes = sli_xmalloc(sizeof *I->sizes * (I->cuts.n + 1));
	if (!sli_gspmd_mesh_sizes(&I->cuts, I->sizes, &I->naxes))
		I->naxes = 0;
	for (size_t i = 0; i < I->sites.n; i++) {
		site *s = &I->sites.v[i];
		if (convert_site(I, s)) {
			site_set(I, s, I->mhlo_sharding, NULL);
			continue;
		}
		if (s->kind == AT_OP && s->h.kind == SLI_HLO_MANUAL &&
		    (target_is(I, s->op, "SPMDFullToShardShape") || target_is(I, s->op, "Sharding"))) {
			SL_VEC_PUSH(I->deferred, *s);
			continue;
		}
		sli_diag(I->ctx, SL_DIAG_WARNING, s->str->loc,
		         "mhlo.sharding kept: %s", I->why);
	}
}

/* ====================================================================
 * Custom calls
 * ==================================================================== */

static sl_op *
new_constraint(imp *I, sl_op *at, sl_value *operand, const sl_sharding *sh)
{
	sl_type *t = operand->type;
	sl_op *c = sli_op_create(I->m, SL_OP_SDY_SHARDING_CONSTRAINT, &operand, 1, &t, 1, 0);
	sli_op_copy_loc(I->m, c, at);
	sli_op_set_prop(I->m, c, SLS_sharding, sli_attr_sharding(I->m, sh));
	sli_op_insert_before(at, c);
	return c;
}

/* @Sharding(x) {sdy.sharding = [<s>]} -> sdy.sharding_constraint x <s> */
static void
sharding_call(imp *I, sl_op *op, const sli_uses *uses)
{
	sl_sharding *sh = sli_spv_get(op, SLS_sdy_sharding, 0);
	if (!sh || op->noperands != 1 || op->nresults != 1)
		return;
	sl_op *c = new_constraint(I, op, op->operands[0], sh);
	sli_uses_replace(uses, &op->results[0], &c->results[0]);
	sli_op_erase(op);
}

/*
 * @xla.sdy.FuncResultSharding(x): the sharding of the function results
 * that return it; x replaces it where only returns use it, else a
 * sharding constraint does.
 */
static void
func_result_sharding(imp *I, sl_op *op, const sli_uses *uses)
{
	sl_sharding *sh = sli_spv_get(op, SLS_sdy_sharding, 0);
	if (!sh || op->noperands != 1 || op->nresults != 1) {
		sli_diag(I->ctx, SL_DIAG_WARNING, op->loc,
		         "xla.sdy.FuncResultSharding without one operand and one sharding; kept");
		sli_op_set_attr(I->m, op, SLS_sdy_sharding, NULL);
		return;
	}
	sl_op *func = sli_op_parent(op);
	size_t n;
	const sli_use *u = sli_uses_of(uses, &op->results[0], &n);
	bool other = false;
	for (size_t k = 0; k < n; k++) {
		if (u[k].user->kind == SL_OP_RETURN && func && func->kind == SL_OP_FUNC &&
		    u[k].user->parent == sli_func_body(func))
			sli_func_set_res_sharding(I->m, func, u[k].index, sh);
		else
			other = true;
	}
	sl_value *to = op->operands[0];
	if (other)
		to = &new_constraint(I, op, to, sh)->results[0];
	sli_uses_replace(uses, &op->results[0], to);
	sli_op_erase(op);
}

/* The integer spelled by frontend string `key` ("21 : i64"), or -1. */
static int64_t
fa_int(imp *I, sl_op *op, const char *key)
{
	site s = {AT_OP, op, 0, NULL, {0}, false};
	sl_attr *a = site_parse(I, &s, sli_sym(I->m, key), SL_ATTR_INT, "an integer");
	return a ? a->u.i.v : -1;
}

/* @xla.sdy.ShardingGroup / @xla.sdy.PropagationBarrier -> their sdy ops */
static void
group_or_barrier(imp *I, sl_op *op, bool group, const sli_uses *uses)
{
	int64_t v = fa_int(I, op, group ? "xla.sdy.sharding_group_id" : "xla.sdy.allowed_direction");
	if (v < 0 || op->noperands != 1 || op->nresults != (group ? 0u : 1u) ||
	    (!group && v > SL_DIR_BOTH)) {
		if (!I->failed)
			sli_diag(I->ctx, SL_DIAG_WARNING, op->loc, "%s without %s; kept",
			         sl_sym_str(I->ctx, target_of(I, op)),
			         group ? "one operand and a group id" : "one operand and a direction");
		return;
	}
	sl_value *x = op->operands[0];
	sl_type *t = x->type;
	sl_op *n = sli_op_create(I->m, group ? SL_OP_SDY_SHARDING_GROUP : SL_OP_SDY_PROPAGATION_BARRIER,
	                         &x, 1, &t, group ? 0 : 1, 0);
	sli_op_copy_loc(I->m, n, op);
	if (group) {
		sli_op_set_prop(I->m, n, SLS_group_id,
		                sli_attr_int(I->m, v, sli_type_elem(I->ctx, "i64", 3)));
	} else {
		sl_attr *d = sli_attr_new(I->m, SL_ATTR_DIRECTION);
		d->u.direction = (int)v;
		sli_op_set_prop(I->m, n, SLS_allowed_direction, d);
	}
	sli_op_insert_before(op, n);
	if (!group)
		sli_uses_replace(uses, &op->results[0], &n->results[0]);
	sli_op_erase(op);
}

typedef struct collect {
	sli_opvec ops;
	sl_op_kind kind;
} collect;

static int
push_kind(sl_op *op, void *ud)
{
	collect *c = ud;
	if (op->kind == c->kind)
		SL_VEC_PUSH(c->ops, op);
	return 0;
}

/* The ops of one kind in the module, in pre-order (the caller frees). */
static sli_opvec
ops_of_kind(imp *I, sl_op_kind kind)
{
	collect c = {{0}, kind};
	sli_walk(I->m->top, push_kind, &c);
	return c.ops;
}

/* The custom calls' rewrites, in pre-order, redirect uses through one use
 * index: a call's result is used only by ops that existed before the
 * rewrites (the ops they make use a call's operand, which an earlier
 * rewrite has already redirected). */
static void
rewrite_custom_calls(imp *I)
{
	sli_opvec ops = ops_of_kind(I, SL_OP_CUSTOM_CALL);
	if (!ops.n)	/* no use lists for nothing to rewrite */
		return;
	sli_uses uses;
	sli_uses_compute(&uses, I->m->top);
	for (size_t i = 0; i < ops.n && !I->failed; i++) {
		sl_op *op = ops.v[i];
		if (target_is(I, op, "Sharding"))
			sharding_call(I, op, &uses);
		else if (target_is(I, op, "xla.sdy.FuncResultSharding"))
			func_result_sharding(I, op, &uses);
		else if (target_is(I, op, "xla.sdy.ShardingGroup"))
			group_or_barrier(I, op, true, &uses);
		else if (target_is(I, op, "xla.sdy.PropagationBarrier"))
			group_or_barrier(I, op, false, &uses);
	}
	sli_uses_fini(&uses);
	SL_VEC_FREE(ops);
}

/* ====================================================================
 * Manual computations: Shardy's round trip of sdy.manual_computation,
 *   %l = @xla.sdy.GlobalToLocalShape(%x)
 *   %r = call @xla.sdy.manual_computation_body(%l) {in/out shardings, axes}
 *   %y = @xla.sdy.LocalToGlobalShape(%r)
 * becomes %y = sdy.manual_computation(%x) with the body's ops inlined.
 * ==================================================================== */

/* Whether every use of op's results is by `user` (none counts). */
static bool
only_used_by(const sli_uses *uses, const sl_op *op, const sl_op *user)
{
	for (uint32_t i = 0; i < op->nresults; i++) {
		size_t n;
		const sli_use *u = sli_uses_of(uses, &op->results[i], &n);
		for (size_t k = 0; k < n; k++)
			if (u[k].user != user)
				return false;
	}
	return true;
}

/* The custom call `target` whose results are exactly v[0..n), or NULL. */
static sl_op *
defined_by(imp *I, sl_value *const *v, uint32_t n, const char *target)
{
	sl_op *d = n ? v[0]->def : NULL;
	if (!d || !target_is(I, d, target) || d->nresults != n)
		return NULL;
	for (uint32_t i = 0; i < n; i++)
		if (v[i] != &d->results[i])
			return NULL;
	return d;
}

/* The custom call `target` that uses exactly op's results, or NULL. */
static sl_op *
used_by(imp *I, const sli_uses *uses, const sl_op *op, const char *target)
{
	size_t n;
	const sli_use *u = op->nresults ? sli_uses_of(uses, &op->results[0], &n) : NULL;
	sl_op *l = u && n ? u[0].user : NULL;
	if (!l || !target_is(I, l, target) || l->noperands != op->nresults)
		return NULL;
	for (uint32_t i = 0; i < op->nresults; i++)
		if (l->operands[i] != &op->results[i])
			return NULL;
	return l;
}

/* The frontend attribute `key` of the first of ops that has it. */
static sl_attr *
shard_map_attr(imp *I, sl_op *const *ops, sl_sym key, sl_attr_kind kind, const char *what)
{
	for (int i = 0; i < 3; i++) {
		site s = {AT_OP, ops[i], 0, NULL, {0}, false};
		if (ops[i] && fa_string(site_attr(&s, I->fa), key))
			return site_parse(I, &s, key, kind, what);
	}
	return NULL;
}

/* Inlines the body of `func` into the region of mc, its return an sdy.return. */
static void
inline_body(imp *I, const sl_op *func, sl_op *mc)
{
	sli_vmap map;
	sli_vmap_init(&map);
	sli_region_clone_into(I->m, &func->regions[0], &mc->regions[0], &map);
	sli_vmap_fini(&map);
	sl_block *b = sli_region_entry(&mc->regions[0]);
	sl_op *ret = b ? b->last : NULL;
	if (!ret || ret->kind != SL_OP_RETURN)
		return;
	sl_op *r = sli_op_create(I->m, SL_OP_SDY_RETURN, ret->operands, ret->noperands, NULL, 0, 0);
	r->loc = ret->loc;
	sli_op_insert_before(ret, r);
	sli_op_erase(ret);
}

/* Rewrites one body call; false when the pattern is not there (kept). */
static bool
shard_map(imp *I, sl_op *call, const sli_uses *uses)
{
	sl_op *func = sli_call_func(I->m, call);
	sl_op *g = defined_by(I, call->operands, call->noperands, "xla.sdy.GlobalToLocalShape");
	sl_op *l = used_by(I, uses, call, "xla.sdy.LocalToGlobalShape");
	if (!func || !sli_func_body(func) || (call->noperands && !g) || (call->nresults && !l) ||
	    (g && !only_used_by(uses, g, call)) || !only_used_by(uses, call, l))
		return false;
	sl_op *ops[3] = {call, g, l};
	sl_attr *in = shard_map_attr(I, ops, sli_sym(I->m, "xla.sdy.in_shardings"),
	                             SL_ATTR_SHARDING_PER_VALUE, "#sdy.sharding_per_value");
	sl_attr *out = shard_map_attr(I, ops, sli_sym(I->m, "xla.sdy.out_shardings"),
	                              SL_ATTR_SHARDING_PER_VALUE, "#sdy.sharding_per_value");
	sl_attr *axes = shard_map_attr(I, ops, sli_sym(I->m, "xla.sdy.manual_axes"),
	                               SL_ATTR_MANUAL_AXES, "#sdy<manual_axes{...}>");
	if (I->failed)
		return true;
	sl_type **types = l ? SL_NEWN(&I->m->arena, sl_type *, l->nresults) : NULL;
	for (uint32_t i = 0; l && i < l->nresults; i++)
		types[i] = l->results[i].type;
	sl_op *mc = sli_op_create(I->m, SL_OP_SDY_MANUAL_COMPUTATION, g ? g->operands : NULL,
	                          g ? g->noperands : 0, types, l ? l->nresults : 0, 1);
	sli_op_copy_loc(I->m, mc, call);
	sli_comp_set_in_spv(I->m, mc, in ? in : sli_attr_spv(I->m, NULL, 0));
	sli_result_set_spv(I->m, mc, out ? out : sli_attr_spv(I->m, NULL, 0));
	if (axes)
		sli_set_manual_axes(I->m, mc, axes->u.axes.v, axes->u.axes.n);
	else
		sli_set_manual_axes(I->m, mc, NULL, 0);
	inline_body(I, func, mc);
	sli_op_insert_before(call, mc);
	for (uint32_t i = 0; l && i < l->nresults; i++)
		sli_value_replace_uses(&l->results[i], &mc->results[i], NULL);
	if (l)
		sli_op_erase(l);
	sli_op_erase(call);
	if (g)
		sli_op_erase(g);
	return true;
}

static int
find_body_call(sl_op *op, void *ud)
{
	imp *I = ud;
	sl_sym callee = op->kind == SL_OP_CALL ? sli_call_callee(I->m, op) : 0;
	if (callee && strstr(sl_sym_str(I->ctx, callee), "xla.sdy.manual_computation_body")) {
		for (size_t i = 0; i < I->bodies.n; i++)
			if (I->bodies.v[i] == op)
				return 0;
		SL_VEC_PUSH(I->bodies, op);
		return 1;
	}
	return 0;
}

/* Calls to bodies that other calls no longer reach are erased. */
static int
count_calls(sl_op *op, void *ud)
{
	imp *I = ud;
	sl_op *f = op->kind == SL_OP_CALL ? sli_call_func(I->m, op) : NULL;
	if (f)
		f->id++;
	return 0;
}

static void
import_shard_maps(imp *I)
{
	/* one call at a time: a body inlined may hold further body calls */
	for (;;) {
		size_t before = I->bodies.n;
		sli_walk(I->m->top, find_body_call, I);
		if (I->bodies.n == before || I->failed)
			break;
		sl_op *call = I->bodies.v[I->bodies.n - 1];
		sl_sym callee = sli_call_callee(I->m, call);
		sli_uses uses;
		sli_uses_compute(&uses, I->m->top);
		bool done = shard_map(I, call, &uses);
		sli_uses_fini(&uses);
		if (done) {
			I->bodies.n--;
			SL_VEC_PUSH(I->inlined, callee);
		} else {
			sli_diag(I->ctx, SL_DIAG_WARNING, call->loc,
			         "call of a manual computation body without its shape custom calls; kept");
		}
	}
	sl_block *body = sli_module_body(I->m);
	for (sl_op *op = body->first; op; op = op->next)
		op->id = 0;
	sli_walk(I->m->top, count_calls, I);
	sl_op *next;
	for (sl_op *op = body->first; op; op = next) {
		next = op->next;
		sl_sym name = op->kind == SL_OP_FUNC ? sli_op_sym_name(I->m, op) : 0;
		for (size_t i = 0; name && i < I->inlined.n; i++)
			if (I->inlined.v[i] == name && !op->id) {
				sli_op_erase(op);
				break;
			}
	}
}

/* ====================================================================
 * Manual computations in GSPMD's form (JAX's shard_map without Shardy):
 *   %s = @Sharding(%x) {S_in}         (a constraint by now)
 *   %l = @SPMDFullToShardShape(%s) {manual}
 *   %r = call @body(%l)
 *   %m = @Sharding(%r) {manual}
 *   %y = @SPMDShardToFullShape(%m) {S_out}
 * becomes %y = sdy.manual_computation(%x) over every axis of the mesh.
 * ==================================================================== */

/* The one user of op's one result, or NULL. */
static sl_op *
sole_user(const sli_uses *uses, const sl_op *op)
{
	size_t n;
	const sli_use *u = op->nresults == 1 ? sli_uses_of(uses, &op->results[0], &n) : NULL;
	return u && n == 1 ? u[0].user : NULL;
}

static bool
unary_call(imp *I, const sl_op *op, const char *target)
{
	return op && target_is(I, op, target) && op->noperands == 1 && op->nresults == 1;
}

/* Forgets a deferred manual form of an op about to be erased. */
static void
undefer(imp *I, const sl_op *op)
{
	for (size_t i = 0; i < I->deferred.n; i++)
		if (I->deferred.v[i].op == op)
			I->deferred.v[i].op = NULL;
}

typedef struct gspmd_map {
	sl_value **ins;
	sl_sharding **in, **out;
	sl_op **erase;		/* the ops the computation replaces */
	uint32_t nerase;
} gspmd_map;

/* Operand i: the value before @Sharding and @SPMDFullToShardShape. */
static bool
gspmd_operand(imp *I, const sli_uses *uses, sl_op *call, uint32_t i, gspmd_map *g)
{
	sl_op *f = call->operands[i]->def;
	if (!unary_call(I, f, "SPMDFullToShardShape") || sole_user(uses, f) != call)
		return false;
	sl_op *k = f->operands[0]->def;
	if (!k || k->kind != SL_OP_SDY_SHARDING_CONSTRAINT)
		return false;
	g->in[i] = sli_result_sharding(k, 0);
	g->ins[i] = &k->results[0];
	if (sole_user(uses, k) == f) {
		g->ins[i] = k->operands[0];
		g->erase[g->nerase++] = k;
	}
	g->erase[g->nerase++] = f;
	return g->in[i] && g->in[i]->mesh_name == I->mesh;
}

/* Result j: the op @Sharding and @SPMDShardToFullShape give the value to. */
static sl_op *
gspmd_result(imp *I, const sli_uses *uses, sl_op *call, uint32_t j, gspmd_map *g)
{
	size_t n;
	const sli_use *u = sli_uses_of(uses, &call->results[j], &n);
	sl_op *m = n == 1 ? u[0].user : NULL;
	if (!unary_call(I, m, "Sharding"))
		return NULL;
	sl_op *t = sole_user(uses, m);
	if (!unary_call(I, t, "SPMDShardToFullShape"))
		return NULL;
	g->out[j] = sli_spv_get(t, SLS_sdy_sharding, 0);
	if (!g->out[j] || g->out[j]->mesh_name != I->mesh)
		return NULL;
	g->erase[g->nerase++] = m;
	return t;
}

static bool
gspmd_shard_map(imp *I, sl_op *call, const sli_uses *uses)
{
	sl_op *func = sli_call_func(I->m, call);
	if (!func || !sli_func_body(func) || !I->mesh)
		return false;
	uint32_t ni = call->noperands, no = call->nresults;
	gspmd_map g;
	g.ins = SL_NEWN(&I->m->arena, sl_value *, ni + 1);
	g.in = SL_NEWN(&I->m->arena, sl_sharding *, ni + 1);
	g.out = SL_NEWN(&I->m->arena, sl_sharding *, no + 1);
	g.erase = SL_NEWN(&I->m->arena, sl_op *, 2 * ni + no + 1);
	g.nerase = 0;
	sl_op **to_full = SL_NEWN(&I->m->arena, sl_op *, no + 1);
	sl_type **types = SL_NEWN(&I->m->arena, sl_type *, no + 1);
	for (uint32_t i = 0; i < ni; i++)
		if (!gspmd_operand(I, uses, call, i, &g))
			return false;
	for (uint32_t j = 0; j < no; j++) {
		if (!(to_full[j] = gspmd_result(I, uses, call, j, &g)))
			return false;
		types[j] = to_full[j]->results[0].type;
	}
	sl_op *mc = sli_op_create(I->m, SL_OP_SDY_MANUAL_COMPUTATION, g.ins, ni, types, no, 1);
	sli_op_copy_loc(I->m, mc, call);
	sli_comp_set_in_spv(I->m, mc, sli_attr_spv(I->m, g.in, ni));
	sli_result_set_spv(I->m, mc, sli_attr_spv(I->m, g.out, no));
	sl_axis_ref *axes = SL_NEWN(&I->m->arena, sl_axis_ref, I->naxes + 1);
	for (uint32_t a = 0; a < I->naxes; a++)
		axes[a].name = I->axis_names.v[a];
	sli_set_manual_axes(I->m, mc, axes, I->naxes);
	inline_body(I, func, mc);
	sli_op_insert_before(call, mc);
	for (uint32_t j = 0; j < no; j++) {
		sli_value_replace_uses(&to_full[j]->results[0], &mc->results[j], NULL);
		undefer(I, to_full[j]);
		sli_op_erase(to_full[j]);
	}
	sli_op_erase(call);
	for (uint32_t k = 0; k < g.nerase; k++) {
		undefer(I, g.erase[k]);
		sli_op_erase(g.erase[k]);
	}
	SL_VEC_PUSH(I->inlined, sli_op_sym_name(I->m, func));
	return true;
}

/* Every call in GSPMD's shard_map form; the manual forms left are warned. */
static void
import_gspmd_shard_maps(imp *I)
{
	sli_opvec calls = ops_of_kind(I, SL_OP_CALL);
	for (size_t i = 0; i < calls.n && I->deferred.n; i++) {
		sl_op *f = calls.v[i]->noperands ? calls.v[i]->operands[0]->def : NULL;
		if (!unary_call(I, f, "SPMDFullToShardShape"))
			continue;
		sli_uses uses;
		sli_uses_compute(&uses, I->m->top);
		gspmd_shard_map(I, calls.v[i], &uses);
		sli_uses_fini(&uses);
	}
	SL_VEC_FREE(calls);
	for (size_t i = 0; i < I->deferred.n; i++)
		if (I->deferred.v[i].op)
			sli_diag(I->ctx, SL_DIAG_WARNING, I->deferred.v[i].str->loc,
			         "mhlo.sharding kept: a manual form outside the pattern of a "
			         "manual computation");
}

/* ==================================================================== */

int
sli_pass_import_xla(sl_module *m, const sli_pass_opts *opts)
{
	(void)opts;
	imp I;
	memset(&I, 0, sizeof I);
	I.m = m;
	I.ctx = m->ctx;
	I.fa = sli_sym(m, "mhlo.frontend_attributes");
	I.xs_sharding = sli_sym(m, "xla.sdy.sharding");
	I.xs_rule = sli_sym(m, "xla.sdy.sharding_rule");
	I.xs_custom_rule = sli_sym(m, "xla.sdy.custom_sharding_rule");
	I.mhlo_sharding = sli_sym(m, "mhlo.sharding");
	sli_symtab_init(&I.syms, m);
	import_meshes(&I);
	if (!I.failed && !I.round_trip)
		sli_walk(m->top, find_round_trip, &I);
	if (!I.failed)
		sli_walk(m->top, visit_op, &I);
	if (!I.failed && I.sites.n)
		import_gspmd(&I);
	if (!I.failed)
		rewrite_custom_calls(&I);
	if (!I.failed)
		import_gspmd_shard_maps(&I);
	if (!I.failed)
		import_shard_maps(&I);
	sli_symtab_fini(&I.syms);
	sli_gspmd_cuts_fini(&I.cuts);
	free(I.sizes);
	SL_VEC_FREE(I.sites);
	SL_VEC_FREE(I.axis_names);
	SL_VEC_FREE(I.maximal_ids);
	SL_VEC_FREE(I.maximal_names);
	SL_VEC_FREE(I.bodies);
	SL_VEC_FREE(I.deferred);
	SL_VEC_FREE(I.inlined);
	return I.failed ? -1 : 0;
}
