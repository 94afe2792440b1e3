/*
 * bench_export.c - `make bench`: the partitioner's half of Shardy's export
 * pipeline timed against propagation, inside one process (issue 13).
 * Usage: bench-export FILE [REPS].  Each run parses FILE afresh, runs the
 * propagation pipeline's import steps, user-priority propagation (timed:
 * "prop") and its export steps, then -sdy-insert-explicit-reshards in its
 * full version ("xr") and -sdy-reshard-to-collectives ("rtc"), as
 * `shardlp propagate --collectives` does.  Prints one line of key=value
 * figures for tests/bench_export.sh: each timed phase's best CPU time
 * over REPS runs, the ops of the input, and what the first run's passes
 * made: the reshards and all-reduces after the first, the collectives
 * after the second.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ir/ir.h"
#include "util.h"

enum { PH_PROP, PH_XR, PH_RTC, PH__COUNT };

static const char *const phase_name[PH__COUNT] = {"prop", "xr", "rtc"};

/* The passes after propagation, in order, with their options. */
static const char *const pass[][2] = {
	{"sdy-insert-explicit-reshards", "enable-full-version=true"},
	{"sdy-reshard-to-collectives", ""},
};

/* What the module holds: ops, reshards, collectives. */
typedef struct census {
	size_t ops, reshards, collectives;
} census;

/* CPU seconds of the process: clock(3) counts user and system time. */
static double
cpu_now(void)
{
	return (double)clock() / CLOCKS_PER_SEC;
}

static int
count_op(sl_op *op, void *ud)
{
	census *c = ud;

	switch (op->kind) {
	case SL_OP_FUNC:
		return 0;
	case SL_OP_SDY_RESHARD:
		c->reshards++;
		break;
	case SL_OP_SDY_ALL_GATHER: case SL_OP_SDY_ALL_SLICE:
	case SL_OP_SDY_ALL_TO_ALL: case SL_OP_SDY_COLLECTIVE_PERMUTE:
	case SL_OP_SDY_ALL_REDUCE: case SL_OP_SDY_REDUCE_SCATTER:
		c->collectives++;
		break;
	default:
		break;
	}
	c->ops++;
	return 0;
}

/* Propagation, then the two passes, each timed into t[PH_XR + i] and,
 * when c is not NULL, counted into c[i] after it ran. */
static int
run_passes(sl_module *m, double *t, census *c)
{
	char err[256];
	sl_run *r = sl_run_import(m);
	double t0;
	int rc;

	if (!r)
		return -1;
	t0 = cpu_now();
	rc = sl_pass_run(m, "sdy-user-priority-propagate", "", err, sizeof err);
	t[PH_PROP] = cpu_now() - t0;
	if (rc || sl_run_export(r)) {
		sl_run_free(r);
		return -1;
	}
	sl_run_free(r);
	for (int i = 0; i < 2; i++) {
		t0 = cpu_now();
		rc = sl_pass_run(m, pass[i][0], pass[i][1], err, sizeof err);
		t[PH_XR + i] = cpu_now() - t0;
		if (rc) {
			fprintf(stderr, "bench-export: %s: %s\n", pass[i][0],
			        rc == -2 ? err : "failed");
			return -1;
		}
		if (c)
			sli_walk_funcs(m->top, count_op, &c[i]);
	}
	return 0;
}

/* One run on a fresh parse; fills t and, when c is not NULL, the census
 * of the input (c[0]) and after each pass (c[1], c[2]).  0, or -1 with a
 * message. */
static int
run_once(const char *path, const char *text, size_t len, double *t, census *c)
{
	sl_context *ctx = sl_context_new();
	sl_module *m = sl_module_parse(ctx, path, text, len);
	int rc = -1;

	if (!m || sl_module_verify(m)) {
		fprintf(stderr, "bench-export: '%s' does not parse or verify\n", path);
		goto out;
	}
	if (c)
		sli_walk_funcs(m->top, count_op, &c[0]);
	rc = run_passes(m, t, c ? c + 1 : NULL);
	if (rc)
		fprintf(stderr, "bench-export: the passes failed on '%s'\n", path);
out:
	sl_module_free(m);
	sl_context_free(ctx);
	return rc;
}

int
main(int argc, char **argv)
{
	double best[PH__COUNT], t[PH__COUNT];
	int reps = argc > 2 ? atoi(argv[2]) : 1;
	census c[3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
	size_t len;
	char *text;

	if (argc < 2 || argc > 3 || reps < 1) {
		fputs("usage: bench-export FILE [REPS]\n", stderr);
		return 2;
	}
	text = sli_read_file(argv[1], &len);
	if (!text) {
		fprintf(stderr, "bench-export: cannot read '%s'\n", argv[1]);
		return 1;
	}
	for (int i = 0; i < reps; i++) {
		if (run_once(argv[1], text, len, t, i ? NULL : c)) {
			free(text);
			return 1;
		}
		for (int p = 0; p < PH__COUNT; p++)
			if (i == 0 || t[p] < best[p])
				best[p] = t[p];
	}
	free(text);
	printf("ops=%zu reshards=%zu all_reduces=%zu collectives=%zu", c[0].ops,
	       c[1].reshards, c[1].collectives, c[2].collectives);
	for (int p = 0; p < PH__COUNT; p++)
		printf(" %s=%.6f", phase_name[p], best[p]);
	putchar('\n');
	return 0;
}
