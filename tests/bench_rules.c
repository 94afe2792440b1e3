/*
 * bench_rules.c - `make bench`: CPU time of building the sharding rule of
 * every op of a module (src/rules), against the time to parse and verify
 * it, measured in one process so that printing and process start-up do not
 * count.  Usage: bench-rules FILE [REPS]; prints one line of figures.
 * Rules are built into a scratch arena that is reset between repetitions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ir/ir.h"
#include "rules/rules.h"

typedef struct bench {
	sl_module *m;
	sli_rule_opts ro;
	size_t ops, rules, factors;
	int errors;
} bench;

static double
cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int
build(sl_op *op, void *ud)
{
	bench *b = ud;
	sl_rule r;
	int rc;

	if (op->kind == SL_OP_FUNC)
		return 0;
	rc = sli_rule_for_op(b->m, op, &b->ro, &r);
	b->ops++;
	if (rc < 0)
		b->errors++;
	else if (rc == SLI_RULE_FOUND) {
		b->rules++;
		b->factors += r.nfactors;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	sl_context *ctx;
	sli_arena scratch;
	bench b;
	double t0, parse, verify, best = -1;
	int reps = argc > 2 ? atoi(argv[2]) : 3;
	char *text;
	size_t len;

	if (argc < 2 || argc > 3 || reps < 1) {
		fputs("usage: bench-rules FILE [REPS]\n", stderr);
		return 2;
	}
	text = sli_read_file(argv[1], &len);
	if (!text) {
		fprintf(stderr, "bench-rules: cannot read '%s'\n", argv[1]);
		return 1;
	}
	ctx = sl_context_new();
	memset(&b, 0, sizeof b);
	t0 = cpu_now();
	b.m = sl_module_parse(ctx, argv[1], text, len);
	parse = cpu_now() - t0;
	if (!b.m) {
		fprintf(stderr, "bench-rules: '%s' does not parse\n", argv[1]);
		return 1;
	}
	t0 = cpu_now();
	if (sl_module_verify(b.m)) {
		fprintf(stderr, "bench-rules: '%s' does not verify\n", argv[1]);
		return 1;
	}
	verify = cpu_now() - t0;

	sli_arena_init(&scratch);
	b.ro.registry_only = true;
	b.ro.arena = &scratch;
	for (int i = 0; i < reps; i++) {
		double t;
		b.ops = b.rules = b.factors = 0;
		b.errors = 0;
		t0 = cpu_now();
		sli_walk_funcs(b.m->top, build, &b);
		t = cpu_now() - t0;
		if (best < 0 || t < best)
			best = t;
		sli_arena_reset(&scratch);
	}
	sli_arena_fini(&scratch);
	sli_rule_opts_fini(&b.ro);
	printf("%zu ops, %zu rules, %zu factors, %d errors: parse %.3f s, verify %.3f s, "
	       "rules %.3f s = %.1f%% of parse, %.1f%% of parse+verify, %.0f ns/op\n",
	       b.ops, b.rules, b.factors, b.errors, parse, verify, best, 100 * best / parse,
	       100 * best / (parse + verify), 1e9 * best / (double)(b.ops ? b.ops : 1));
	sl_module_free(b.m);
	sl_context_free(ctx);
	free(text);
	return b.errors ? 1 : 0;
}
