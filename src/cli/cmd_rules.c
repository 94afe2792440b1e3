/*
 * cmd_rules.c - `shardlp rules [--explain] [--conservative] FILE`: the
 * sharding rule of every op inside the functions of FILE, one line per op
 * in source order ("file:line:col: op-name #sdy.op_sharding_rule<...>"),
 * as the registry (src/rules) builds it or as the op carries it.  With
 * --explain, one line per factor: its size, kind, and the operand and
 * result dimensions it maps; with --summary, only counts.
 * Entry: cmd_rules(argc, argv), argv[0] = "rules", declared in cli.h.
 */
#include "cli.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "formats/mlir_printer.h"
#include "rules/rules.h"

static const char usage_short[] =
	"usage: shardlp rules [--explain | --summary] [--conservative] FILE\n";

static void
usage_long(void)
{
	fputs(usage_short, stdout);
	fputs("\n"
	      "Parses and verifies FILE ('-' is standard input) and prints, for every\n"
	      "op inside its functions, the op's sharding rule as\n"
	      "#sdy.op_sharding_rule<...>, or 'no rule'.  An sdy.sharding_rule the op\n"
	      "already carries is printed as it is.\n"
	      "\n"
	      "  --explain       also print, per factor, its size, its kind and the\n"
	      "                  operand and result dimensions it comes from\n"
	      "  --summary       print only the number of ops with and without a rule\n"
	      "                  and the number of factors\n"
	      "  --conservative  the rules of conservative propagation\n"
	      "  -h, --help      print this help\n", stdout);
}

static int
usage_error(const char *fmt, const char *arg)
{
	fputs("shardlp rules: ", stderr);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	fputs(usage_short, stderr);
	return EXIT_USAGE;
}

typedef struct rules_run {
	sl_module *m;
	sli_rule_opts ro;
	bool explain, summary;
	size_t nops, nrules, nfactors;
	sli_buf out;
	int status;
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
		run->status = EXIT_INPUT;
		return 0;
	}
	run->nops++;
	if (rc == SLI_RULE_FOUND) {
		run->nrules++;
		run->nfactors += r.nfactors;
	}
	if (run->summary)
		return 0;
	sli_buf_printf(&run->out, "%s:%u:%u: %s ", sl_sym_str(ctx, op->loc.file), op->loc.line,
	               op->loc.col, sl_sym_str(ctx, op->name));
	if (rc == SLI_RULE_NONE) {
		sli_buf_puts(&run->out, "no rule\n");
	} else {
		sl_attr a;
		memset(&a, 0, sizeof a);
		a.kind = SL_ATTR_RULE;
		a.u.rule = r;
		sli_print_sdy_attr(&run->out, ctx, &a, true);
		sli_buf_putc(&run->out, '\n');
		if (run->explain)
			explain(&run->out, &r);
	}
	if (run->out.n > (1 << 16)) {
		fwrite(run->out.p, 1, run->out.n, stdout);
		run->out.n = 0;
	}
	return 0;
}

/* Walks the func.func ops of op's regions, nested modules included. */
static void
print_funcs(rules_run *run, sl_op *op)
{
	for (uint32_t i = 0; i < op->nregions; i++)
		for (sl_block *b = op->regions[i].first; b; b = b->next)
			for (sl_op *o = b->first; o; o = o->next) {
				if (o->kind == SL_OP_FUNC)
					sli_walk(o, print_op, run);
				else if (o->kind == SL_OP_MODULE)
					print_funcs(run, o);
			}
}

int
cmd_rules(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"explain", no_argument, NULL, 'e'},
		{"conservative", no_argument, NULL, 'c'},
		{"summary", no_argument, NULL, 's'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	rules_run run;
	bool explain_flag = false, summary = false, conservative = false;
	const char *path, *name;
	sl_context *ctx;
	cli_sink sink;
	char *text;
	size_t len;
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'e':
			explain_flag = true;
			break;
		case 'c':
			conservative = true;
			break;
		case 's':
			summary = true;
			break;
		case 'h':
			usage_long();
			return EXIT_OK;
		default:
			return usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (explain_flag && summary)
		return usage_error("%s", "--explain and --summary exclude each other");
	if (optind >= argc)
		return usage_error("%s", "missing FILE");
	if (optind + 1 < argc)
		return usage_error("unexpected argument '%s'", argv[optind + 1]);
	path = argv[optind];

	ctx = sl_context_new();
	cli_sink_init(&sink, ctx);
	text = cli_source(&sink, path, &len, &name);
	if (!text) {
		cli_sink_fini(&sink);
		sl_context_free(ctx);
		return EXIT_INPUT;
	}
	memset(&run, 0, sizeof run);
	run.status = EXIT_OK;
	run.m = sl_module_parse(ctx, name, text, len);
	if (run.m && sl_module_verify(run.m) == 0) {
		run.ro.conservative = conservative;
		run.ro.warn = true;
		run.explain = explain_flag;
		run.summary = summary;
		sli_buf_init(&run.out);
		if (run.m->top)
			print_funcs(&run, run.m->top);
		sli_rule_opts_fini(&run.ro);
		if (summary)
			sli_buf_printf(&run.out, "%s: %zu ops, %zu with a rule, %zu without, "
			               "%zu factors\n", name, run.nops, run.nrules,
			               run.nops - run.nrules, run.nfactors);
		fwrite(run.out.p, 1, run.out.n, stdout);
		sli_buf_fini(&run.out);
		if (fflush(stdout) || ferror(stdout)) {
			fputs("shardlp: write error\n", stderr);
			run.status = EXIT_INPUT;
		}
	} else {
		run.status = EXIT_INPUT;
	}
	sl_module_free(run.m);
	cli_sink_fini(&sink);
	sl_context_free(ctx);
	free(text);
	return run.status;
}
