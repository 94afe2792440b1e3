/*
 * export_xla.c - -sdy-export-xla: the sdy attributes and ops of a module
 * written back as the strings of Shardy's round trip, which XLA carries
 * through HLO and -sdy-import-xla reads again: sdy.mesh ops become the
 * module's `xla.sdy.meshes`, argument shardings and op shardings and rules
 * `xla.sdy.sharding` / `xla.sdy.sharding_rule` frontend attributes,
 * result shardings @xla.sdy.FuncResultSharding custom calls before the
 * return, sharding constraints @Sharding custom calls, sharding groups and
 * propagation barriers their xla.sdy.* custom calls.  GSPMD's
 * `mhlo.sharding` strings go beside the shardings, for readers that know
 * no sdy, where a sharding has that form.  Manual computations
 * and the other sdy ops stay as they are, with a warning, and so do the
 * mesh ops they name.
 */
#include "passes/pass.h"
#include "passes/passutil.h"

#include "formats/mlir_printer.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

typedef struct xexp {
	sl_module *m;
	sl_context *ctx;
	sl_sym fa, mhlo_sharding;
	bool warned;
} xexp;

/* The text of attribute a as a string attribute. */
static sl_attr *
attr_string(xexp *E, const sl_attr *a)
{
	sli_buf b;
	sli_buf_init(&b);
	sli_print_attr(&b, E->ctx, a);
	sl_attr *s = sli_attr_string(E->m, b.p, b.n);
	sli_buf_fini(&b);
	return s;
}

/* A copy of dict (NULL: empty) with key set to value. */
static sl_attr *
dict_with(xexp *E, const sl_attr *dict, sl_sym key, sl_attr *value)
{
	uint32_t n = dict && dict->kind == SL_ATTR_DICT ? dict->u.dict.n : 0;
	sl_attr *d = sli_attr_new(E->m, SL_ATTR_DICT);
	d->u.dict.v = SL_NEWN(&E->m->arena, sl_named_attr, n + 1);
	for (uint32_t i = 0; i < n; i++)
		if (dict->u.dict.v[i].name != key)
			d->u.dict.v[d->u.dict.n++] = dict->u.dict.v[i];
	d->u.dict.v[d->u.dict.n].name = key;
	d->u.dict.v[d->u.dict.n++].attr = value;
	sli_sort_named(E->ctx, d->u.dict.v, d->u.dict.n);
	return d;
}

/* Adds frontend string `key` = text of a to op's frontend attributes. */
static void
op_frontend(xexp *E, sl_op *op, const char *key, const sl_attr *a)
{
	sl_attr *d = dict_with(E, sli_op_attr(op, E->fa), sli_sym(E->m, key), attr_string(E, a));
	sli_op_set_attr(E->m, op, E->fa, d);
}

/* ====================================================================
 * GSPMD's strings beside them, for readers that know no sdy
 * ==================================================================== */

/* The axis of mesh that r names, or -1 (sub-axes have no GSPMD form). */
static int
axis_index(const sl_mesh *mesh, const sl_axis_ref *r)
{
	for (uint32_t a = 0; a < mesh->naxes && !r->sub; a++)
		if (mesh->axes[a].name == r->name)
			return (int)a;
	return -1;
}

/*
 * GSPMD's text of s into b: the iota over the mesh axes, transposed so
 * that each dimension's axes come in order and the unused ones last (a
 * replicated last tile dimension).  False when s has no such form: an
 * explicit device order, sub-axes, unreduced axes.
 */
static bool
hlo_text(sli_buf *b, const sl_mesh *mesh, const sl_sharding *s)
{
	if (!mesh->naxes && mesh->nids == 1) {
		sli_buf_printf(b, "{maximal device=%" PRId64 "}", mesh->ids[0]);
		return true;
	}
	if (mesh->ids || s->unreduced.n)
		return false;
	uint32_t na = mesh->naxes, np = 0;
	int64_t tiles = 1, repl = 1;
	uint32_t *perm = sli_xmalloc(sizeof *perm * (na + 1));
	bool *used = sli_xcalloc(na + 1, sizeof *used);
	bool ok = true;
	for (uint32_t d = 0; d < s->rank && ok; d++)
		for (uint32_t k = 0; k < s->dims[d].axes.n && ok; k++) {
			int a = axis_index(mesh, &s->dims[d].axes.v[k]);
			ok = a >= 0 && !used[a];
			if (ok) {
				used[a] = true;
				perm[np++] = (uint32_t)a;
				tiles *= mesh->axes[a].size;
			}
		}
	for (uint32_t a = 0; a < na; a++)
		if (!used[a]) {
			perm[np++] = a;
			repl *= mesh->axes[a].size;
		}
	if (ok && tiles == 1) {
		sli_buf_puts(b, "{replicated}");
	} else if (ok) {
		sli_buf_puts(b, "{devices=[");
		for (uint32_t d = 0; d < s->rank; d++) {
			int64_t t = 1;
			for (uint32_t k = 0; k < s->dims[d].axes.n; k++)
				t *= mesh->axes[axis_index(mesh, &s->dims[d].axes.v[k])].size;
			sli_buf_printf(b, "%s%" PRId64, d ? "," : "", t);
		}
		if (repl > 1)
			sli_buf_printf(b, "%s%" PRId64, s->rank ? "," : "", repl);
		sli_buf_puts(b, "]<=[");
		bool identity = true;
		for (uint32_t a = 0; a < na; a++) {
			sli_buf_printf(b, "%s%" PRId64, a ? "," : "", mesh->axes[a].size);
			identity &= perm[a] == a;
		}
		sli_buf_putc(b, ']');
		for (uint32_t a = 0; a < na && !identity; a++)
			sli_buf_printf(b, "%s%" PRIu32 "%s", a ? "," : "T(", perm[a], a + 1 == na ? ")" : "");
		sli_buf_puts(b, repl > 1 ? " last_tile_dim_replicate}" : "}");
	}
	free(perm);
	free(used);
	return ok;
}

/* The mhlo.sharding string of v[0..n) (a tuple when n != 1), or NULL. */
static sl_attr *
hlo_string(xexp *E, const sl_op *at, sl_sharding *const *v, uint32_t n)
{
	sli_buf b;
	sli_buf_init(&b);
	bool ok = true;
	if (n != 1)
		sli_buf_putc(&b, '{');
	for (uint32_t i = 0; i < n && ok; i++) {
		const sl_mesh *mesh = sli_sharding_mesh_at(E->m, at, v[i]);
		if (i)
			sli_buf_puts(&b, ", ");
		ok = mesh && hlo_text(&b, mesh, v[i]);
	}
	if (n != 1)
		sli_buf_putc(&b, '}');
	sl_attr *a = ok ? sli_attr_string(E->m, b.p, b.n) : NULL;
	sli_buf_fini(&b);
	return a;
}

/* sdy.mesh ops -> xla.sdy.meshes = "{name = #sdy.mesh<...>, ...}" */
static void
export_meshes(xexp *E)
{
	sl_block *body = sli_module_body(E->m);
	sli_buf b;
	sli_buf_init(&b);
	sli_buf_putc(&b, '{');
	int n = 0;
	sl_op *next;
	for (sl_op *op = body->first; op; op = next) {
		next = op->next;
		sl_attr *mesh = sli_op_get(op, SLS_mesh);
		if (op->kind != SL_OP_SDY_MESH || !mesh)
			continue;
		sli_buf_printf(&b, "%s%s = ", n++ ? ", " : "", sl_sym_str(E->ctx, sli_op_sym_name(E->m, op)));
		sli_print_attr(&b, E->ctx, mesh);
		sli_op_erase(op);
	}
	sli_buf_putc(&b, '}');
	if (n) {
		sl_op *top = E->m->top;
		sl_attr *d = dict_with(E, sli_op_attr(top, E->fa), sli_sym(E->m, "xla.sdy.meshes"),
		                       sli_attr_string(E->m, b.p, b.n));
		sli_op_set_attr(E->m, top, E->fa, d);
	}
	sli_buf_fini(&b);
}

static sl_op *
new_custom_call(xexp *E, sl_op *at, const char *target, sl_value *x, bool result)
{
	sl_type *t = x->type;
	sl_op *c = sli_op_create(E->m, SL_OP_CUSTOM_CALL, &x, 1, &t, result ? 1 : 0, 0);
	sli_op_copy_loc(E->m, c, at);
	sli_op_set_prop(E->m, c, SLS_call_target_name, sli_attr_string(E->m, target, strlen(target)));
	sl_attr *yes = sli_attr_new(E->m, SL_ATTR_BOOL);
	yes->u.b = true;
	sli_op_set_attr(E->m, c, sli_sym(E->m, "has_side_effect"), yes);
	sli_op_insert_before(at, c);
	return c;
}

/* Argument shardings as frontend strings; result shardings as
 * @xla.sdy.FuncResultSharding calls on what the return returns. */
static void
export_func(xexp *E, sl_op *func)
{
	sl_block *b = sli_func_body(func);
	for (uint32_t i = 0; b && i < b->nargs; i++) {
		sl_sharding *s = sli_func_arg_sharding(func, i);
		if (!s)
			continue;
		sl_value *v = &b->args[i];
		sl_attr *fa = dict_with(E, sli_arg_attr(v, E->fa),
		                        sli_sym(E->m, "xla.sdy.sharding"),
		                        attr_string(E, sli_attr_sharding(E->m, s)));
		sli_func_set_arg_sharding(E->m, func, i, NULL);
		uint32_t n;
		sl_named_attr *old = sli_arg_attrs(v, &n);
		sl_named_attr *nv = SL_NEWN(&E->m->arena, sl_named_attr, n + 2);
		uint32_t k = 0;
		for (uint32_t j = 0; j < n; j++)
			if (old[j].name != E->fa && old[j].name != E->mhlo_sharding)
				nv[k++] = old[j];
		nv[k].name = E->fa;
		nv[k++].attr = fa;
		sl_attr *hlo = hlo_string(E, func, &s, 1);
		if (hlo) {
			nv[k].name = E->mhlo_sharding;
			nv[k++].attr = hlo;
		}
		sli_sort_named(E->ctx, nv, k);
		sli_arg_set_attrs(E->m, v, nv, k);
	}
	sl_op *ret = b ? b->last : NULL;
	for (uint32_t i = 0; ret && ret->kind == SL_OP_RETURN && i < ret->noperands; i++) {
		sl_sharding *s = sli_func_res_sharding(func, i);
		if (!s)
			continue;
		sl_op *c = new_custom_call(E, ret, "xla.sdy.FuncResultSharding", ret->operands[i], true);
		op_frontend(E, c, "xla.sdy.sharding", sli_attr_spv(E->m, &s, 1));
		sli_replace_uses_except(ret, ret->operands[i], &c->results[0], c);
		sli_func_set_res_sharding(E->m, func, i, NULL);
		sl_attr *hlo = hlo_string(E, func, &s, 1);
		if (hlo)
			sli_func_set_res_attr(E->m, func, i, E->mhlo_sharding, hlo);
	}
}

static void
warn_kept(xexp *E, const sl_op *op)
{
	E->warned = true;
	sli_diag(E->ctx, SL_DIAG_WARNING, op->loc, "'%s' has no round-trip form here; kept",
	         sl_sym_str(E->ctx, op->name));
}

/* One op: its shardings and rule as frontend strings, sdy ops as calls. */
static void
export_op(xexp *E, sl_op *op)
{
	sl_attr *spv = sli_op_attr(op, SLS_sdy_sharding);
	if (spv && spv->kind == SL_ATTR_SHARDING_PER_VALUE && op->kind != SL_OP_FUNC) {
		op_frontend(E, op, "xla.sdy.sharding", spv);
		sli_op_set_attr(E->m, op, SLS_sdy_sharding, NULL);
		sl_attr *hlo = hlo_string(E, op, spv->u.spv.v, spv->u.spv.n);
		if (hlo)
			sli_op_set_attr(E->m, op, E->mhlo_sharding, hlo);
	}
	sl_attr *rule = sli_op_rule_attr(op);
	if (rule) {
		op_frontend(E, op, "xla.sdy.sharding_rule", rule);
		sli_op_set_rule_attr(E->m, op, NULL);
	}
	sl_op *c = NULL;
	char text[48];
	switch (op->kind) {
	case SL_OP_SDY_SHARDING_CONSTRAINT: {
		sl_sharding *s = sli_result_sharding(op, 0);
		c = new_custom_call(E, op, "Sharding", op->operands[0], true);
		sli_op_set_attr(E->m, c, sli_sym(E->m, "has_side_effect"), NULL);
		op_frontend(E, c, "xla.sdy.sharding", sli_attr_spv(E->m, &s, 1));
		sl_attr *hlo = hlo_string(E, op, &s, 1);
		if (hlo)
			sli_op_set_attr(E->m, c, E->mhlo_sharding, hlo);
		break;
	}
	case SL_OP_SDY_SHARDING_GROUP: {
		sl_attr *id = sli_op_get(op, SLS_group_id);
		c = new_custom_call(E, op, "xla.sdy.ShardingGroup", op->operands[0], false);
		op_frontend(E, c, "xla.sdy.sharding_group_id", id);
		break;
	}
	case SL_OP_SDY_PROPAGATION_BARRIER: {
		sl_attr *d = sli_op_get(op, SLS_allowed_direction);
		c = new_custom_call(E, op, "xla.sdy.PropagationBarrier", op->operands[0], true);
		snprintf(text, sizeof text, "%d : i32", d ? d->u.direction : 0);
		sl_attr *fa = dict_with(E, NULL, sli_sym(E->m, "xla.sdy.allowed_direction"),
		                        sli_attr_string(E->m, text, strlen(text)));
		sli_op_set_attr(E->m, c, E->fa, fa);
		break;
	}
	default:
		if (sli_op_info[op->kind].traits & T_SDY && op->kind != SL_OP_SDY_RETURN &&
		    op->kind != SL_OP_SDY_MESH)
			warn_kept(E, op);
		return;
	}
	if (c->nresults)
		sli_value_replace_uses(&op->results[0], &c->results[0], NULL);
	sli_op_erase(op);
}

static int
push_op(sl_op *op, void *ud)
{
	if (op->kind != SL_OP_MODULE && op->kind != SL_OP_SDY_MESH)
		SL_VEC_PUSH(*(sli_opvec *)ud, op);
	return 0;
}

int
sli_pass_export_xla(sl_module *m, const sli_pass_opts *opts)
{
	(void)opts;
	xexp E = {m, m->ctx, sli_sym(m, "mhlo.frontend_attributes"), sli_sym(m, "mhlo.sharding"), false};
	sli_opvec ops = {0};
	sli_walk(m->top, push_op, &ops);
	for (size_t i = 0; i < ops.n; i++)
		if (ops.v[i]->kind == SL_OP_FUNC)
			export_func(&E, ops.v[i]);
	for (size_t i = 0; i < ops.n; i++)
		if (ops.v[i]->kind != SL_OP_FUNC)
			export_op(&E, ops.v[i]);
	SL_VEC_FREE(ops);
	/* kept sdy ops name their meshes: the mesh ops then stay */
	if (!E.warned)
		export_meshes(&E);
	return 0;
}
