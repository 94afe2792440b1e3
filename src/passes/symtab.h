/*
 * symtab.h - the symbols of the top module for passes that add symbols
 * (spec/import-passes.md section 0.1): a table that renames a clashing
 * name on insertion, and a growable map from symbols to indices.
 * Ownership: both tables are heap memory of the caller (fini frees it).
 */
#ifndef SL_PASSES_SYMTAB_H
#define SL_PASSES_SYMTAB_H

#include "ir/access.h"

/* The body of the top module. */
sl_block *sli_module_body(sl_module *m);
sl_sym sli_sym(sl_module *m, const char *s);

/* A map from symbols to indices (SIZE_MAX when absent) that grows. */
typedef struct sli_symidx {
	size_t *v;
	size_t n;
} sli_symidx;

size_t sli_symidx_get(const sli_symidx *t, sl_sym s);
void sli_symidx_set(sli_symidx *t, sl_sym s, size_t x);
void sli_symidx_fini(sli_symidx *t);

/*
 * The symbols of the top module, and the uniquing counter of one pass
 * run: a clashing name becomes name_<counter++>, tried until free.
 */
typedef struct sli_symtab {
	sl_module *m;
	SL_VEC(unsigned char) used;	/* indexed by sl_sym */
	unsigned counter;
} sli_symtab;

void sli_symtab_init(sli_symtab *t, sl_module *m);
void sli_symtab_fini(sli_symtab *t);
bool sli_symtab_has(const sli_symtab *t, sl_sym name);
void sli_symtab_remove(sli_symtab *t, sl_sym name);
/* A free name for `want`, reserved in the table. */
sl_sym sli_symtab_unique(sli_symtab *t, sl_sym want);
/*
 * Names op uniquely after its current sym_name and inserts it before
 * `before` (at the end of the module body when NULL); returns the name.
 */
sl_sym sli_symtab_insert(sli_symtab *t, sl_op *op, sl_op *before);
/* Sets the sym_name of a symbol op. */
void sli_set_sym_name(sl_module *m, sl_op *op, sl_sym name);

#endif
