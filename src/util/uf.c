/* uf.c - life cycle of the union-find (uf.h). */
#include "util/uf.h"

#include <stdlib.h>

#include "util.h"

void
sli_uf_init(sli_uf *u, uint32_t n)
{
	u->parent = sli_xmalloc(sizeof *u->parent * (n ? n : 1));
	u->n = n;
	for (uint32_t i = 0; i < n; i++)
		u->parent[i] = i;
}

void
sli_uf_fini(sli_uf *u)
{
	free(u->parent);
	u->parent = NULL;
	u->n = 0;
}
