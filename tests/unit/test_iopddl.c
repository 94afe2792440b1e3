/*
 * test_iopddl.c - the IOPDDL benchmark: the reader (fields, and one
 * located error per kind of malformed file, truncated gzip included),
 * the evaluator on hand-computed costs and usages, and the solver on
 * small random problems against exhaustive enumeration (the ILP, the
 * local search, and the Lagrangian search within a time limit), and
 * the sub-models of the large-neighbourhood search against the problem,
 * and the folds (leaves, nodes of two edges) against enumeration.
 */
#include "tests.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "formats/iopddl.h"
#include "solver/iopddl.h"
#include "solver/iopddl_fold.h"
#include "solver/iopddl_lns.h"
#include "solver/lp.h"

/* The contest's example (its optimum is 445). */
static const char example[] =
	"{\"problem\": {\"name\": \"example\",\n"
	" \"nodes\": {\n"
	"  \"intervals\": [[30, 70], [40, 70], [50, 120], [110, 140], [110, 150]],\n"
	"  \"costs\": [[15], [55, 65], [25, 45, 35], [85, 75], [95]],\n"
	"  \"usages\": [[10], [25, 25], [15, 20, 15], [10, 10], [15]]},\n"
	" \"edges\": {\n"
	"  \"nodes\": [[0, 1], [0, 2], [1, 3], [2, 4], [3, 4]],\n"
	"  \"costs\": [[30, 40], [50, 10, 40], [90, 10, 20, 80], [60, 20, 30], [70, 60]]},\n"
	" \"usage_limit\": 50}}\n";

static char diags[4096];

static void
collect(void *ud, const sl_diag *d)
{
	const sl_context *ctx = ud;
	size_t n = strlen(diags);
	snprintf(diags + n, sizeof diags - n, "%s:%u:%u: %s\n",
	         sl_sym_str(ctx, d->loc.file), d->loc.line, d->loc.col, d->message);
}

static sl_iopddl *
parse(sl_context *ctx, const char *text)
{
	diags[0] = 0;
	sl_context_set_diag(ctx, collect, ctx);
	return sl_iopddl_parse(ctx, "p.json", text, strlen(text));
}

static void
test_read_example(void)
{
	sl_context *ctx = sl_context_new();
	sl_iopddl *p = parse(ctx, example);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(p->nnodes, 5);
	CU_ASSERT_EQUAL(p->nedges, 5);
	CU_ASSERT_STRING_EQUAL(p->name, "example");
	CU_ASSERT_EQUAL(p->nstrat[2], 3);
	CU_ASSERT_EQUAL(p->cost[p->sfirst[2] + 1], 45);
	CU_ASSERT_EQUAL(p->usage[p->sfirst[1] + 0], 25);
	CU_ASSERT_EQUAL(p->lo[4], 110);
	CU_ASSERT_EQUAL(p->hi[4], 150);
	CU_ASSERT_EQUAL(p->eu[2], 1);
	CU_ASSERT_EQUAL(p->ev[2], 3);
	CU_ASSERT_EQUAL(p->ecost[p->efirst[2] + 1 * 2 + 0], 20);
	CU_ASSERT(p->has_limit);
	CU_ASSERT_EQUAL(p->usage_limit, 50);
	sl_iopddl_free(p);
	sl_context_free(ctx);
}

/* Replaces the first `from` of example by `to`; parses; the diagnostics. */
static const char *
parse_edited(const char *from, const char *to)
{
	static char text[4096];
	const char *at = strstr(example, from);
	CU_ASSERT_PTR_NOT_NULL_FATAL(at);
	snprintf(text, sizeof text, "%.*s%s%s", (int)(at - example), example, to,
	         at + strlen(from));
	sl_context *ctx = sl_context_new();
	sl_iopddl *p = parse(ctx, text);
	CU_ASSERT_PTR_NULL(p);
	sl_iopddl_free(p);
	sl_context_free(ctx);
	return diags;
}

#define EXPECT_ERROR(from, to, want) do { \
	const char *d_ = parse_edited(from, to); \
	if (!strstr(d_, want)) \
		fprintf(stderr, "\nwanted '%s', got '%s'\n", want, d_); \
	CU_ASSERT_PTR_NOT_NULL(strstr(d_, want)); \
} while (0)

static void
test_read_errors(void)
{
	EXPECT_ERROR("[70, 60]]}", "[70]]}",
	             "p.json:8:69: edges.costs[4]: expected 2 entries (2 x 1 strategies), got 1");
	EXPECT_ERROR("[110, 140]", "[140, 110]", "nodes.intervals[3]: reversed interval [140, 110)");
	EXPECT_ERROR("[30, 70]", "[-30, 70]", "nodes.intervals[0]: negative interval start -30");
	EXPECT_ERROR("\"usages\"", "\"usage\"", "p.json:2:11: nodes: missing field 'usages'");
	EXPECT_ERROR("[95]]", "[]]", "nodes.costs[4]: node 4 has no strategies");
	EXPECT_ERROR("[3, 4]]", "[3, 5]]", "p.json:7:49: edges.nodes[4][1]: no node 5 (there are 5)");
	EXPECT_ERROR("[85, 75]", "[85, \"x\"]", "nodes.costs[3][1]: expected a number");
	EXPECT_ERROR("[85, 75]", "[85, 7.5]", "nodes.costs[3][1]: expected an integer, got 7.5");
	EXPECT_ERROR("[10, 10]", "[10, 10, 1]", "nodes.usages[3]: expected 2 entries (one per strategy), got 3");
	EXPECT_ERROR("\"usage_limit\": 50", "\"usage_limit\": -1", "usage_limit: negative usage limit");
	EXPECT_ERROR("\"edges\": {", "\"edgez\": {", "missing field 'edges'");
	EXPECT_ERROR("[[30, 70]", "[[30, 70", "p.json:4:");
}

/* Writes example gzip-compressed to a temporary file, cut to keep bytes. */
static void
write_gz(const char *path, size_t keep)
{
	gzFile f = gzopen(path, "wb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	gzwrite(f, example, (unsigned)strlen(example));
	gzclose(f);
	if (keep)
		CU_ASSERT_EQUAL(truncate(path, (off_t)keep), 0);
}

static void
test_read_gzip(void)
{
	char path[] = "/tmp/shardlp-iopddl-XXXXXX";
	int fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	sl_context *ctx = sl_context_new();
	diags[0] = 0;
	sl_context_set_diag(ctx, collect, ctx);
	write_gz(path, 0);
	sl_iopddl *p = sl_iopddl_read(ctx, path);
	CU_ASSERT_PTR_NOT_NULL(p);
	CU_ASSERT(p && p->nedges == 5);
	sl_iopddl_free(p);
	write_gz(path, 60);
	p = sl_iopddl_read(ctx, path);
	CU_ASSERT_PTR_NULL(p);
	CU_ASSERT_PTR_NOT_NULL(strstr(diags, "truncated gzip data"));
	sl_iopddl_free(p);
	unlink(path);
	sl_context_free(ctx);
}

static void
test_eval_by_hand(void)
{
	sl_context *ctx = sl_context_new();
	sl_iopddl *p = parse(ctx, example);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	sl_iopddl_eval ev;
	/* 15 + 55 + 35 + 75 + 95, edges 30 + 40 + 10 + 30 + 60 */
	int64_t best[] = {0, 0, 2, 1, 0};
	CU_ASSERT_EQUAL(sl_iopddl_evaluate(p, best, 5, &ev), 0);
	CU_ASSERT_EQUAL(ev.cost, 445);
	CU_ASSERT_EQUAL(ev.peak, 50);
	/* 15 + 65 + 25 + 85 + 95, edges 40 + 50 + 20 + 60 + 70 */
	int64_t other[] = {0, 1, 0, 0, 0};
	CU_ASSERT_EQUAL(sl_iopddl_evaluate(p, other, 5, &ev), 0);
	CU_ASSERT_EQUAL(ev.cost, 525);
	/* node 2 at usage 20: 10 + 25 + 20 live over [50, 70) */
	int64_t heavy[] = {0, 0, 1, 1, 0};
	CU_ASSERT_EQUAL(sl_iopddl_evaluate(p, heavy, 5, &ev), 1);
	CU_ASSERT_EQUAL(ev.peak, 55);
	CU_ASSERT_EQUAL(ev.peak_time, 50);
	CU_ASSERT_STRING_EQUAL(ev.why, "usage 55 at time 50 exceeds the limit 50");
	int64_t range[] = {0, 2, 0, 0, 0};
	CU_ASSERT_EQUAL(sl_iopddl_evaluate(p, range, 5, &ev), 1);
	CU_ASSERT_STRING_EQUAL(ev.why, "node 1: no strategy 2 (it has 2)");
	CU_ASSERT_EQUAL(sl_iopddl_evaluate(p, best, 4, &ev), 1);
	/* a forbidden pair, and usage at an interval's end does not count */
	sl_iopddl_free(p);
	p = parse(ctx, "{\"nodes\": {\"intervals\": [[0, 5], [5, 9]],"
	          " \"costs\": [[1, 2], [3]], \"usages\": [[7, 7], [7]]},"
	          " \"edges\": {\"nodes\": [[0, 1]], \"costs\": [[1e18, 4]]},"
	          " \"usage_limit\": 7}");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	int64_t f0[] = {0, 0}, f1[] = {1, 0};
	CU_ASSERT_EQUAL(sl_iopddl_evaluate(p, f0, 2, &ev), 1);
	CU_ASSERT_STRING_EQUAL(ev.why, "edge 0 (0, 1): the pair (0, 0) is forbidden");
	CU_ASSERT_EQUAL(sl_iopddl_evaluate(p, f1, 2, &ev), 0);
	CU_ASSERT_EQUAL(ev.cost, 2 + 3 + 4);
	CU_ASSERT_EQUAL(ev.peak, 7);
	sl_iopddl_free(p);
	sl_context_free(ctx);
}

static void
test_write_solution(void)
{
	char buf[64] = "";
	FILE *f = fmemopen(buf, sizeof buf, "w");
	int64_t s[] = {0, 3, 1};
	CU_ASSERT_EQUAL(sl_iopddl_write_solution(f, s, 3), 0);
	fclose(f);
	CU_ASSERT_STRING_EQUAL(buf, "[0, 3, 1]\n");
}

static void
test_solve_example(void)
{
	sl_context *ctx = sl_context_new();
	sl_iopddl *p = parse(ctx, example);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	sl_iopddl_opts o;
	sl_iopddl_result r;
	sl_iopddl_opts_init(&o);
	CU_ASSERT_EQUAL(sl_iopddl_solve(ctx, p, &o, &r), 0);
	CU_ASSERT_EQUAL(r.status, SL_SOLVE_OPTIMAL);
	CU_ASSERT_EQUAL(r.eval.cost, 445);
	CU_ASSERT_DOUBLE_EQUAL(r.objective, 445, 1e-9);
	sl_iopddl_result_fini(&r);
	sl_iopddl_free(p);
	sl_context_free(ctx);
}

/* {====================================================================
 * Random problems against enumeration
 * ===================================================================== */

static uint64_t rng = 12345;

static unsigned
rnd(unsigned n)
{
	rng = rng * 6364136223846793005ull + 1442695040888963407ull;
	return (unsigned)((rng >> 33) % n);
}

/* A cost: small, now and then 0 or forbidden. */
static void
put_cost(char **q, const char *sep, unsigned forbid_in)
{
	unsigned r = rnd(forbid_in);
	*q += sprintf(*q, "%s%s", sep, r == 0 ? "1e18" : r < 3 ? "0" : "");
	if (r >= 3)
		*q += sprintf(*q, "%u", rnd(50));
}

/*
 * The "nodes" object's opening of a random problem of n nodes, into q:
 * intervals, costs (forbidden one time in forbid_in, put_cost) and
 * usages, each node of 1 to kinds strategies (their counts into ns).
 * The end of what it wrote.
 */
static char *
put_nodes(char *q, unsigned n, unsigned *ns, unsigned kinds, unsigned forbid_in)
{
	q += sprintf(q, "{\"nodes\": {\"intervals\": [");
	for (unsigned i = 0; i < n; i++) {
		unsigned lo = rnd(10);
		q += sprintf(q, "%s[%u, %u]", i ? ", " : "", lo, lo + rnd(6));
		ns[i] = 1 + rnd(kinds);
	}
	q += sprintf(q, "], \"costs\": [");
	for (unsigned i = 0; i < n; i++) {
		q += sprintf(q, "%s[", i ? ", " : "");
		for (unsigned s = 0; s < ns[i]; s++)
			put_cost(&q, s ? ", " : "", forbid_in);
		q += sprintf(q, "]");
	}
	q += sprintf(q, "], \"usages\": [");
	for (unsigned i = 0; i < n; i++) {
		q += sprintf(q, "%s[", i ? ", " : "");
		for (unsigned s = 0; s < ns[i]; s++)
			q += sprintf(q, "%s%u", s ? ", " : "", rnd(8));
		q += sprintf(q, "]");
	}
	return q;
}

/* A random problem of n nodes as JSON. */
static void
random_problem(char *q, unsigned n, unsigned *ns)
{
	q = put_nodes(q, n, ns, 3, 12);
	unsigned ne = rnd(2 * n);
	q += sprintf(q, "]}, \"edges\": {\"nodes\": [");
	unsigned eu[16], ev[16];
	for (unsigned e = 0; e < ne; e++) {
		eu[e] = rnd(n);
		ev[e] = rnd(n);
		q += sprintf(q, "%s[%u, %u]", e ? ", " : "", eu[e], ev[e]);
	}
	q += sprintf(q, "], \"costs\": [");
	for (unsigned e = 0; e < ne; e++) {
		q += sprintf(q, "%s[", e ? ", " : "");
		for (unsigned k = 0; k < ns[eu[e]] * ns[ev[e]]; k++)
			put_cost(&q, k ? ", " : "", 10);
		q += sprintf(q, "]");
	}
	q += sprintf(q, "]}");
	if (rnd(3))
		q += sprintf(q, ", \"usage_limit\": %u", 4 + rnd(12));
	sprintf(q, "}");
}

/* The least cost over every solution (-1: none feasible). */
static int64_t
enumerate(const sl_iopddl *p)
{
	int64_t sol[8] = {0}, best = -1;
	for (;;) {
		sl_iopddl_eval ev;
		if (!sl_iopddl_evaluate(p, sol, p->nnodes, &ev) &&
		    (best < 0 || ev.cost < best))
			best = ev.cost;
		size_t i = 0;
		while (i < p->nnodes && ++sol[i] == p->nstrat[i])
			sol[i++] = 0;
		if (i == p->nnodes)
			return best;
	}
}

static void
test_brute_force(void)
{
	char text[8192];
	unsigned ns[8];
	int feasible = 0;
	for (int round = 0; round < 300; round++) {
		unsigned n = 1 + rnd(7);
		random_problem(text, n, ns);
		sl_context *ctx = sl_context_new();
		sl_iopddl *p = parse(ctx, text);
		CU_ASSERT_PTR_NOT_NULL_FATAL(p);
		int64_t want = enumerate(p);
		sl_iopddl_opts o;
		sl_iopddl_result r;
		sl_iopddl_opts_init(&o);
		int rc = sl_iopddl_solve(ctx, p, &o, &r);
		if (want >= 0) {
			feasible++;
			CU_ASSERT_EQUAL(rc, 0);
			CU_ASSERT_EQUAL(r.status, SL_SOLVE_OPTIMAL);
			CU_ASSERT_EQUAL(r.eval.cost, want);
			CU_ASSERT(r.eval.feasible);
			if (r.eval.cost != want)
				fprintf(stderr, "\nround %d: %lld, want %lld: %s\n", round,
				        (long long)r.eval.cost, (long long)want, text);
		} else {
			CU_ASSERT_EQUAL(rc, 1);
			CU_ASSERT_EQUAL(r.status, SL_SOLVE_INFEASIBLE);
		}
		sl_iopddl_result_fini(&r);
		/* the local search alone: any answer is feasible */
		o.local_search_only = true;
		rc = sl_iopddl_solve(ctx, p, &o, &r);
		CU_ASSERT(rc == 1 || (r.eval.feasible && r.eval.cost >= want));
		sl_iopddl_result_fini(&r);
		/* with a time limit: the Lagrangian search too (a few rounds),
		 * then, as on a model too large for the ILP, the ILP on the
		 * strategies it met */
		for (int large = 0; round < 40 && large < 2; large++) {
			o.time_limit = 0.01;
			o.local_search_only = !large;
			o.max_cols = large;
			rc = sl_iopddl_solve(ctx, p, &o, &r);
			CU_ASSERT(rc == 1 || (r.eval.feasible && r.eval.cost >= want));
			CU_ASSERT(want < 0 || rc == 0);
			sl_iopddl_result_fini(&r);
		}
		o.time_limit = 0;
		o.max_cols = 0;
		sl_iopddl_free(p);
		sl_context_free(ctx);
	}
	CU_ASSERT(feasible > 100);
}

/*
 * Sub-model x: whether its rows and pairs hold, and its cost (node
 * costs and alive edges) in *cost.
 */
static bool
sub_feasible(const sli_iopddl_model *s, const int64_t *x, int64_t *cost)
{
	const sl_iopddl *p = s->p;
	int64_t c = 0;
	for (size_t i = 0; i < p->nnodes; i++)
		c += s->cost[p->sfirst[i] + (size_t)x[i]];
	for (size_t e = 0; e < p->nedges; e++) {
		if (!s->ealive[e])
			continue;
		int64_t pc = sli_iopddl_pair(s, e, (size_t)x[p->eu[e]], (size_t)x[p->ev[e]]);
		if (pc >= SLI_FORBIDDEN)
			return false;
		c += pc;
	}
	for (size_t r = 0; r < s->rows.n; r++) {
		int64_t sum = 0;
		for (size_t k = 0; k < s->rows.v[r].n; k++) {
			size_t i = s->rnode.v[s->rows.v[r].first + k];
			sum += sli_iopddl_coef(s, i, (size_t)x[i]);
		}
		if (sum > s->rows.v[r].rhs)
			return false;
	}
	*cost = c;
	return true;
}

/*
 * Every choice of the free nodes' alive strategies (the others at sol):
 * the sub-model and the evaluator agree on feasibility and cost.
 */
static void
check_sub(const sli_iopddl_lns *L, const int64_t *sol)
{
	const sli_iopddl_model *s = &L->sub;
	const sl_iopddl *p = s->p;
	int64_t x[8];
	memcpy(x, sol, p->nnodes * sizeof *x);
	for (size_t i = 0; i < p->nnodes; i++)
		CU_ASSERT(s->alive[p->sfirst[i] + (size_t)sol[i]]);
	/* each free node listed once (a row would list it twice) */
	for (size_t r = 0; r < L->nregion; r++) {
		CU_ASSERT(L->isfree[L->region[r]]);
		for (size_t q = 0; q < r; q++)
			CU_ASSERT(L->region[q] != L->region[r]);
	}
	for (;;) {
		bool alive = true;
		for (size_t i = 0; i < p->nnodes; i++)
			alive = alive && s->alive[p->sfirst[i] + (size_t)x[i]];
		sl_iopddl_eval ev;
		int64_t c = -1;
		if (alive) {
			bool f = sub_feasible(s, x, &c);
			CU_ASSERT_EQUAL(f, !sl_iopddl_evaluate(p, x, p->nnodes, &ev));
			CU_ASSERT(!f || c == ev.cost);
		}
		size_t r = 0;
		while (r < L->nregion && ++x[L->region[r]] == p->nstrat[L->region[r]])
			x[L->region[r++]] = 0;
		if (r == L->nregion)
			return;
	}
}

/*
 * Calls check on 200 random problems that have a model and a greedy
 * answer (sol, of cost c0, in the model's strategy numbering); returns
 * the sum of what check returns, the number of checks it made.
 */
typedef int random_check(const sl_iopddl *p, sli_iopddl_model *m, int64_t *sol,
                         int64_t c0, int round);

static int
on_random_models(random_check *check)
{
	char text[8192];
	unsigned ns[8];
	int checked = 0;
	for (int round = 0; round < 200; round++) {
		random_problem(text, 1 + rnd(7), ns);
		sl_context *ctx = sl_context_new();
		sl_iopddl *p = parse(ctx, text);
		CU_ASSERT_PTR_NOT_NULL_FATAL(p);
		sli_iopddl_model m;
		sli_iopddl_model_init(&m, p, INFINITY);
		int64_t sol[8], c0 = -1;
		if (!m.infeasible)
			c0 = sli_iopddl_heuristic(&m, sol, INFINITY, false, false);
		if (c0 >= 0)
			checked += check(p, &m, sol, c0, round);
		sli_iopddl_model_fini(&m);
		sl_iopddl_free(p);
		sl_context_free(ctx);
	}
	return checked;
}

/* Each mode's region around the greedy answer: its sub-model is exact. */
static int
lns_sub_models(const sl_iopddl *p, sli_iopddl_model *m, int64_t *sol, int64_t c0,
               int round)
{
	(void)p;
	(void)c0;
	sli_iopddl_lns L;
	sli_iopddl_lns_init(&L, m, (uint64_t)round + 1);
	for (unsigned mode = 0; mode < SLI_LNS_MODES; mode++) {
		sli_iopddl_lns_pick(&L, sol, 1 + rnd(6), SIZE_MAX, mode);
		sli_iopddl_lns_fix(&L, sol);
		check_sub(&L, sol);
	}
	sli_iopddl_lns_fini(&L);
	return SLI_LNS_MODES;
}

static void
test_lns_sub_models(void)
{
	CU_ASSERT(on_random_models(lns_sub_models) > 150);
}

/*
 * The iterated local search from a local optimum, for a few
 * milliseconds (threshold accepting: its walk may cross worse answers):
 * what it returns is feasible, costs what the evaluator says, no more
 * than its start and no less than the optimum by enumeration.
 */
static int
local_search_best(const sl_iopddl *p, sli_iopddl_model *m, int64_t *sol, int64_t c0,
                  int round)
{
	(void)round;
	int64_t c1 = sli_iopddl_heuristic(m, sol, sli_lp_clock() + 0.005, true, true);
	sl_iopddl_eval ev;
	CU_ASSERT(c1 >= 0 && c1 <= c0);
	CU_ASSERT_EQUAL(sl_iopddl_evaluate(p, sol, p->nnodes, &ev), 0);
	CU_ASSERT_EQUAL(ev.cost, c1);
	CU_ASSERT(c1 >= enumerate(p));
	return 1;
}

static void
test_local_search_best(void)
{
	CU_ASSERT(on_random_models(local_search_best) > 100);
}

/*
 * A search that returns the best it met, not where its walk ended: ten
 * cliques of six nodes, a clique's edges dear (100) between unlike
 * strategies, its first node's strategy 1 a unit dearer than its 0.  A
 * clique all at 1 costs 1 more than at 0 (within the walk's allowance
 * until its last moments) and no move of one node or of an edge's two
 * ends leaves it, so the walk from the optimum (all 0) crosses such
 * answers, and ends at one of them in some clique nearly always.
 */
static void
test_local_search_returns_best(void)
{
	enum { CLIQUES = 10, K = 6, N = CLIQUES * K };
	static char text[16384];
	char *q = text;
	q += sprintf(q, "{\"nodes\": {\"intervals\": [");
	for (int i = 0; i < N; i++)
		q += sprintf(q, "%s[0, 1]", i ? ", " : "");
	q += sprintf(q, "], \"costs\": [");
	for (int i = 0; i < N; i++)
		q += sprintf(q, "%s[1000, %d]", i ? ", " : "", i % K ? 1000 : 1001);
	q += sprintf(q, "], \"usages\": [");
	for (int i = 0; i < N; i++)
		q += sprintf(q, "%s[1, 1]", i ? ", " : "");
	q += sprintf(q, "]}, \"edges\": {\"nodes\": [");
	int ne = 0;
	for (int c = 0; c < CLIQUES; c++)
		for (int a = 0; a < K; a++)
			for (int b = a + 1; b < K; b++)
				q += sprintf(q, "%s[%d, %d]", ne++ ? ", " : "", c * K + a, c * K + b);
	q += sprintf(q, "], \"costs\": [");
	for (int e = 0; e < ne; e++)
		q += sprintf(q, "%s[0, 100, 100, 0]", e ? ", " : "");
	sprintf(q, "]}}");
	sl_context *ctx = sl_context_new();
	sl_iopddl *p = parse(ctx, text);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	sli_iopddl_model m;
	sli_iopddl_model_init(&m, p, INFINITY);
	CU_ASSERT_FATAL(!m.infeasible && m.nodes == N);
	int64_t sol[N] = {0};
	int64_t c = sli_iopddl_heuristic(&m, sol, sli_lp_clock() + 0.05, true, true);
	CU_ASSERT_EQUAL(c, N * 1000);
	sl_iopddl_eval ev;
	CU_ASSERT_EQUAL(sl_iopddl_evaluate(p, sol, p->nnodes, &ev), 0);
	CU_ASSERT_EQUAL(ev.cost, N * 1000);
	sli_iopddl_model_fini(&m);
	sl_iopddl_free(p);
	sl_context_free(ctx);
}

/*
 * A region around a costly edge: of a chain of four nodes, only edge
 * (2, 3) costs anything at the answer; every region of two nodes picked
 * around a costly edge is its two ends.
 */
static void
test_lns_costly_region(void)
{
	static const char chain[] =
		"{\"nodes\": {\"intervals\": [[0, 2], [1, 3], [2, 4], [3, 5]],\n"
		" \"costs\": [[0, 1], [0, 1], [0, 1], [0, 1]],\n"
		" \"usages\": [[1, 1], [1, 1], [1, 1], [1, 1]]},\n"
		" \"edges\": {\"nodes\": [[0, 1], [1, 2], [2, 3]],\n"
		" \"costs\": [[0, 5, 5, 0], [0, 5, 5, 0], [7, 0, 0, 7]]}}";
	sl_context *ctx = sl_context_new();
	sl_iopddl *p = parse(ctx, chain);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	sli_iopddl_model m;
	sli_iopddl_model_init(&m, p, INFINITY);
	CU_ASSERT_FATAL(!m.infeasible && m.nodes == 4);
	int64_t sol[4] = {0, 0, 0, 0};
	sli_iopddl_lns L;
	for (uint64_t seed = 1; seed <= 20; seed++) {
		sli_iopddl_lns_init(&L, &m, seed);
		CU_ASSERT_EQUAL(sli_iopddl_lns_pick(&L, sol, 2, SIZE_MAX, SLI_LNS_COSTLY), 2);
		CU_ASSERT(L.isfree[2] && L.isfree[3]);
		sli_iopddl_lns_fini(&L);
	}
	sli_iopddl_model_fini(&m);
	sl_iopddl_free(p);
	sl_context_free(ctx);
}


/*
 * A node pinned by its neighbour (edge (1, 2) allows equal strategies
 * only): a region of node 1 alone takes its neighbours in rather than
 * losing node 1's choice, and the sub-model still agrees with the
 * evaluator.
 */
static void
test_lns_unpins(void)
{
	static const char chain[] =
		"{\"nodes\": {\"intervals\": [[0, 2], [1, 3], [2, 4]],\n"
		" \"costs\": [[0, 1], [0, 1], [0, 1]],\n"
		" \"usages\": [[1, 1], [1, 1], [1, 1]]},\n"
		" \"edges\": {\"nodes\": [[0, 1], [1, 2]],\n"
		" \"costs\": [[0, 5, 5, 0], [0, 1e18, 1e18, 0]]}}";
	sl_context *ctx = sl_context_new();
	sl_iopddl *p = parse(ctx, chain);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	sli_iopddl_model m;
	sli_iopddl_model_init(&m, p, INFINITY);
	CU_ASSERT_FATAL(!m.infeasible && m.nodes == 3);
	int64_t sol[3] = {0, 0, 0};
	sli_iopddl_lns L;
	sli_iopddl_lns_init(&L, &m, 1);
	/* the region {1}, as a pick would leave it */
	sli_iopddl_lns_pick(&L, sol, 0, SIZE_MAX, SLI_LNS_AROUND);
	L.isfree[1] = 1;
	L.region[L.nregion++] = 1;
	L.dom[1] = 2;
	sli_iopddl_lns_fix(&L, sol);
	CU_ASSERT_EQUAL(L.nregion, 3);
	CU_ASSERT(L.isfree[0] && L.isfree[1] && L.isfree[2]);
	CU_ASSERT_EQUAL(L.sub.nalive[1], 2);
	check_sub(&L, sol);
	sli_iopddl_lns_fini(&L);
	sli_iopddl_model_fini(&m);
	sl_iopddl_free(p);
	sl_context_free(ctx);
}

/* }==================================================================== */

/* {====================================================================
 * Folds against enumeration
 * ===================================================================== */

/* A random cycle of n nodes (and now and then a chord) as JSON: most
 * nodes have two edges; a usage limit one time in three. */
static void
cycle_problem(char *q, unsigned n, unsigned *ns)
{
	q = put_nodes(q, n, ns, 4, 20);
	unsigned eu[8], ev[8], ne = n > 1 ? n : 0;
	for (unsigned e = 0; e < ne; e++)
		eu[e] = e, ev[e] = (e + 1) % n;
	if (n > 3 && rnd(2))
		eu[ne] = 0, ev[ne++] = 2;
	q += sprintf(q, "]}, \"edges\": {\"nodes\": [");
	for (unsigned e = 0; e < ne; e++)
		q += sprintf(q, "%s[%u, %u]", e ? ", " : "", eu[e], ev[e]);
	q += sprintf(q, "], \"costs\": [");
	for (unsigned e = 0; e < ne; e++) {
		q += sprintf(q, "%s[", e ? ", " : "");
		for (unsigned k = 0; k < ns[eu[e]] * ns[ev[e]]; k++)
			put_cost(&q, k ? ", " : "", 14);
		q += sprintf(q, "]");
	}
	q += sprintf(q, "]}");
	if (!rnd(3))
		q += sprintf(q, ", \"usage_limit\": %u", 6 + rnd(12));
	sprintf(q, "}");
}

/*
 * The least cost over the solutions the fold unfolds to, from every
 * choice of alive strategies of the nodes it left (-1: none feasible).
 */
static int64_t
enumerate_folded(const sli_iopddl_model *m, const sli_iopddl_fold *f)
{
	const sl_iopddl *p = m->p;
	int64_t sol[8] = {0}, full[8], best = -1;
	for (;;) {
		bool ok = true;
		for (size_t i = 0; i < p->nnodes; i++)
			ok = ok && (f->folded[i] || m->alive[p->sfirst[i] + (size_t)sol[i]]);
		memcpy(full, sol, sizeof full);
		sli_iopddl_fold_unfold(f, m, full);
		sl_iopddl_eval ev;
		if (ok && !sl_iopddl_evaluate(p, full, p->nnodes, &ev) &&
		    (best < 0 || ev.cost < best))
			best = ev.cost;
		size_t i = 0;
		while (i < p->nnodes && (f->folded[i] || ++sol[i] == p->nstrat[i]))
			sol[i++] = 0;
		if (i == p->nnodes)
			return best;
	}
}

static void
test_series_fold(void)
{
	char text[8192];
	unsigned ns[8];
	size_t series = 0, solved = 0;
	for (int round = 0; round < 300; round++) {
		cycle_problem(text, 1 + rnd(7), ns);
		sl_context *ctx = sl_context_new();
		sl_iopddl *p = parse(ctx, text);
		CU_ASSERT_PTR_NOT_NULL_FATAL(p);
		int64_t want = enumerate(p);
		sli_iopddl_model m;
		sli_iopddl_model_init(&m, p, INFINITY);
		if (!m.infeasible) {
			sli_iopddl_fold f;
			sli_iopddl_fold_init(&f, &m, true);
			series += f.series;
			int64_t got = enumerate_folded(&m, &f);
			CU_ASSERT_EQUAL(got, want);
			if (got != want)
				fprintf(stderr, "\nround %d: folded %lld, want %lld: %s\n",
				        round, (long long)got, (long long)want, text);
			sli_iopddl_fold_fini(&f);
		}
		sli_iopddl_model_fini(&m);
		/* the ILP of the folded model, by way of the smaller LP */
		sl_iopddl_opts o;
		sl_iopddl_result r;
		sl_iopddl_opts_init(&o);
		int rc = sl_iopddl_solve(ctx, p, &o, &r);
		if (want >= 0) {
			solved++;
			CU_ASSERT_EQUAL(rc, 0);
			CU_ASSERT_EQUAL(r.status, SL_SOLVE_OPTIMAL);
			CU_ASSERT_EQUAL(r.eval.cost, want);
		} else {
			CU_ASSERT_EQUAL(rc, 1);
		}
		sl_iopddl_result_fini(&r);
		sl_iopddl_free(p);
		sl_context_free(ctx);
	}
	CU_ASSERT(series > 100);
	CU_ASSERT(solved > 100);
}

/* }==================================================================== */

CU_TestInfo tests_iopddl[] = {
	{"reads the example", test_read_example},
	{"located errors in malformed files", test_read_errors},
	{"gzip, and truncated gzip", test_read_gzip},
	{"the evaluator on hand-computed solutions", test_eval_by_hand},
	{"writes a solution", test_write_solution},
	{"solves the example to its optimum", test_solve_example},
	{"ILP optimum equals brute force", test_brute_force},
	{"large-neighbourhood sub-models agree with the evaluator", test_lns_sub_models},
	{"the iterated local search returns the best it met", test_local_search_best},
	{"the iterated local search returns the best, not its last", test_local_search_returns_best},
	{"a region around the answer's costly edge", test_lns_costly_region},
	{"a region takes in the neighbour that pins it", test_lns_unpins},
	{"folds of leaves and of nodes of two edges keep the optimum", test_series_fold},
	CU_TEST_INFO_NULL,
};
