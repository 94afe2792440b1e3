/*
 * remove_size_one_axes.c - -sdy-remove-size-one-axes
 * (spec/import-passes.md section 2.2): axis refs of size 1 leave every
 * sharding (dimensions, replicated and unreduced axes); a closed
 * dimension left empty loses its priority.  Nothing changes when no mesh
 * has a size-1 axis.
 */
#include "passes/pass.h"
#include "passes/passutil.h"

#include "ir/axis.h"

#include <stdlib.h>

static bool
size_one(const sl_axis_ref *r, const sl_mesh *mesh)
{
	return sli_axis_size(r, mesh) == 1;
}

/* A copy of l without size-1 refs, or l itself when it has none. */
static sl_axis_list
filter(sl_module *m, const sl_axis_list *l, const sl_mesh *mesh, bool *changed)
{
	uint32_t keep = 0;
	for (uint32_t i = 0; i < l->n; i++)
		keep += !size_one(&l->v[i], mesh);
	if (keep == l->n)
		return *l;
	*changed = true;
	sl_axis_list r = {keep ? SL_NEWN(&m->arena, sl_axis_ref, keep) : NULL, 0};
	for (uint32_t i = 0; i < l->n; i++)
		if (!size_one(&l->v[i], mesh))
			r.v[r.n++] = l->v[i];
	return r;
}

static sl_sharding *
remove_axes(sl_module *m, sl_op *op, const sl_sharding *s, void *ud)
{
	(void)op;
	(void)ud;
	const sl_mesh *mesh = sli_sharding_mesh(m, s);
	if (!mesh)
		return NULL;
	bool changed = false;
	sl_sharding *r = SL_NEW(&m->arena, sl_sharding);
	*r = *s;
	r->dims = s->rank ? SL_NEWN(&m->arena, sl_dim_sharding, s->rank) : NULL;
	for (uint32_t d = 0; d < s->rank; d++) {
		bool dc = false;
		r->dims[d] = s->dims[d];
		r->dims[d].axes = filter(m, &s->dims[d].axes, mesh, &dc);
		if (dc && !r->dims[d].axes.n && !r->dims[d].open)
			r->dims[d].priority = SL_NO_PRIORITY;
		changed |= dc;
	}
	r->replicated = filter(m, &s->replicated, mesh, &changed);
	r->unreduced = filter(m, &s->unreduced, mesh, &changed);
	return changed ? r : NULL;
}

int
sli_pass_remove_size_one_axes(sl_module *m, const sli_pass_opts *opts)
{
	(void)opts;
	bool any = false;
	sl_block *body = sli_module_body(m);
	for (sl_op *op = body ? body->first : NULL; op && !any; op = op->next) {
		const sl_mesh *mesh = op->kind == SL_OP_SDY_MESH ? sli_mesh_op_mesh(op) : NULL;
		for (uint32_t i = 0; mesh && i < mesh->naxes; i++)
			any |= mesh->axes[i].size == 1;
	}
	if (any)
		sli_transform_shardings(m, remove_axes, NULL);
	return 0;
}
