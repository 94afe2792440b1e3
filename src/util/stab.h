/*
 * stab.h - a table of names with nested scopes, on the hash set (hash.h),
 * for the names of SSA values in the reader and the printer.  Names are
 * bound in order; a binding hides an earlier one of the same name, and
 * leaving a scope forgets every binding made since the scope's mark,
 * which uncovers what they hid.  A caller that needs more per binding
 * keeps it in an array indexed like the bindings.  Ownership: the table
 * owns its arrays, never the text of the names.
 */
#ifndef SL_UTIL_STAB_H
#define SL_UTIL_STAB_H

#include "util.h"
#include "util/hash.h"

typedef struct sli_sname {
	const char *p;
	uint32_t n;
	uint32_t hidden;	/* index + 1 of the binding this one hides, or 0 */
	uint64_t hash;
} sli_sname;

/* Zero-initialised is empty and ready; sli_stab_fini frees it. */
typedef struct sli_stab {
	SL_VEC(sli_sname) v;	/* the bindings, oldest first */
	sli_htab index;		/* index + 1 of the newest binding of each name */
} sli_stab;

void sli_stab_fini(sli_stab *t);
/* Index + 1 of the newest binding of name (p, n), or 0. */
uint32_t sli_stab_find(const sli_stab *t, const char *p, uint32_t n);
/* Binds name (p, n); returns the new binding's index. */
uint32_t sli_stab_bind(sli_stab *t, const char *p, uint32_t n);
/* The mark of a scope entered now, and leaving that scope. */
static inline size_t
sli_stab_mark(const sli_stab *t)
{
	return t->v.n;
}
void sli_stab_pop(sli_stab *t, size_t mark);

#endif
