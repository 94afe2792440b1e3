/*
 * symtab.c - the symbols of the top module for passes that add symbols:
 * the table that renames a clashing symbol on insertion, and a growable
 * map from symbols to indices (spec/import-passes.md section 0.1).
 */
#include "passes/symtab.h"

#include <stdlib.h>
#include <string.h>

sl_block *
sli_module_body(sl_module *m)
{
	if (!m->top->nregions)
		return NULL;
	return m->top->regions[0].first;
}

sl_sym
sli_sym(sl_module *m, const char *s)
{
	return sl_sym_intern(m->ctx, s, strlen(s));
}

/* ==================================================================== */
/* Symbol table                                                            */
/* ==================================================================== */

static void
mark(sli_symtab *t, sl_sym name, unsigned char on)
{
	if (name >= t->used.n) {
		SL_VEC_RESERVE(t->used, (size_t)name + 1);
		memset(t->used.v + t->used.n, 0, (size_t)name + 1 - t->used.n);
		t->used.n = (size_t)name + 1;
	}
	t->used.v[name] = on;
}

void
sli_symtab_init(sli_symtab *t, sl_module *m)
{
	memset(t, 0, sizeof *t);
	t->m = m;
	sl_block *body = sli_module_body(m);
	for (sl_op *op = body ? body->first : NULL; op; op = op->next) {
		sl_sym s = sli_op_sym_name(m, op);
		if (s)
			mark(t, s, 1);
	}
}

void
sli_symtab_fini(sli_symtab *t)
{
	SL_VEC_FREE(t->used);
}

bool
sli_symtab_has(const sli_symtab *t, sl_sym name)
{
	return name < t->used.n && t->used.v[name];
}

void
sli_symtab_remove(sli_symtab *t, sl_sym name)
{
	if (name < t->used.n)
		t->used.v[name] = 0;
}

sl_sym
sli_symtab_unique(sli_symtab *t, sl_sym want)
{
	if (!sli_symtab_has(t, want)) {
		mark(t, want, 1);
		return want;
	}
	sli_buf b;
	sli_buf_init(&b);
	sl_sym s;
	do {
		b.n = 0;
		sli_buf_printf(&b, "%s_%u", sl_sym_str(t->m->ctx, want), t->counter++);
		s = sl_sym_intern(t->m->ctx, b.p, b.n);
	} while (sli_symtab_has(t, s));
	sli_buf_fini(&b);
	mark(t, s, 1);
	return s;
}

void
sli_set_sym_name(sl_module *m, sl_op *op, sl_sym name)
{
	const char *s = sl_sym_str(m->ctx, name);
	sli_op_set_prop(m, op, SLS_sym_name, sli_attr_string(m, s, strlen(s)));
}

sl_sym
sli_symtab_insert(sli_symtab *t, sl_op *op, sl_op *before)
{
	sl_sym want = sli_op_sym_name(t->m, op);
	sl_sym got = sli_symtab_unique(t, want);
	if (got != want)
		sli_set_sym_name(t->m, op, got);
	if (before)
		sli_op_insert_before(before, op);
	else
		sli_op_append(sli_module_body(t->m), op);
	return got;
}

size_t
sli_symidx_get(const sli_symidx *t, sl_sym s)
{
	return s < t->n ? t->v[s] : SIZE_MAX;
}

void
sli_symidx_set(sli_symidx *t, sl_sym s, size_t x)
{
	if (s >= t->n) {
		size_t n = 2 * (size_t)s + 64;
		t->v = sli_xrealloc(t->v, sizeof *t->v * n);
		for (size_t i = t->n; i < n; i++)
			t->v[i] = SIZE_MAX;
		t->n = n;
	}
	t->v[s] = x;
}

void
sli_symidx_fini(sli_symidx *t)
{
	free(t->v);
	t->v = NULL;
	t->n = 0;
}
