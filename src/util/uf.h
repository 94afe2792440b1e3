/*
 * uf.h - union-find over the integers 0..n-1, with path halving.  The root
 * a union keeps is fixed (the root of its second argument), so callers
 * that key results by root get the same answer on every run.
 * Ownership: sli_uf_init allocates the parent array, sli_uf_fini frees it.
 */
#ifndef SL_UTIL_UF_H
#define SL_UTIL_UF_H

#include <stdint.h>

typedef struct sli_uf {
	uint32_t *parent;
	uint32_t n;
} sli_uf;

/* n singletons. */
void sli_uf_init(sli_uf *u, uint32_t n);
void sli_uf_fini(sli_uf *u);

/* The root of x's set. */
static inline uint32_t
sli_uf_find(sli_uf *u, uint32_t x)
{
	uint32_t *p = u->parent;
	while (p[x] != x)
		x = p[x] = p[p[x]];
	return x;
}

/* Joins the sets of a and b under the root of b's set; returns that root. */
static inline uint32_t
sli_uf_union(sli_uf *u, uint32_t a, uint32_t b)
{
	uint32_t rb = sli_uf_find(u, b);
	u->parent[sli_uf_find(u, a)] = rb;
	return rb;
}

#endif
