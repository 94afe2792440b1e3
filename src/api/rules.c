/*
 * rules.c - sl_rules_print: the sharding rule of every op inside the
 * functions of a module, as the registry (src/rules) builds it or as the
 * op carries it, one line per op in source order; with explain, one
 * line per factor: its size, kind, and the operand and result dimensions
 * it maps.  Output is gathered in a buffer and written in large pieces.
 */
#include "shardlp.h"

#include <inttypes.h>
#include <string.h>

#include "formats/mlir_printer.h"
#include "rules/rules.h"

typedef struct rules_run {
	sl_module *m;
	FILE *out;
	sli_rule_opts ro;
	const sl_rules_opts *o;
	sl_rules_count count;
	sli_buf b;
	int rc;
} rules_run;

static const char *const kind_names[] = {
	"pass-through", "reduction", "need-replication", "permutation",
};

/* ", operand 1 dim 0 (2 of 3)" for every dim of the mappings holding f. */
static void
explain_uses(sli_buf *b, const char *what, const sl_tensor_mapping *tm, uint32_t n,
             uint32_t f, bool *first)
{
	for (uint32_t t = 0; t < n; t++)
		for (uint32_t d = 0; d < tm[t].rank; d++)
			for (uint32_t k = 0; k < tm[t].dims[d].n; k++) {
				if (tm[t].dims[d].factors[k] != f)
					continue;
				sli_buf_printf(b, "%s%s %u dim %u", *first ? "" : ", ", what, t, d);
				if (tm[t].dims[d].n > 1)
					sli_buf_printf(b, " (%u of %u)", k + 1, tm[t].dims[d].n);
				*first = false;
			}
}

static void
explain(sli_buf *b, const sl_rule *r)
{
	for (uint32_t f = 0; f < r->nfactors; f++) {
		size_t start = b->n;
		bool first = true;

		sli_buf_puts(b, "  ");
		sli_rule_factor_name(b, f);
		sli_buf_printf(b, "=%" PRId64, r->factor_sizes[f]);
		while (b->n - start < 12)
			sli_buf_putc(b, ' ');
		start = b->n;
		sli_buf_printf(b, " %s%s", kind_names[sli_rule_factor_kind(r, f)],
		               sli_rule_factor_blocked(r, f) ? ", blocked" : "");
		while (b->n - start < 27)
			sli_buf_putc(b, ' ');
		explain_uses(b, "operand", r->operands, r->noperands, f, &first);
		explain_uses(b, "result", r->results, r->nresults, f, &first);
		if (first)
			sli_buf_puts(b, "unused");
		sli_buf_putc(b, '\n');
	}
}

static int
print_op(sl_op *op, void *ud)
{
	rules_run *run = ud;
	const sl_context *ctx = run->m->ctx;
	sl_rule r;
	int rc;

	if (op->kind == SL_OP_FUNC || (op->kind != SL_OP_UNKNOWN &&
	                               (sli_op_info[op->kind].traits & T_TERM)))
		return 0;
	rc = sli_rule_for_op(run->m, op, &run->ro, &r);
	if (rc < 0) {
		run->rc = -1;
		return 0;
	}
	run->count.ops++;
	if (rc == SLI_RULE_FOUND) {
		run->count.rules++;
		run->count.factors += r.nfactors;
	}
	if (run->o->count_only)
		return 0;
	sli_buf_printf(&run->b, "%s:%u:%u: %s ", sl_sym_str(ctx, op->loc.file), op->loc.line,
	               op->loc.col, sl_sym_str(ctx, op->name));
	if (rc == SLI_RULE_NONE) {
		sli_buf_puts(&run->b, "no rule\n");
	} else {
		sl_attr a;
		memset(&a, 0, sizeof a);
		a.kind = SL_ATTR_RULE;
		a.u.rule = r;
		sli_print_sdy_attr(&run->b, ctx, &a, true);
		sli_buf_putc(&run->b, '\n');
		if (run->o->explain)
			explain(&run->b, &r);
	}
	if (run->b.n > (1 << 16)) {
		fwrite(run->b.p, 1, run->b.n, run->out);
		run->b.n = 0;
	}
	return 0;
}

int
sl_rules_print(sl_module *m, FILE *out, const sl_rules_opts *o,
               sl_rules_count *count)
{
	rules_run run;
	memset(&run, 0, sizeof run);
	run.m = m;
	run.out = out;
	run.o = o;
	run.ro.conservative = o->conservative;
	run.ro.warn = true;
	sli_buf_init(&run.b);
	if (m->top)
		sli_walk_funcs(m->top, print_op, &run);
	sli_rule_opts_fini(&run.ro);
	if (run.b.n)
		fwrite(run.b.p, 1, run.b.n, out);
	sli_buf_fini(&run.b);
	if (count)
		*count = run.count;
	return run.rc;
}
