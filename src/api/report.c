/*
 * report.c - sl_solve_write_xml: gathers the report of a solve (the
 * result and every tensor of the cost model with its sharding as MLIR
 * text) into the plain structs of formats/xml_report.h and writes it.
 */
#include "shardlp.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api/cost.h"
#include "formats/mlir_printer.h"
#include "formats/xml_report.h"

/*
 * The tensors of m's cost model under p into *out (heap, caller frees).
 * Their sharding texts go into text, NUL-terminated, at the offsets in
 * *at (heap; SIZE_MAX: none), since text may move as it grows.  A
 * module without a model (diagnostics reported) has none.
 */
static size_t
tensors(sl_module *m, const sli_cost_params *p, sli_buf *text,
        sli_xml_tensor **out, size_t **at)
{
	sli_cost_model cm;
	*out = NULL;
	*at = NULL;
	if (sli_cost_model_build(m, p, &cm))
		return 0;
	size_t n = cm.tensors.n;
	sli_xml_tensor *x = sli_xcalloc(n + 1, sizeof *x);
	size_t *off = sli_xcalloc(n + 1, sizeof *off);
	for (size_t t = 0; t < n; t++) {
		const sl_value *v = cm.tensors.v[t].v;
		const sl_sharding *s = sli_cost_value_sharding(v);
		sl_loc loc = v->def ? v->def->loc : sli_value_loc(v);
		x[t].line = loc.line;
		x[t].col = loc.col;
		x[t].result = v->def != NULL;
		x[t].index = v->index;
		x[t].type = sl_sym_str(m->ctx, v->type->text);
		off[t] = SIZE_MAX;
		if (s) {
			sl_attr a;
			memset(&a, 0, sizeof a);
			a.kind = SL_ATTR_SHARDING;
			a.u.sharding = *s;
			off[t] = text->n;
			sli_print_attr(text, m->ctx, &a);
			sli_buf_putc(text, 0);
		}
	}
	sli_cost_model_fini(&cm);
	*out = x;
	*at = off;
	return n;
}

int
sl_solve_write_xml(FILE *out, const char *file, sl_module *m,
                   const sl_solve_result *r, const sl_cost_params *p)
{
	sli_api_cost c;
	sli_buf text;
	sli_xml_tensor *x;
	size_t *at;
	sli_api_cost_from(&c, p);
	sli_buf_init(&text);
	size_t n = tensors(m, &c.p, &text, &x, &at);
	for (size_t t = 0; t < n; t++)
		if (at[t] != SIZE_MAX)
			x[t].sharding = text.p + at[t];
	sli_xml_solve rep = {
		.file = file,
		.status = sl_solve_status_name(r->status),
		.cost = r->parts.total,
		.compute = r->parts.compute,
		.communication = r->parts.communication,
		.peak_bytes = r->parts.peak_bytes,
		.budget = r->parts.budget,
		.bound = r->bound,
		.gap = r->gap,
		.seconds = r->seconds,
		.nbinaries = r->nbinaries,
		.nrows = r->nrows,
		.tensors = x,
		.ntensors = n,
	};
	int rc = sli_xml_solve_report(out, &rep);
	free(x);
	free(at);
	sli_buf_fini(&text);
	return rc;
}
