/*
 * cmd_gen.c - `shardlp gen`: writes benchmark programs as MLIR text, or
 * as the sharding problem in XML (--format xml: the MLIR read back by the
 * library and written by sl_module_write_xml).
 *
 * Entry: cmd_gen(argc, argv), argv[0] = "gen", declared in cli.h.
 * `gen transformer` prints one module: an sdy.mesh and a func.func @main
 * whose arguments are the input activations and the weights of every
 * layer, some pinned with sdy.sharding, then 36 StableHLO ops per layer in
 * their custom syntax (RMS norm, attention with softmax, a ReLU MLP) with
 * consistent types, so the module verifies.  `gen mlp` and `gen attention`
 * keep the MLP or the attention half of each layer; `gen dag` is a random
 * DAG of --layers ops (elementwise, matmuls with weights, tanh) on
 * BxH activations, drawn from the seed.
 */
#include "cli.h"
#include "cli_out.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Largest accepted --layers and dimension: keeps every count in range. */
#define MAX_LAYERS 10000000L
#define MAX_DIM (1L << 24)

enum { M_TRANSFORMER, M_MLP, M_ATTENTION, M_DAG };
/* which weights are pinned (--pins), and the flag that says so */
enum { P_SEEDED, P_ALL, P_NONE };
static const char *const pins_flag[] = {"", " --pins all", " --pins none"};

typedef struct gen_opts {
	long layers, hidden, seq, batch, heads, seed;
	int mesh3;		/* 0: mesh 4x2 ("x", "y"), 1: 2x2x2 ("x", "y", "z") */
	int model;		/* M_* */
	int pins;		/* P_* */
	unsigned wmask;		/* the weights of a layer: 1 << W_* */
} gen_opts;

/* The emitter: output stream, next SSA number, pseudo-random state. */
typedef struct gen {
	FILE *out;
	long next;		/* next %N to define */
	uint64_t rng;
	const gen_opts *o;
	char sbsh[64];		/* tensor<BxSxHxf32> */
	char sbs[48];		/* tensor<BxSxf32> */
	char sbf[64];		/* tensor<BxSx(4H)xf32> */
	char sbnd[80];		/* tensor<BxSxNxDxf32> */
	char bnsd[80];		/* tensor<BxNxSxDxf32> */
	char bnds[80];		/* tensor<BxNxDxSxf32> */
	char bnss[80];		/* tensor<BxNxSxSxf32> */
	char bns[64];		/* tensor<BxNxSxf32> */
} gen;

static const char usage_short[] =
	"usage: shardlp gen transformer|mlp|attention|dag [--layers N] [--hidden H]\n"
	"                   [--seq S] [--batch B] [--heads N] [--mesh 4x2|2x2x2]\n"
	"                   [--seed N] [--pins seeded|all|none] [--format mlir|xml]\n"
	"                   [-o FILE]\n";

static void
usage_long(void)
{
	fputs(usage_short, stdout);
	fputs("\n"
	      "Prints a transformer-like StableHLO program with sdy shardings:\n"
	      "one func.func @main, the weights of every layer as arguments, some\n"
	      "of them pinned with sdy.sharding, 36 ops per layer.  mlp keeps the\n"
	      "MLP of each layer (6 ops), attention its norm and attention (29 ops);\n"
	      "dag is a random DAG of N ops (add, multiply, maximum, tanh, matmul\n"
	      "with a weight) on BxH activations, drawn from the seed.\n"
	      "\n"
	      "  --layers N      number of layers; for dag, of ops (default 2)\n"
	      "  --hidden H      hidden size, a multiple of --heads (default 256)\n"
	      "  --seq S         sequence length (default 128)\n"
	      "  --batch B       batch size (default 8)\n"
	      "  --heads N       attention heads (default 4)\n"
	      "  --mesh M        4x2 (axes x, y) or 2x2x2 (axes x, y, z); default 4x2\n"
	      "  --seed N        seed of the pseudo-random pinning and DAG (default 1)\n"
	      "  --pins P        the weights pinned: seeded (default: the MLP's and\n"
	      "                  the query's, the others by the seed), all (every\n"
	      "                  projection, Megatron style) or none (only the input;\n"
	      "                  every layer of a transformer then alike)\n"
	      "  --format F      mlir (default) or xml, the sharding problem of\n"
	      "                  shardlp-xml(5)\n"
	      "  -o, --output F  write to F instead of standard output ('-')\n"
	      "  -h, --help      print this help\n", stdout);
}

#define usage_error(fmt, arg) cli_usage_error("shardlp gen", usage_short, fmt, arg)

/* Parses a decimal integer in [lo, hi]; 0 on success. */
static int
parse_long(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end != '\0' || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

static uint32_t
rnd(gen *g)
{
	g->rng = g->rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(g->rng >> 33);
}

/* ====================================================================== */
/* Emitting ops                                                           */

static long
def(gen *g)
{
	fprintf(g->out, "    %%%ld = ", g->next);
	return g->next++;
}

/*
 * Operands are value numbers: n >= 0 is %n, ARG(i) (negative) is %argi.
 */
#define ARG(i) (-(long)(i) - 1)

static void
operand(gen *g, long a)
{
	if (a < 0)
		fprintf(g->out, "%%arg%ld", -a - 1);
	else
		fprintf(g->out, "%%%ld", a);
}

/* %r = stablehlo.OP %a, %b : T */
static long
binary(gen *g, const char *op, long a, long b, const char *t)
{
	long r = def(g);

	fprintf(g->out, "stablehlo.%s ", op);
	operand(g, a);
	fputs(", ", g->out);
	operand(g, b);
	fprintf(g->out, " : %s\n", t);
	return r;
}

static long
unary(gen *g, const char *op, long a, const char *t)
{
	long r = def(g);

	fprintf(g->out, "stablehlo.%s ", op);
	operand(g, a);
	fprintf(g->out, " : %s\n", t);
	return r;
}

static long
dot(gen *g, long a, long b, const char *dims, const char *ta, const char *tb,
    const char *tr)
{
	long r = def(g);

	fputs("stablehlo.dot_general ", g->out);
	operand(g, a);
	fputs(", ", g->out);
	operand(g, b);
	fprintf(g->out, ", %s : (%s, %s) -> %s\n", dims, ta, tb, tr);
	return r;
}

static long
bcast(gen *g, long a, const char *dims, const char *ta, const char *tr)
{
	long r = def(g);

	fputs("stablehlo.broadcast_in_dim ", g->out);
	operand(g, a);
	fprintf(g->out, ", dims = [%s] : (%s) -> %s\n", dims, ta, tr);
	return r;
}

static long
reduce(gen *g, const char *op, long a, long init, const char *dim,
       const char *ta, const char *tr)
{
	long r = def(g);

	fputs("stablehlo.reduce(", g->out);
	operand(g, a);
	fputs(" init: ", g->out);
	operand(g, init);
	fprintf(g->out, ") applies stablehlo.%s across dimensions = [%s] : "
	        "(%s, tensor<f32>) -> %s\n", op, dim, ta, tr);
	return r;
}

static long
reshape(gen *g, long a, const char *ta, const char *tr)
{
	long r = def(g);

	fputs("stablehlo.reshape ", g->out);
	operand(g, a);
	fprintf(g->out, " : (%s) -> %s\n", ta, tr);
	return r;
}

static long
transpose(gen *g, long a, const char *perm, const char *ta, const char *tr)
{
	long r = def(g);

	fputs("stablehlo.transpose ", g->out);
	operand(g, a);
	fprintf(g->out, ", dims = [%s] : (%s) -> %s\n", perm, ta, tr);
	return r;
}

static long
splat(gen *g, double v, const char *t)
{
	long r = def(g);

	fprintf(g->out, "stablehlo.constant dense<%e> : %s\n", v, t);
	return r;
}

/* ====================================================================== */
/* The transformer                                                        */

enum { W_GAMMA, W_Q, W_K, W_V, W_O, W_UP, W_DOWN, W_COUNT };

/* Argument number of weight w of layer l; %arg0 is the input.  Only the
 * weights of the model's mask are arguments. */
static long
warg(const gen *g, long l, int w)
{
	unsigned m = g->o->wmask;
	return 1 + l * __builtin_popcount(m) + __builtin_popcount(m & ((1u << w) - 1));
}

static const char *
wtype(const gen *g, int w, char *buf, size_t n)
{
	const gen_opts *o = g->o;

	switch (w) {
	case W_GAMMA:
		snprintf(buf, n, "tensor<%ldxf32>", o->hidden);
		break;
	case W_UP:
		snprintf(buf, n, "tensor<%ldx%ldxf32>", o->hidden, 4 * o->hidden);
		break;
	case W_DOWN:
		snprintf(buf, n, "tensor<%ldx%ldxf32>", 4 * o->hidden, o->hidden);
		break;
	default:
		snprintf(buf, n, "tensor<%ldx%ldxf32>", o->hidden, o->hidden);
		break;
	}
	return buf;
}

/*
 * The sharding pinned on weight w of the next layer, or NULL.  With
 * --pins seeded the MLP and the query projection are always pinned
 * (Megatron style, on "y"); the other projections are pinned on one layer
 * in four, chosen by the seed.  --pins all pins each of them, none none.
 */
static const char *
wsharding(gen *g, int w)
{
	const char *model = g->o->mesh3 ? "\"y\", \"z\"" : "\"y\"";
	static char buf[64];
	bool seeded = g->o->pins == P_SEEDED;

	if (g->o->pins == P_NONE)
		return NULL;
	switch (w) {
	case W_Q:
	case W_UP:
		snprintf(buf, sizeof buf, "[{}, {%s}]", model);
		return buf;
	case W_DOWN:
	case W_O:
		if (w == W_O && seeded && rnd(g) % 4 != 0)
			return NULL;
		snprintf(buf, sizeof buf, "[{%s}, {}]", model);
		return buf;
	case W_K:
	case W_V:
		if (seeded && rnd(g) % 4 != 0)
			return NULL;
		snprintf(buf, sizeof buf, "[{}, {%s}]", model);
		return buf;
	default:
		return NULL;
	}
}

static void
signature(gen *g)
{
	const gen_opts *o = g->o;
	char t[64];
	long l;
	int w;

	fprintf(g->out, "  func.func @main(%%arg0: %s {sdy.sharding = "
	        "#sdy.sharding<@mesh, [{\"x\"}, {}, {}]>}", g->sbsh);
	for (l = 0; l < o->layers; l++)
		for (w = 0; w < W_COUNT; w++) {
			if (!(o->wmask >> w & 1))
				continue;
			const char *sh = wsharding(g, w);

			fprintf(g->out, ",\n      %%arg%ld: %s", warg(g, l, w),
			        wtype(g, w, t, sizeof t));
			if (sh)
				fprintf(g->out, " {sdy.sharding = "
				        "#sdy.sharding<@mesh, %s>}", sh);
		}
	fprintf(g->out, ") -> %s {\n", g->sbsh);
}

/* x + attn(norm(x)): 30 ops. */
static long
attention(gen *g, long l, long x, long zero, long ninf)
{
	const gen_opts *o = g->o;
	char th[48], thh[64];
	long sq, ss, c, ms, r, rb, n, gb, h, q, k, v, qt, kt, s, m, e, z, p, vt;
	long a;

	wtype(g, W_GAMMA, th, sizeof th);
	wtype(g, W_Q, thh, sizeof thh);

	/* RMS norm */
	sq = binary(g, "multiply", x, x, g->sbsh);
	ss = reduce(g, "add", sq, zero, "2", g->sbsh, g->sbs);
	c = splat(g, 1.0 / (double)o->hidden, g->sbs);
	ms = binary(g, "multiply", ss, c, g->sbs);
	r = unary(g, "rsqrt", ms, g->sbs);
	rb = bcast(g, r, "0, 1", g->sbs, g->sbsh);
	n = binary(g, "multiply", x, rb, g->sbsh);
	gb = bcast(g, ARG(warg(g, l, W_GAMMA)), "2", th, g->sbsh);
	h = binary(g, "multiply", n, gb, g->sbsh);

	/* attention: projections, heads, softmax(q k^T) v, output projection */
	q = dot(g, h, ARG(warg(g, l, W_Q)), "contracting_dims = [2] x [0]",
	        g->sbsh, thh, g->sbsh);
	k = dot(g, h, ARG(warg(g, l, W_K)), "contracting_dims = [2] x [0]",
	        g->sbsh, thh, g->sbsh);
	v = dot(g, h, ARG(warg(g, l, W_V)), "contracting_dims = [2] x [0]",
	        g->sbsh, thh, g->sbsh);
	qt = transpose(g, reshape(g, q, g->sbsh, g->sbnd), "0, 2, 1, 3",
	               g->sbnd, g->bnsd);
	kt = transpose(g, reshape(g, k, g->sbsh, g->sbnd), "0, 2, 3, 1",
	               g->sbnd, g->bnds);
	s = dot(g, qt, kt, "batching_dims = [0, 1] x [0, 1], "
	        "contracting_dims = [3] x [2]", g->bnsd, g->bnds, g->bnss);
	m = reduce(g, "maximum", s, ninf, "3", g->bnss, g->bns);
	m = bcast(g, m, "0, 1, 2", g->bns, g->bnss);
	e = unary(g, "exponential", binary(g, "subtract", s, m, g->bnss),
	          g->bnss);
	z = reduce(g, "add", e, zero, "3", g->bnss, g->bns);
	z = bcast(g, z, "0, 1, 2", g->bns, g->bnss);
	p = binary(g, "divide", e, z, g->bnss);
	vt = transpose(g, reshape(g, v, g->sbsh, g->sbnd), "0, 2, 1, 3",
	               g->sbnd, g->bnsd);
	a = dot(g, p, vt, "batching_dims = [0, 1] x [0, 1], "
	        "contracting_dims = [3] x [2]", g->bnss, g->bnsd, g->bnsd);
	a = transpose(g, a, "0, 2, 1, 3", g->bnsd, g->sbnd);
	a = reshape(g, a, g->sbnd, g->sbsh);
	a = dot(g, a, ARG(warg(g, l, W_O)), "contracting_dims = [2] x [0]",
	        g->sbsh, thh, g->sbsh);
	return binary(g, "add", x, a, g->sbsh);
}

/* x1 + mlp(x1): 6 ops. */
static long
mlp(gen *g, long l, long x1, long zero)
{
	char thf[64], tfh[64];
	long u, zf, relu, down;

	wtype(g, W_UP, thf, sizeof thf);
	wtype(g, W_DOWN, tfh, sizeof tfh);
	u = dot(g, x1, ARG(warg(g, l, W_UP)), "contracting_dims = [2] x [0]",
	        g->sbsh, thf, g->sbf);
	zf = bcast(g, zero, "", "tensor<f32>", g->sbf);
	relu = binary(g, "maximum", u, zf, g->sbf);
	down = dot(g, relu, ARG(warg(g, l, W_DOWN)),
	           "contracting_dims = [2] x [0]", g->sbf, tfh, g->sbsh);
	return binary(g, "add", x1, down, g->sbsh);
}

static void
transformer(gen *g)
{
	const gen_opts *o = g->o;
	long b = o->batch, s = o->seq, h = o->hidden, nh = o->heads;
	long dh = h / nh;
	long x, zero, ninf, l;

	snprintf(g->sbsh, sizeof g->sbsh, "tensor<%ldx%ldx%ldxf32>", b, s, h);
	snprintf(g->sbs, sizeof g->sbs, "tensor<%ldx%ldxf32>", b, s);
	snprintf(g->sbf, sizeof g->sbf, "tensor<%ldx%ldx%ldxf32>", b, s, 4 * h);
	snprintf(g->sbnd, sizeof g->sbnd, "tensor<%ldx%ldx%ldx%ldxf32>",
	         b, s, nh, dh);
	snprintf(g->bnsd, sizeof g->bnsd, "tensor<%ldx%ldx%ldx%ldxf32>",
	         b, nh, s, dh);
	snprintf(g->bnds, sizeof g->bnds, "tensor<%ldx%ldx%ldx%ldxf32>",
	         b, nh, dh, s);
	snprintf(g->bnss, sizeof g->bnss, "tensor<%ldx%ldx%ldx%ldxf32>",
	         b, nh, s, s);
	snprintf(g->bns, sizeof g->bns, "tensor<%ldx%ldx%ldxf32>", b, nh, s);

	static const char *const names[] = {"transformer", "mlp", "attention"};
	fprintf(g->out, "// shardlp gen %s --layers %ld --hidden %ld "
	        "--seq %ld --batch %ld --heads %ld --mesh %s --seed %ld%s\n",
	        names[o->model], o->layers, h, s, b, nh, o->mesh3 ? "2x2x2" : "4x2",
	        o->seed, pins_flag[o->pins]);
	fputs("module {\n", g->out);
	if (o->mesh3)
		fputs("  sdy.mesh @mesh = <[\"x\"=2, \"y\"=2, \"z\"=2]>\n", g->out);
	else
		fputs("  sdy.mesh @mesh = <[\"x\"=4, \"y\"=2]>\n", g->out);
	signature(g);

	zero = def(g);
	fputs("stablehlo.constant dense<0.000000e+00> : tensor<f32>\n", g->out);
	ninf = 0;
	if (o->model != M_MLP) {
		ninf = def(g);
		fputs("stablehlo.constant dense<0xFF800000> : tensor<f32>\n", g->out);
	}
	x = ARG(0);
	for (l = 0; l < o->layers; l++) {
		if (o->model != M_MLP)
			x = attention(g, l, x, zero, ninf);
		if (o->model != M_ATTENTION)
			x = mlp(g, l, x, zero);
	}
	fprintf(g->out, "    return %%%ld : %s\n  }\n}\n", x, g->sbsh);
}

/* ====================================================================== */
/* The random DAG                                                         */

enum { D_ADD, D_MUL, D_MAX, D_TANH, D_DOT, D_KINDS };

/*
 * N ops on BxH activations: each takes the op before it and, for a
 * binary op, one drawn among all earlier values (the input included), so
 * the DAG is connected and its last op depends on the input; a matmul
 * takes a weight argument of its own, HxH, one in three pinned on the
 * model axis (--pins seeded; all: each, none: none, the DAG the same).
 * The kinds are drawn first, since the weights are arguments.
 */
static void
dag(gen *g)
{
	const gen_opts *o = g->o;
	long n = o->layers, nw = 0;
	unsigned char *kind = malloc((size_t)n);
	long *val = malloc((size_t)(n + 1) * sizeof *val);
	if (!kind || !val)
		cli_fatal("out of memory");
	for (long i = 0; i < n; i++) {
		kind[i] = (unsigned char)(rnd(g) % D_KINDS);
		nw += kind[i] == D_DOT;
	}
	char t[64], tw[64];
	snprintf(t, sizeof t, "tensor<%ldx%ldxf32>", o->batch, o->hidden);
	snprintf(tw, sizeof tw, "tensor<%ldx%ldxf32>", o->hidden, o->hidden);
	fprintf(g->out, "// shardlp gen dag --layers %ld --hidden %ld --batch %ld "
	        "--mesh %s --seed %ld%s\n", n, o->hidden, o->batch,
	        o->mesh3 ? "2x2x2" : "4x2", o->seed, pins_flag[o->pins]);
	fputs("module {\n", g->out);
	fputs(o->mesh3 ? "  sdy.mesh @mesh = <[\"x\"=2, \"y\"=2, \"z\"=2]>\n"
	      : "  sdy.mesh @mesh = <[\"x\"=4, \"y\"=2]>\n", g->out);
	fprintf(g->out, "  func.func @main(%%arg0: %s {sdy.sharding = "
	        "#sdy.sharding<@mesh, [{\"x\"}, {}]>}", t);
	for (long w = 1; w <= nw; w++) {
		fprintf(g->out, ",\n      %%arg%ld: %s", w, tw);
		bool drawn = rnd(g) % 3 == 0;
		if (o->pins == P_ALL || (o->pins == P_SEEDED && drawn))
			fprintf(g->out, " {sdy.sharding = #sdy.sharding<@mesh, [{}, {\"y\"}]>}");
	}
	fprintf(g->out, ") -> %s {\n", t);
	static const char *const ops[] = {"add", "multiply", "maximum", "tanh"};
	long w = 0;
	val[0] = ARG(0);
	for (long i = 0; i < n; i++) {
		long a = val[i], b = val[rnd(g) % (uint32_t)(i + 1)];
		if (kind[i] == D_DOT)
			val[i + 1] = dot(g, a, ARG(++w), "contracting_dims = [1] x [0]", t, tw, t);
		else if (kind[i] == D_TANH)
			val[i + 1] = unary(g, ops[kind[i]], a, t);
		else
			val[i + 1] = binary(g, ops[kind[i]], a, b, t);
	}
	fprintf(g->out, "    return ");
	operand(g, val[n]);
	fprintf(g->out, " : %s\n  }\n}\n", t);
	free(kind);
	free(val);
}

/* The program as the sharding problem in XML: MLIR text read back by the
 * library, written as shardlp-xml(5).  0, or -1 after a message. */
static int
to_xml(const char *mlir, size_t len, FILE *out)
{
	sl_context *ctx = sl_context_new();
	cli_sink sink;
	cli_sink_init(&sink, ctx);
	sl_module *m = sl_module_parse(ctx, "<gen>", mlir, len);
	int rc = m && !sl_module_write_xml(m, out, NULL) ? 0 : -1;
	sl_module_free(m);
	cli_sink_fini(&sink);
	sl_context_free(ctx);
	return rc;
}

/* ====================================================================== */
/* Entry                                                                  */

int
cmd_gen(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"layers", required_argument, NULL, 'l'},
		{"hidden", required_argument, NULL, 'H'},
		{"seq", required_argument, NULL, 's'},
		{"batch", required_argument, NULL, 'b'},
		{"heads", required_argument, NULL, 'n'},
		{"mesh", required_argument, NULL, 'm'},
		{"seed", required_argument, NULL, 'S'},
		{"pins", required_argument, NULL, 'p'},
		{"output", required_argument, NULL, 'o'},
		{"format", required_argument, NULL, 'f'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0}
	};
	static const char *const models[] = {"transformer", "mlp", "attention", "dag"};
	gen_opts o = {2, 256, 128, 8, 4, 1, 0, M_TRANSFORMER, P_SEEDED,
	              (1u << W_COUNT) - 1};
	bool xml = false;
	static char outbuf[1 << 16];
	const char *outpath = NULL;
	gen g;
	int c;

	optind = 0;		/* glibc: restart scanning; argv[0] is "gen" */
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
		long *dst = NULL, hi = MAX_DIM;

		switch (c) {
		case 'l': dst = &o.layers; hi = MAX_LAYERS; break;
		case 'H': dst = &o.hidden; break;
		case 's': dst = &o.seq; break;
		case 'b': dst = &o.batch; break;
		case 'n': dst = &o.heads; break;
		case 'S':
			if (parse_long(optarg, 0, LONG_MAX, &o.seed))
				return usage_error("bad --seed '%s'", optarg);
			continue;
		case 'p':
			if (strcmp(optarg, "seeded") == 0)
				o.pins = P_SEEDED;
			else if (strcmp(optarg, "all") == 0)
				o.pins = P_ALL;
			else if (strcmp(optarg, "none") == 0)
				o.pins = P_NONE;
			else
				return usage_error("unknown --pins '%s' "
				                   "(seeded, all or none)", optarg);
			continue;
		case 'm':
			if (strcmp(optarg, "4x2") == 0)
				o.mesh3 = 0;
			else if (strcmp(optarg, "2x2x2") == 0)
				o.mesh3 = 1;
			else
				return usage_error("unknown mesh '%s' "
				                   "(4x2 or 2x2x2)", optarg);
			continue;
		case 'o':
			outpath = optarg;
			continue;
		case 'f':
			if (strcmp(optarg, "mlir") && strcmp(optarg, "xml"))
				return usage_error("unknown format '%s' (mlir or xml)", optarg);
			xml = !strcmp(optarg, "xml");
			continue;
		case 'h':
			usage_long();
			return EXIT_OK;
		case ':':
			return usage_error("option '%s' needs an argument",
			                   argv[optind - 1]);
		default:
			return usage_error("unknown option '%s'",
			                   argv[optind - 1]);
		}
		if (parse_long(optarg, 1, hi, dst))
			return usage_error("bad number '%s'", optarg);
	}
	if (optind >= argc)
		return usage_error("%s", "missing model (transformer, mlp, attention, dag)");
	for (o.model = 0; o.model < 4 && strcmp(argv[optind], models[o.model]); o.model++)
		;
	if (o.model == 4)
		return usage_error("unknown model '%s'", argv[optind]);
	if (o.model == M_MLP)
		o.wmask = 1u << W_UP | 1u << W_DOWN;
	else if (o.model == M_ATTENTION)
		o.wmask = 1u << W_GAMMA | 1u << W_Q | 1u << W_K | 1u << W_V | 1u << W_O;
	if (optind + 1 < argc)
		return usage_error("unexpected argument '%s'", argv[optind + 1]);
	if (o.hidden % o.heads != 0)
		return usage_error("%s", "--hidden must be a multiple of --heads");

	memset(&g, 0, sizeof g);
	g.o = &o;
	g.rng = (uint64_t)o.seed * 2654435761ULL + 1;
	cli_out out;
	if (!(g.out = cli_out_open(&out, "shardlp", outpath)))
		return EXIT_INPUT;
	if (g.out != stdout)
		setvbuf(g.out, outbuf, _IOFBF, sizeof outbuf);
	FILE *dest = g.out;
	char *text = NULL;
	size_t len = 0;
	if (xml && !(g.out = open_memstream(&text, &len)))
		cli_fatal("out of memory");
	if (o.model == M_DAG)
		dag(&g);
	else
		transformer(&g);
	bool ok = true;
	if (xml) {
		fclose(g.out);
		ok = !to_xml(text, len, dest);
		free(text);
	}
	if (cli_out_close(&out, "shardlp", ok))
		return EXIT_INPUT;
	return EXIT_OK;
}
