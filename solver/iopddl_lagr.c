/*
 * iopddl_lagr.c - the Lagrangian search on a reduced IOPDDL model, for
 * models too large for the ILP.  The usage limit is priced: each time
 * slot k has a price lambda[k] >= 0, and node i's strategy s costs
 * lambda summed over i's slots times its usage above the node's least.
 * The priced problem (no usage limit: a pairwise min-sum problem) is
 * solved approximately by sequential tree-reweighted message passing
 * (TRW-S, Kolmogorov 2006), the messages kept from one price to the
 * next; its answer is repaired to the limit and improved by the local
 * search (iopddl_heur.c), and the prices move by a subgradient step
 * (Polyak's, against the best answer) towards the slots above the limit.
 */
#include "solver/iopddl_model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "solver/lp.h"

/* A forbidden pair or a dead strategy: far above any answer's cost. */
#define BIG 1e15
/* Message passing sweeps at the first price and at each next one */
#define FIRST_SWEEPS 200
#define SWEEPS 4
/* The first step's share of Polyak's; prices without a better Lagrangian
 * value before it halves (its values are those of TRW-S's answers, not
 * of the priced problem's optimum: small steps serve better) */
#define THETA 0.02
#define THETA_MIN (THETA / 256)
#define PATIENCE 8
/* Its work on the model's clock: entries of edge matrices and node costs
 * that the messages and the prices go over, this many a second */
#define MP_RATE 8e8

typedef struct mp {
	const sli_iopddl_model *m;
	double *theta;		/* priced node costs, per strategy entry */
	double *msg;		/* per alive edge: to u (nu), then to v (nv) */
	size_t *moff;		/* per edge */
	double *cost;		/* per alive edge: its matrix (BIG where
				 * forbidden) at coff[e], row-major */
	size_t *coff;
	double *gamma;		/* per node: 1 / its larger half of neighbours */
	double *hat, *h;	/* scratch, per strategy of one node */
	/* prices */
	size_t nslots;
	uint32_t *t0, *t1;
	double *lambda, *prefix;
	int64_t *load;
	double sweep_work;	/* entries a sweep goes over */
	double price_work;	/* ... and a new price, the decoding */
} mp;

static size_t
other_end(const sl_iopddl *p, size_t e, size_t i)
{
	return p->eu[e] == i ? p->ev[e] : p->eu[e];
}

/* The message along edge e into node i (its end). */
static double *
msg_in(const mp *M, size_t e, size_t i)
{
	const sl_iopddl *p = M->m->p;
	return M->msg + M->moff[e] + (p->eu[e] == i ? 0 : p->nstrat[p->eu[e]]);
}

/* The cost of edge e with node i at s and the other end at t. */
static double
pair_at(const mp *M, size_t e, size_t i, size_t s, size_t t)
{
	const sl_iopddl *p = M->m->p;
	const double *c = M->cost + M->coff[e];
	return p->eu[e] == i ? c[s * p->nstrat[p->ev[e]] + t]
	                     : c[t * p->nstrat[p->ev[e]] + s];
}

static inline double
min2(double a, double b)
{
	return b < a ? b : a;
}

/* Edge e's message from its end i into out (the other end's costs). */
static void
send(const mp *M, size_t e, size_t i, const double *h, double *out)
{
	const sl_iopddl *p = M->m->p;
	size_t nu = p->nstrat[p->eu[e]], nv = p->nstrat[p->ev[e]];
	const double *c = M->cost + M->coff[e];
	if (p->eu[e] == i) {
		/* out[b] = min_a h[a] + c[a][b], row by row */
		for (size_t b = 0; b < nv; b++)
			out[b] = h[0] + c[b];
		for (size_t a = 1; a < nu; a++)
			for (size_t b = 0; b < nv; b++)
				out[b] = min2(out[b], h[a] + c[a * nv + b]);
	} else {
		for (size_t a = 0; a < nu; a++) {
			double best = h[0] + c[a * nv];
			for (size_t b = 1; b < nv; b++)
				best = min2(best, h[b] + c[a * nv + b]);
			out[a] = best;
		}
	}
	size_t n = p->eu[e] == i ? nv : nu;
	double lo = out[0];
	for (size_t t = 1; t < n; t++)
		lo = min2(lo, out[t]);
	for (size_t t = 0; t < n; t++)
		out[t] -= lo;
}

static void
mp_init(mp *M, const sli_iopddl_model *m)
{
	const sl_iopddl *p = m->p;
	memset(M, 0, sizeof *M);
	M->m = m;
	size_t ns = p->sfirst[p->nnodes], maxk = 1, total = 0;
	M->theta = sli_xcalloc(ns + 1, sizeof *M->theta);
	M->moff = sli_xcalloc(p->nedges + 1, sizeof *M->moff);
	for (size_t e = 0; e < p->nedges; e++) {
		M->moff[e] = total;
		if (m->ealive[e])
			total += p->nstrat[p->eu[e]] + p->nstrat[p->ev[e]];
	}
	M->msg = sli_xcalloc(total + 1, sizeof *M->msg);
	M->coff = sli_xcalloc(p->nedges + 1, sizeof *M->coff);
	total = 0;
	for (size_t e = 0; e < p->nedges; e++) {
		M->coff[e] = total;
		if (m->ealive[e])
			total += p->efirst[e + 1] - p->efirst[e];
	}
	M->cost = sli_xmalloc((total + 1) * sizeof *M->cost);
	M->sweep_work = (double)total;
	for (size_t e = 0; e < p->nedges; e++)
		for (size_t k = 0; m->ealive[e] && k < p->efirst[e + 1] - p->efirst[e]; k++) {
			int64_t c = m->ecost[p->efirst[e] + k];
			M->cost[M->coff[e] + k] = c >= SLI_FORBIDDEN ? BIG : (double)c;
		}
	M->gamma = sli_xcalloc(p->nnodes + 1, sizeof *M->gamma);
	for (size_t i = 0; i < p->nnodes; i++) {
		size_t before = 0, after = 0;
		for (size_t k = m->afirst[i]; k < m->afirst[i + 1]; k++)
			other_end(p, m->aedge[k], i) < i ? before++ : after++;
		M->gamma[i] = 1.0 / (double)(before > after ? before : after ? after : 1);
		M->sweep_work += (double)p->nstrat[i] * (double)(1 + before + after);
		if (p->nstrat[i] > maxk)
			maxk = p->nstrat[i];
	}
	M->hat = sli_xmalloc(maxk * sizeof *M->hat);
	M->h = sli_xmalloc(maxk * sizeof *M->h);
	M->nslots = sli_iopddl_slots(p, &M->t0, &M->t1);
	M->lambda = sli_xcalloc(M->nslots + 1, sizeof *M->lambda);
	M->prefix = sli_xcalloc(M->nslots + 1, sizeof *M->prefix);
	M->load = sli_xcalloc(M->nslots + 1, sizeof *M->load);
	M->price_work = 2 * (double)ns + (double)p->nedges + (double)M->nslots;
}

static void
mp_fini(mp *M)
{
	free(M->theta);
	free(M->msg);
	free(M->moff);
	free(M->cost);
	free(M->coff);
	free(M->gamma);
	free(M->hat);
	free(M->h);
	free(M->t0);
	free(M->t1);
	free(M->lambda);
	free(M->prefix);
	free(M->load);
}

/* theta from the node costs and the prices. */
static void
price(mp *M)
{
	const sli_iopddl_model *m = M->m;
	const sl_iopddl *p = m->p;
	M->prefix[0] = 0;
	for (size_t k = 0; k < M->nslots; k++)
		M->prefix[k + 1] = M->prefix[k] + M->lambda[k];
	for (size_t i = 0; i < p->nnodes; i++) {
		double L = M->prefix[M->t1[i]] - M->prefix[M->t0[i]];
		for (size_t s = 0; s < p->nstrat[i]; s++) {
			size_t k = p->sfirst[i] + s;
			M->theta[k] = !m->alive[k] ? BIG
			            : (double)m->cost[k] + L * (double)sli_iopddl_coef(m, i, s);
		}
	}
}

/* Node i's costs with every message into it, into M->hat. */
static void
gather(mp *M, size_t i)
{
	const sli_iopddl_model *m = M->m;
	size_t n = m->p->nstrat[i];
	memcpy(M->hat, M->theta + m->p->sfirst[i], n * sizeof *M->hat);
	for (size_t k = m->afirst[i]; k < m->afirst[i + 1]; k++) {
		const double *in = msg_in(M, m->aedge[k], i);
		for (size_t s = 0; s < n; s++)
			M->hat[s] += in[s];
	}
}

/*
 * One TRW-S sweep, nodes in order (forward) or in reverse: each node
 * sends, along its edges to the nodes after it in the sweep, its share
 * gamma of its costs less what the edge brought in.
 */
static void
sweep(mp *M, bool forward)
{
	const sli_iopddl_model *m = M->m;
	const sl_iopddl *p = m->p;
	for (size_t n = 0; n < p->nnodes; n++) {
		size_t i = forward ? n : p->nnodes - 1 - n;
		if (m->afirst[i] == m->afirst[i + 1])
			continue;
		gather(M, i);
		size_t ni = p->nstrat[i];
		for (size_t k = m->afirst[i]; k < m->afirst[i + 1]; k++) {
			size_t e = m->aedge[k], j = other_end(p, e, i);
			if (forward ? j < i : j > i)
				continue;
			const double *in = msg_in(M, e, i);
			for (size_t s = 0; s < ni; s++)
				M->h[s] = M->gamma[i] * M->hat[s] - in[s];
			send(M, e, i, M->h, msg_in(M, e, j));
		}
	}
}

/*
 * The labelling of the messages: nodes in order, each at its cheapest
 * strategy with the nodes before it as chosen and the messages from the
 * nodes after it.
 */
static void
decode(mp *M, int64_t *sol)
{
	const sli_iopddl_model *m = M->m;
	const sl_iopddl *p = m->p;
	for (size_t i = 0; i < p->nnodes; i++) {
		size_t ni = p->nstrat[i];
		memcpy(M->hat, M->theta + p->sfirst[i], ni * sizeof *M->hat);
		for (size_t k = m->afirst[i]; k < m->afirst[i + 1]; k++) {
			size_t e = m->aedge[k], j = other_end(p, e, i);
			const double *in = msg_in(M, e, i);
			for (size_t s = 0; s < ni; s++)
				M->hat[s] += j < i ? pair_at(M, e, i, s, (size_t)sol[j]) : in[s];
		}
		/* ties (strategies alike but for their usage) to the least usage */
		size_t bs = 0;
		for (size_t s = 1; s < ni; s++)
			if (M->hat[s] < M->hat[bs] ||
			    (M->hat[s] == M->hat[bs] &&
			     p->usage[p->sfirst[i] + s] < p->usage[p->sfirst[i] + bs]))
				bs = s;
		sol[i] = (int64_t)bs;
	}
}

/*
 * The usage per slot of sol into M->load; returns the Lagrangian value
 * of sol at the prices (its cost plus the priced excess over the limit)
 * and, in *norm2, the squared norm of the subgradient (projected: slots
 * at price 0 below the limit do not count).
 */
static double
lagrangian(mp *M, const int64_t *sol, double *norm2)
{
	const sli_iopddl_model *m = M->m;
	const sl_iopddl *p = m->p;
	memset(M->load, 0, (M->nslots + 1) * sizeof *M->load);
	double v = (double)m->constant;
	for (size_t i = 0; i < p->nnodes; i++) {
		size_t s = (size_t)sol[i];
		int64_t u = p->usage[p->sfirst[i] + s];
		M->load[M->t0[i]] += u;
		M->load[M->t1[i]] -= u;
		v += M->theta[p->sfirst[i] + s] - (M->prefix[M->t1[i]] - M->prefix[M->t0[i]]) *
		     (double)sli_iopddl_coef(m, i, s);
	}
	/* (forbidden pairs at BIG: on L, the first steps from answers that
	 * have some are large, and the next answers keep the limit; not
	 * counting them left L without an answer in 300 s) */
	for (size_t e = 0; e < p->nedges; e++)
		if (m->ealive[e])
			v += pair_at(M, e, p->eu[e], (size_t)sol[p->eu[e]],
			             (size_t)sol[p->ev[e]]);
	int64_t run = 0;
	*norm2 = 0;
	for (size_t k = 0; k < M->nslots; k++) {
		run += M->load[k];
		M->load[k] = run;
		double g = (double)(run - p->usage_limit);
		v += M->lambda[k] * g;
		if (g > 0 || M->lambda[k] > 0)
			*norm2 += g * g;
	}
	return v;
}

/* Marks sol's strategies in cand with bit (cand may be NULL). */
static void
mark(const sli_iopddl_model *m, const int64_t *sol, unsigned char *cand,
     unsigned char bit)
{
	for (size_t i = 0; cand && i < m->p->nnodes; i++)
		cand[m->p->sfirst[i] + (size_t)sol[i]] |= bit;
}

/* The subgradient step of size t. */
static void
step(mp *M, double t)
{
	const sl_iopddl *p = M->m->p;
	for (size_t k = 0; k < M->nslots; k++) {
		double l = M->lambda[k] + t * (double)(M->load[k] - p->usage_limit);
		M->lambda[k] = l > 0 ? l : 0;
	}
}

int64_t
sli_iopddl_lagrangian(const sli_iopddl_model *m, int64_t *sol, int64_t ub,
                      double end, unsigned char *cand)
{
	const sl_iopddl *p = m->p;
	mp M;
	mp_init(&M, m);
	int64_t *x = sli_xmalloc((p->nnodes + 1) * sizeof *x);
	double theta = THETA, best_lv = -INFINITY;
	unsigned stale = 0;
	price(&M);
	for (bool first = true; sli_iopddl_now(m) < end; first = false) {
		for (int k = 0; k < (first ? FIRST_SWEEPS : SWEEPS) &&
		                sli_iopddl_now(m) < end; k++) {
			sweep(&M, true);
			sweep(&M, false);
			sli_iopddl_spend(m, 2 * M.sweep_work, MP_RATE);
		}
		decode(&M, x);
		sli_iopddl_spend(m, 2 * M.price_work, MP_RATE);
		double norm2, lv = lagrangian(&M, x, &norm2);
		mark(m, x, cand, 1);
		int64_t c = sli_iopddl_repair(m, x, end);
		if (c >= 0)
			mark(m, x, cand, 2);
		if (c >= 0 && (ub < 0 || c < ub)) {
			ub = c;
			memcpy(sol, x, p->nnodes * sizeof *x);
		}
		if (lv > best_lv + 1e-9 * fabs(lv)) {
			best_lv = lv;
			stale = 0;
		} else if (++stale >= PATIENCE) {
			/* halved, and back to the start once small: the answers
			 * stop changing well before the prices settle */
			theta = theta > THETA_MIN ? theta / 2 : THETA;
			stale = 0;
		}
		if (!p->has_limit || norm2 <= 0)
			continue;	/* keeps the limit: the messages go on */
		double target = ub >= 0 ? (double)ub : 2 * fabs(lv) + 1;
		double gapv = fmax(target - lv, 0.01 * fabs(target));
		step(&M, theta * gapv / norm2);
		price(&M);
	}
	free(x);
	mp_fini(&M);
	return ub;
}
