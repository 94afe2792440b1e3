/*
 * iopddl.h - the IOPDDL benchmark's problems (the ASPLOS 2025 contest on
 * intra-operator parallelism): a reader for its .json and .json.gz files
 * into a plain struct, and the reader and writer of its solutions (a JSON
 * array of strategy indices, one per node).
 * Public: the shardlp program uses it beside shardlp.h.
 * Ownership: an sl_iopddl owns all its arrays (sl_iopddl_free); readers
 * report located errors through the context's sink and return NULL or -1.
 */
#ifndef SL_FORMATS_IOPDDL_H
#define SL_FORMATS_IOPDDL_H

#include "shardlp.h"

/* Costs at or above this mean "forbidden"; the reader stores them as it. */
#define SL_IOPDDL_FORBIDDEN INT64_C(1000000000000000000)

/*
 * Node i has nstrat[i] strategies; strategy s costs cost[sfirst[i] + s]
 * and uses usage[sfirst[i] + s] memory while i is live, at every time t
 * with lo[i] <= t < hi[i].  Edge e joins eu[e] and ev[e]; the pair
 * (a, b) of their strategies costs ecost[efirst[e] + a * nstrat[ev[e]] + b].
 * At every time the usages of the live nodes sum to at most usage_limit
 * (when has_limit).
 */
struct sl_iopddl {
	char *name;		/* problem.name, or NULL */
	size_t nnodes, nedges;
	int64_t *lo, *hi;
	uint32_t *nstrat;
	size_t *sfirst;		/* nnodes + 1 entries */
	int64_t *cost, *usage;
	uint32_t *eu, *ev;
	size_t *efirst;		/* nedges + 1 entries */
	int64_t *ecost;
	bool has_limit;
	int64_t usage_limit;
};

/*
 * Reads a problem from path (.json, or gzip-compressed whatever its name;
 * "-" is stdin).  NULL after errors through ctx: `file:line:col: error:
 * nodes.costs[3]: ...`, the path into the JSON in the message.
 */
sl_iopddl *sl_iopddl_read(sl_context *ctx, const char *path);
/*
 * As sl_iopddl_read, but gives up once sl_solve_clock() passes deadline
 * (> 0; <= 0: none): then NULL, *late set and no error reported.
 */
sl_iopddl *sl_iopddl_read_until(sl_context *ctx, const char *path,
                                double deadline, bool *late);
/* As sl_iopddl_read, from JSON text in memory; name is used in locations. */
sl_iopddl *sl_iopddl_parse(sl_context *ctx, const char *name, const char *text,
                           size_t len);
void sl_iopddl_free(sl_iopddl *p);

/*
 * Reads a solution (a JSON array of integers, gzip or not) into a new
 * heap array *out of *n entries (caller frees).  The indices are not
 * checked against a problem: that is the evaluator's job.  0, or -1
 * after errors through ctx.
 */
int sl_iopddl_read_solution(sl_context *ctx, const char *path, int64_t **out,
                            size_t *n);
/* Writes sol[0..n) as a JSON array and a newline; 0, or -1 on a write error. */
int sl_iopddl_write_solution(FILE *out, const int64_t *sol, size_t n);

#endif
