/* hash.c - growth of the open-addressing hash set (hash.h). */
#include "util/hash.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

void
sli_htab_fini(sli_htab *t)
{
	free(t->slots);
	t->slots = NULL;
	t->n = t->cap = 0;
}

void
sli_htab_clear(sli_htab *t)
{
	if (t->cap)
		memset(t->slots, 0, sizeof *t->slots * t->cap);
	t->n = 0;
}

void
sli_htab_reserve(sli_htab *t, uint32_t min)
{
	if (t->n * 2 < t->cap)
		return;
	uint32_t cap = t->cap ? t->cap * 2 : min < 2 ? 2 : min;
	if (!cap || (cap & (cap - 1)))
		SL_UNREACHABLE();	/* overflow, or min not a power of two */
	sli_hslot *s = sli_xcalloc(cap, sizeof *s);
	for (uint32_t i = 0; i < t->cap; i++) {
		if (!t->slots[i].item)
			continue;
		uint32_t j = (uint32_t)t->slots[i].hash & (cap - 1);
		while (s[j].item)
			j = (j + 1) & (cap - 1);
		s[j] = t->slots[i];
	}
	free(t->slots);
	t->slots = s;
	t->cap = cap;
}
