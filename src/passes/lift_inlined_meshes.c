/*
 * lift_inlined_meshes.c - -sdy-lift-inlined-meshes (spec/import-passes.md
 * section 2.1): afterwards no sharding holds an inlined mesh and no two
 * `sdy.mesh` ops hold equal meshes.  New meshes are named maximal_mesh_N,
 * empty_mesh or mesh, uniqued through one symbol table, and placed after
 * the last kept mesh.  Mesh-axes replica groups of StableHLO collectives
 * are lifted the same way, and every mesh gets a `stablehlo.mesh` tag.
 */
#include "passes/pass.h"
#include "passes/passutil.h"

#include "ir/stablehlo_attrs.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

typedef struct known {
	const sl_mesh *mesh;	/* NULL for a deduplicated name */
	sl_sym from;		/* deduplicated name */
	sl_sym name;
} known;

typedef struct lifter {
	sl_module *m;
	sli_symtab syms;
	SL_VEC(known) map;
	sl_op *cursor;		/* new meshes go after it (module start if NULL) */
} lifter;

static sl_op *
new_mesh_op(lifter *L, const sl_mesh *mesh, sl_loc loc)
{
	sl_module *m = L->m;
	const char *base = "mesh";
	char buf[64];
	if (mesh->naxes == 0 && mesh->nids == 1) {
		snprintf(buf, sizeof buf, "maximal_mesh_%" PRId64, mesh->ids[0]);
		base = buf;
	} else if (mesh->naxes == 0 && mesh->nids == 0) {
		base = "empty_mesh";
	}
	sl_op *op = sli_op_create(m, SL_OP_SDY_MESH, NULL, 0, NULL, 0, 0);
	op->loc = loc;
	sli_set_sym_name(m, op, sli_sym(m, base));
	sl_attr *a = sli_attr_new(m, SL_ATTR_MESH);
	a->u.mesh = *mesh;
	sli_op_set_prop(m, op, SLS_mesh, a);
	sli_symtab_insert(&L->syms, op, L->cursor ? L->cursor->next : sli_module_body(m)->first);
	L->cursor = op;
	return op;
}

/* The name an inlined mesh maps to, creating the mesh op if needed. */
static sl_sym
lift(lifter *L, const sl_mesh *mesh, sl_loc loc)
{
	for (size_t i = 0; i < L->map.n; i++)
		if (L->map.v[i].mesh && sli_mesh_equal(L->map.v[i].mesh, mesh))
			return L->map.v[i].name;
	sl_op *op = new_mesh_op(L, mesh, loc);
	sl_attr *a = sli_op_get(op, SLS_mesh);
	known k = {&a->u.mesh, 0, sli_op_sym_name(L->m, op)};
	SL_VEC_PUSH(L->map, k);
	return k.name;
}

static sl_sharding *
lift_sharding(sl_module *m, sl_op *op, const sl_sharding *s, void *ud)
{
	lifter *L = ud;
	sl_sym name = 0;
	if (s->mesh_name) {
		for (size_t i = 0; i < L->map.n && !name; i++)
			if (!L->map.v[i].mesh && L->map.v[i].from == s->mesh_name)
				name = L->map.v[i].name;
	} else if (s->mesh) {
		name = lift(L, s->mesh, s->loc.line ? s->loc : op->loc);
	}
	if (!name)
		return NULL;
	sl_sharding *r = SL_NEW(&m->arena, sl_sharding);
	*r = *s;
	r->mesh_name = name;
	r->mesh = NULL;
	return r;
}

/* ---- replica groups: #stablehlo.replica_group_mesh_axes<mesh = ...> ---- */

/* The reader read the inline mesh of the replica group; it becomes a name. */
static void
lift_replica_groups(lifter *L, sl_op *op)
{
	sl_module *m = L->m;
	sl_sym rg = sli_sym(m, "replica_groups");
	bool prop = sli_op_prop(op, rg) != NULL;
	const sl_replica_mesh_axes *r = sli_attr_get_replica_mesh_axes(sli_op_get(op, rg));
	if (!r || r->mesh_name)
		return;
	sl_replica_mesh_axes lifted = *r;
	lifted.mesh_name = lift(L, &r->mesh, op->loc);
	sl_loc noloc = {0};
	sl_attr *na = sli_attr_replica_mesh_axes(m, &lifted, noloc);
	if (prop)
		sli_op_set_prop(m, op, rg, na);
	else
		sli_op_set_attr(m, op, rg, na);
}

static const sl_op_kind collectives[] = {
	SL_OP_ALL_GATHER, SL_OP_ALL_REDUCE, SL_OP_REDUCE_SCATTER,
	SL_OP_ALL_TO_ALL, SL_OP_COLLECTIVE_BROADCAST,
};

static int
push_collective(sl_op *op, void *ud)
{
	for (size_t c = 0; c < sizeof collectives / sizeof *collectives; c++)
		if (op->kind == collectives[c]) {
			SL_VEC_PUSH(*(sli_opvec *)ud, op);
			break;
		}
	return 0;
}

/* ---- the stablehlo.mesh tag ---- */

static sl_attr *
named_dict(sl_module *m, const sl_named_attr *v, uint32_t n)
{
	sl_attr *d = sli_attr_new(m, SL_ATTR_DICT);
	d->u.dict.n = n;
	d->u.dict.v = sli_arena_dup(&m->arena, v, sizeof *v * n);
	sli_sort_named(m->ctx, d->u.dict.v, n);
	return d;
}

static void
tag_mesh(sl_module *m, sl_op *op)
{
	sl_sym tag = sli_sym(m, "stablehlo.mesh");
	sl_attr *ma = sli_op_get(op, SLS_mesh);
	if (sli_op_attr(op, tag) || !ma || ma->kind != SL_ATTR_MESH)
		return;
	const sl_mesh *mesh = &ma->u.mesh;
	sl_type *i64 = sli_type_elem(m->ctx, "i64", 3);
	sl_attr *axes = sli_attr_new(m, SL_ATTR_ARRAY);
	axes->u.arr.n = mesh->naxes;
	axes->u.arr.v = mesh->naxes ? SL_NEWN(&m->arena, sl_attr *, mesh->naxes) : NULL;
	for (uint32_t i = 0; i < mesh->naxes; i++) {
		const char *s = sl_sym_str(m->ctx, mesh->axes[i].name);
		sl_named_attr kv[2] = {
			{SLS_name, sli_attr_string(m, s, strlen(s))},
			{sli_sym(m, "size"), sli_attr_int(m, mesh->axes[i].size, i64)},
		};
		axes->u.arr.v[i] = named_dict(m, kv, 2);
	}
	sl_named_attr top[2] = {{SLS_axes, axes}};
	uint32_t n = 1;
	if (mesh->ids) {
		sli_buf b;
		sli_buf_init(&b);
		sli_buf_putc(&b, '[');
		for (uint32_t i = 0; i < mesh->nids; i++)
			sli_buf_printf(&b, "%s%" PRId64, i ? ", " : "", mesh->ids[i]);
		sli_buf_putc(&b, ']');
		sl_attr *d = sli_attr_new(m, SL_ATTR_DENSE);
		d->u.dense.body = sli_arena_strndup(&m->arena, b.p, b.n);
		d->u.dense.n = b.n;
		int64_t dim = mesh->nids;
		d->u.dense.type = sli_type_tensor(m->ctx, 1, &dim, i64, 0, false);
		sli_buf_fini(&b);
		top[1].name = sli_sym(m, "device_ids");
		top[1].attr = d;
		n = 2;
	}
	sli_op_set_attr(m, op, tag, named_dict(m, top, n));
}

int
sli_pass_lift_inlined_meshes(sl_module *m, const sli_pass_opts *opts)
{
	(void)opts;
	lifter L;
	memset(&L, 0, sizeof L);
	L.m = m;
	sli_symtab_init(&L.syms, m);
	sl_block *body = sli_module_body(m);
	sl_op *next;
	for (sl_op *op = body ? body->first : NULL; op; op = next) {
		next = op->next;
		if (op->kind != SL_OP_SDY_MESH)
			continue;
		sl_attr *a = sli_op_get(op, SLS_mesh);
		sl_sym name = sli_op_sym_name(m, op);
		if (!a || a->kind != SL_ATTR_MESH)
			continue;
		sl_sym kept = 0;
		for (size_t i = 0; i < L.map.n && !kept; i++)
			if (L.map.v[i].mesh && sli_mesh_equal(L.map.v[i].mesh, &a->u.mesh))
				kept = L.map.v[i].name;
		if (kept) {
			known k = {NULL, name, kept};
			SL_VEC_PUSH(L.map, k);
			sli_symtab_remove(&L.syms, name);
			sli_op_erase(op);
			continue;
		}
		known k = {&a->u.mesh, 0, name};
		SL_VEC_PUSH(L.map, k);
		L.cursor = op;
	}
	sli_transform_shardings_memo(m, lift_sharding, &L);
	/* the collectives, kind by kind in this order, each in pre-order */
	sli_opvec ops = {0};
	sli_walk(m->top, push_collective, &ops);
	for (size_t c = 0; c < sizeof collectives / sizeof *collectives; c++)
		for (size_t i = 0; i < ops.n; i++)
			if (ops.v[i]->kind == collectives[c])
				lift_replica_groups(&L, ops.v[i]);
	SL_VEC_FREE(ops);
	for (sl_op *op = body ? body->first : NULL; op; op = op->next)
		if (op->kind == SL_OP_SDY_MESH)
			tag_mesh(m, op);
	SL_VEC_FREE(L.map);
	sli_symtab_fini(&L.syms);
	return 0;
}
