/*
 * bench_scale.c - `make bench`: the phases of one program timed inside one
 * process (issue 17): parse, verify, the import steps of the propagation
 * pipeline, user-priority propagation, the export steps, and printing (to
 * a stdio stream that only counts the bytes).  Usage: bench-scale FILE [REPS]; each phase's
 * best CPU time over REPS runs on a fresh parse.  Prints one line of
 * key=value figures for tests/bench_scale.sh; peak RSS is the process's
 * maximum resident set (getrusage) during the first run, the input text
 * included.  The reader is shardlp-opt's (MLIR only), so that, like
 * shardlp-opt, the process loads no libxml2.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "formats/mlir_parser.h"
#include "ir/ir.h"
#include "util.h"

enum { PH_PARSE, PH_VERIFY, PH_IMPORT, PH_PROP, PH_EXPORT, PH_PRINT, PH__COUNT };

static const char *const phase_name[PH__COUNT] = {
	"parse", "verify", "import", "prop", "export", "print"
};

/* User + system CPU seconds of the process. */
static double
cpu_now(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

/* Peak RSS so far in KiB (getrusage). */
static long
peak_kb(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

static int
count_op(sl_op *op, void *ud)
{
	if (op->kind != SL_OP_FUNC)
		(*(size_t *)ud)++;
	return 0;
}

/* A stdio stream that only counts the bytes written to it. */
static ssize_t
count_write(void *cookie, const char *buf, size_t n)
{
	(void)buf;
	*(long *)cookie += (long)n;
	return (ssize_t)n;
}

/* One run of every phase; t[i] gets each phase's CPU seconds.  Returns 0,
 * or -1 with a message on stderr. */
static int
run_once(sl_context *ctx, const char *path, const char *text, size_t len,
         double *t, long *pk, size_t *ops, long *outbytes)
{
	sl_module *m;
	sl_run *r;
	char err[256];
	double t0 = cpu_now();
	int rc = -1;

	m = sli_mlir_parse_at(ctx, path, text, len, 1);
	t[PH_PARSE] = cpu_now() - t0;
	pk[PH_PARSE] = peak_kb();
	if (!m) {
		fprintf(stderr, "bench-scale: '%s' does not parse\n", path);
		return -1;
	}
	*ops = 0;
	sli_walk_funcs(m->top, count_op, ops);
	t0 = cpu_now();
	if (sl_module_verify(m)) {
		fprintf(stderr, "bench-scale: '%s' does not verify\n", path);
		goto out;
	}
	t[PH_VERIFY] = cpu_now() - t0;
	pk[PH_VERIFY] = peak_kb();
	t0 = cpu_now();
	r = sl_run_import(m);
	t[PH_IMPORT] = cpu_now() - t0;
	pk[PH_IMPORT] = peak_kb();
	if (!r) {
		fprintf(stderr, "bench-scale: import failed on '%s'\n", path);
		goto out;
	}
	t0 = cpu_now();
	rc = sl_pass_run(m, "sdy-user-priority-propagate", "", err, sizeof err);
	t[PH_PROP] = cpu_now() - t0;
	pk[PH_PROP] = peak_kb();
	t0 = cpu_now();
	if (rc || sl_run_export(r)) {
		fprintf(stderr, "bench-scale: propagation failed on '%s'\n", path);
		sl_run_free(r);
		rc = -1;
		goto out;
	}
	t[PH_EXPORT] = cpu_now() - t0;
	pk[PH_EXPORT] = peak_kb();
	sl_run_free(r);

	cookie_io_functions_t io = {NULL, count_write, NULL, NULL};
	FILE *f = fopencookie(outbytes, "w", io);
	if (!f) {
		fputs("bench-scale: cannot open a stream\n", stderr);
		rc = -1;
		goto out;
	}
	sl_print_opts po = {.generic = false};
	*outbytes = 0;
	t0 = cpu_now();
	rc = sl_module_print(m, f, &po);
	fflush(f);
	t[PH_PRINT] = cpu_now() - t0;
	pk[PH_PRINT] = peak_kb();
	fclose(f);
out:
	sl_module_free(m);
	return rc;
}

int
main(int argc, char **argv)
{
	double best[PH__COUNT], t[PH__COUNT];
	long pk[PH__COUNT], pk0[PH__COUNT];
	int reps = argc > 2 ? atoi(argv[2]) : 1;
	size_t len, ops = 0;
	long outbytes = 0;
	struct rusage ru;
	char *text;

	if (argc < 2 || argc > 3 || reps < 1) {
		fputs("usage: bench-scale FILE [REPS]\n", stderr);
		return 2;
	}
	text = sli_read_file(argv[1], &len);
	if (!text) {
		fprintf(stderr, "bench-scale: cannot read '%s'\n", argv[1]);
		return 1;
	}
	for (int i = 0; i < reps; i++) {
		sl_context *ctx = sl_context_new();
		int rc = run_once(ctx, argv[1], text, len, t, pk, &ops, &outbytes);

		sl_context_free(ctx);
		if (rc) {
			free(text);
			return 1;
		}
		if (i == 0) {	/* later runs reuse the heap of the first */
			getrusage(RUSAGE_SELF, &ru);
			memcpy(pk0, pk, sizeof pk0);
		}
		for (int p = 0; p < PH__COUNT; p++)
			if (i == 0 || t[p] < best[p])
				best[p] = t[p];
	}
	free(text);
	printf("bytes=%zu ops=%zu out=%ld", len, ops, outbytes);
	for (int p = 0; p < PH__COUNT; p++)
		printf(" %s=%.6f", phase_name[p], best[p]);
	printf(" rss_kb=%ld", ru.ru_maxrss);
	/* the peak after each phase: which phase sets it */
	for (int p = 0; p < PH__COUNT; p++)
		printf(" peak_%s_kb=%ld", phase_name[p], pk0[p]);
	putchar('\n');
	return 0;
}
