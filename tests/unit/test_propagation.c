/*
 * test_propagation.c - unit tests of sharding projection, basic and
 * aggressive factor propagation (src/propagation/) on hand-made
 * projections, the worked examples of spec/propagation.md, and the
 * quirks of its Appendix C run through the passes on small modules.
 */
#include "tests.h"

#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "propagation/factor_propagation.h"

static sl_context *ctx;
static sli_arena arena;
static sl_mesh_axis mesh_axes[8];
static sl_mesh mesh;

/* Starts a test on mesh "name=size ..." (e.g. "x=4 y=2"). */
static void
setup(const char *spec)
{
	ctx = sl_context_new();
	sli_arena_init(&arena);
	mesh.naxes = 0;
	mesh.axes = mesh_axes;
	mesh.nids = 0;
	mesh.ids = NULL;
	const char *p = spec;
	while (*p) {
		const char *eq = strchr(p, '=');
		char *end;
		long long size = strtoll(eq + 1, &end, 10);
		mesh_axes[mesh.naxes].name = sl_sym_intern(ctx, p, (size_t)(eq - p));
		mesh_axes[mesh.naxes].size = size;
		mesh.naxes++;
		p = end;
		while (*p == ' ')
			p++;
	}
}

static void
teardown(void)
{
	sli_arena_fini(&arena);
	sl_context_free(ctx);
	ctx = NULL;
}

/* Parses axis refs "x", "x:(2)2" separated by commas into out. */
static uint32_t
parse_axes(const char *s, sl_axis_ref *out)
{
	uint32_t n = 0;
	while (*s) {
		const char *e = s;
		while (*e && *e != ',' && *e != ':')
			e++;
		sl_sym name = sl_sym_intern(ctx, s, (size_t)(e - s));
		if (*e == ':') {
			long long pre, size;
			int len;
			sscanf(e, ":(%lld)%lld%n", &pre, &size, &len);
			out[n++] = sli_axis_sub(name, pre, size);
			e += len;
		} else {
			out[n++] = sli_axis_full(name);
		}
		s = *e == ',' ? e + 1 : e;
	}
	return n;
}

/*
 * A sharding from "[x,y:(1)2|?] [] [z]": one bracket per dimension, "|?"
 * marks it open; NULL for "no sharding".
 */
static sl_sharding *
sharding(const char *s)
{
	if (!s)
		return NULL;
	sl_sharding *sh = SL_NEW(&arena, sl_sharding);
	sh->dims = SL_NEWN(&arena, sl_dim_sharding, 8);
	for (const char *p = s; (p = strchr(p, '[')); p++) {
		const char *e = strchr(p, ']');
		char buf[128];
		memcpy(buf, p + 1, (size_t)(e - p - 1));
		buf[e - p - 1] = 0;
		sl_dim_sharding *d = &sh->dims[sh->rank++];
		d->priority = SL_NO_PRIORITY;
		char *q = strstr(buf, "|?");
		if (q) {
			*q = 0;
			d->open = true;
		}
		d->axes.v = SL_NEWN(&arena, sl_axis_ref, 8);
		d->axes.n = parse_axes(buf, d->axes.v);
	}
	return sh;
}

/* A tensor mapping from "ij k": dimensions separated by spaces. */
static sl_tensor_mapping *
mapping(const char *s)
{
	sl_tensor_mapping *tm = SL_NEW(&arena, sl_tensor_mapping);
	tm->dims = SL_NEWN(&arena, sl_dim_mapping, 8);
	const char *p = s;
	while (*p) {
		sl_dim_mapping *dm = &tm->dims[tm->rank++];
		dm->factors = SL_NEWN(&arena, uint32_t, 8);
		while (*p && *p != ' ')
			dm->factors[dm->n++] = (uint32_t)(*p++ - 'i');
		while (*p == ' ')
			p++;
	}
	return tm;
}

/* Axes of factor f of tensor t as text "x:(1)2,y" (+ " overflow=..."). */
static const char *
fs_text(const sli_proj *p, uint32_t t, uint32_t f)
{
	static char buf[256];
	const sli_fsh *fs = &p->t[t].f[f];
	size_t n = 0;
	buf[0] = 0;
	for (int pass = 0; pass < 2; pass++) {
		const sli_axes *a = pass ? &fs->overflow : &fs->axes;
		if (pass && !a->n)
			break;
		if (pass)
			n += (size_t)snprintf(buf + n, sizeof buf - n, " overflow=");
		for (uint32_t i = 0; i < a->n; i++) {
			const sl_axis_ref *r = &a->v[i];
			n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", i ? "," : "",
			                      sl_sym_str(ctx, r->name));
			if (r->sub)
				n += (size_t)snprintf(buf + n, sizeof buf - n, ":(%lld)%lld",
				                      (long long)r->pre, (long long)r->size);
		}
	}
	if (fs->closed)
		n += (size_t)snprintf(buf + n, sizeof buf - n, " closed");
	return buf;
}

/* Dimension d of a back-projected sharding as text. */
static const char *
dim_text(const sl_sharding *s, uint32_t d)
{
	static char buf[256];
	size_t n = 0;
	buf[0] = 0;
	for (uint32_t i = 0; i < s->dims[d].axes.n; i++) {
		const sl_axis_ref *r = &s->dims[d].axes.v[i];
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", i ? "," : "",
		                      sl_sym_str(ctx, r->name));
		if (r->sub)
			n += (size_t)snprintf(buf + n, sizeof buf - n, ":(%lld)%lld",
			                      (long long)r->pre, (long long)r->size);
	}
	if (s->dims[d].open)
		snprintf(buf + n, sizeof buf - n, "%s?", n ? "," : "");
	return buf;
}

static int64_t fsizes[8];

/* A projection of n operands and m results; specs alternate mapping, sharding. */
static void
project(sli_proj *p, const char *sizes, uint32_t nops, uint32_t nres,
        const char *const *maps, const char *const *shardings)
{
	uint32_t nf = 0;
	for (const char *s = sizes; *s;) {
		char *e;
		fsizes[nf++] = strtoll(s, &e, 10);
		s = *e ? e + 1 : e;
	}
	sli_proj_init(p, &arena, &mesh, fsizes, nf, nops, nres);
	for (uint32_t t = 0; t < nops + nres; t++)
		sli_proj_tensor(p, t, mapping(maps[t]), sharding(shardings[t]));
}

static void
all_dirs(uint8_t *dirs, int d)
{
	for (int i = 0; i < 8; i++)
		dirs[i] = (uint8_t)d;
}

/* ====================================================================
 * Projection (spec 2.3, 2.4)
 * ==================================================================== */

static void
test_projection_split(void)
{
	setup("x=4 y=2");
	sli_proj p;
	const char *maps[] = {"ij", "i j"};
	const char *sh1[] = {"[x]", NULL};
	project(&p, "2,4", 1, 1, maps, sh1);
	CU_ASSERT_STRING_EQUAL(fs_text(&p, 0, 0), "x:(1)2 closed");	/* P1 */
	CU_ASSERT_STRING_EQUAL(fs_text(&p, 0, 1), "x:(2)2 closed");
	CU_ASSERT_STRING_EQUAL(fs_text(&p, 1, 0), "");
	const char *sh2[] = {"[x,y]", NULL};
	project(&p, "2,4", 1, 1, maps, sh2);
	CU_ASSERT_STRING_EQUAL(fs_text(&p, 0, 0), "x:(1)2 closed");	/* P2 */
	CU_ASSERT_STRING_EQUAL(fs_text(&p, 0, 1), "x:(2)2,y closed");
	teardown();
}

static void
test_projection_overflow(void)
{
	setup("x=3");
	sli_proj p;
	const char *maps[] = {"ij", "i j"};
	const char *sh[] = {"[x]", NULL};
	project(&p, "2,4", 1, 1, maps, sh);
	CU_ASSERT_STRING_EQUAL(fs_text(&p, 0, 0), " overflow=x closed");	/* P3 */
	CU_ASSERT_STRING_EQUAL(fs_text(&p, 0, 1), " closed");
	/* the operand round-trips through the overflow axes */
	sl_module *m = test_parse(ctx, "module {}");
	sl_sharding *s = sli_proj_back(&m->arena, &p, 0, 1, NULL);
	CU_ASSERT_STRING_EQUAL(dim_text(s, 0), "x");
	sl_module_free(m);
	teardown();
}

static void
test_projection_minor_most_non_divisible(void)
{
	setup("x=6");
	sli_proj p;
	const char *maps[] = {"ij", "i j"};
	const char *sh[] = {"[x]", NULL};
	project(&p, "2,4", 1, 1, maps, sh);
	CU_ASSERT_STRING_EQUAL(fs_text(&p, 0, 0), "x:(1)2 closed");	/* P4 */
	CU_ASSERT_STRING_EQUAL(fs_text(&p, 0, 1), "x:(2)3 closed");
	teardown();
}

/* Quirk A1: only the factor right after an overflow gets an entry. */
static void
test_quirk_a1_after_overflow(void)
{
	setup("x=3");
	sli_proj p;
	const char *maps[] = {"ijk", "i j k"};
	const char *sh[] = {"[x]", NULL};
	project(&p, "2,2,2", 1, 1, maps, sh);
	CU_ASSERT(p.t[0].f[0].present && p.t[0].f[0].overflow.n == 1);
	CU_ASSERT(p.t[0].f[1].present && p.t[0].f[1].closed && !p.t[0].f[1].axes.n);
	CU_ASSERT(!p.t[0].f[2].present);
	teardown();
}

static void
test_back_projection(void)
{
	setup("x=2 y=2");
	sl_module *m = test_parse(ctx, "module {}");
	sli_proj p;
	/* P5: the major factor is not fully sharded, "y" is dropped */
	const char *maps[] = {"i j", "ij"};
	const char *sh[] = {"[x] [y]", NULL};
	project(&p, "4,4", 1, 1, maps, sh);
	sli_axes_set(&arena, &p.t[1].f[0].axes, p.t[0].f[0].axes.v, 1);
	sli_axes_set(&arena, &p.t[1].f[1].axes, p.t[0].f[1].axes.v, 1);
	sl_sharding *s = sli_proj_back(&m->arena, &p, 1, 1, NULL);
	CU_ASSERT_STRING_EQUAL(dim_text(s, 0), "x,?");
	project(&p, "2,4", 1, 1, maps, sh);
	sli_axes_set(&arena, &p.t[1].f[0].axes, p.t[0].f[0].axes.v, 1);
	sli_axes_set(&arena, &p.t[1].f[1].axes, p.t[0].f[1].axes.v, 1);
	s = sli_proj_back(&m->arena, &p, 1, 1, NULL);
	CU_ASSERT_STRING_EQUAL(dim_text(s, 0), "x,y,?");
	sl_module_free(m);
	teardown();
}

static void
test_back_projection_merges_sub_axes(void)
{
	setup("x=16");
	sl_module *m = test_parse(ctx, "module {}");
	sli_proj p;
	/* P6 */
	const char *maps[] = {"i j k", "i jk"};
	const char *sh[] = {"[x:(1)4|?] [x:(4)2|?] [x:(8)2|?]", NULL};
	project(&p, "4,2,4", 1, 1, maps, sh);
	for (uint32_t f = 0; f < 3; f++)
		sli_axes_set(&arena, &p.t[1].f[f].axes, p.t[0].f[f].axes.v, p.t[0].f[f].axes.n);
	sl_sharding *s = sli_proj_back(&m->arena, &p, 1, 1, NULL);
	CU_ASSERT_STRING_EQUAL(dim_text(s, 0), "x:(1)4,?");
	CU_ASSERT_STRING_EQUAL(dim_text(s, 1), "x:(4)4,?");
	sl_module_free(m);
	teardown();
}

/* ====================================================================
 * Basic factor propagation (spec 3)
 * ==================================================================== */

static const char *
compatible(const char *const *lists, uint32_t n, int dir, uint32_t nops)
{
	sli_proj p;
	const char *maps[8];
	const char *sh[8];
	char bufs[8][64];
	for (uint32_t i = 0; i < n; i++) {
		maps[i] = "i";
		snprintf(bufs[i], sizeof bufs[i], "[%s|?]", lists[i]);
		sh[i] = bufs[i];
	}
	project(&p, "64", nops, n - nops, maps, sh);
	sli_axes out = {0};
	sli_compatible_axes(&p, 0, dir, &out);
	sli_axes_set(&arena, &p.t[0].f[0].axes, out.v, out.n);
	p.t[0].f[0].overflow.n = 0;
	p.t[0].f[0].closed = false;
	return fs_text(&p, 0, 0);
}

static void
test_compatible_major_axes(void)
{
	setup("x=4 y=2 z=2 w=2");
	const char *a[] = {"x,y", "x,z"};
	CU_ASSERT_STRING_EQUAL(compatible(a, 2, SL_DIR_BOTH, 1), "x");
	const char *b[] = {"x", "", "x,y,z", "x,y,w"};
	CU_ASSERT_STRING_EQUAL(compatible(b, 4, SL_DIR_BOTH, 2), "x,y");
	const char *c[] = {"x:(1)2", "x"};
	CU_ASSERT_STRING_EQUAL(compatible(c, 2, SL_DIR_BOTH, 1), "x");
	const char *d[] = {"x:(1)2,y", "x"};
	CU_ASSERT_STRING_EQUAL(compatible(d, 2, SL_DIR_BOTH, 1), "x:(1)2");
	const char *e[] = {"x,y,z", "w", "x"};
	CU_ASSERT_STRING_EQUAL(compatible(e, 3, SL_DIR_BOTH, 2), "");
	const char *f[] = {"x", "x,y"};
	CU_ASSERT_STRING_EQUAL(compatible(f, 2, SL_DIR_FORWARD, 1), "x");
	const char *g[] = {"x", "y"};
	CU_ASSERT_STRING_EQUAL(compatible(g, 2, SL_DIR_FORWARD, 1), "");
	teardown();
}

/* B1: a replicated axis and a cross-factor conflict stop everything. */
static void
test_basic_conflicts(void)
{
	setup("x=2 y=2 z=2");
	sli_proj p;
	const char *maps[] = {"i j", "i j", "i j"};
	const char *sh[] = {"[x,y] []", "[|?] [|?]", "[|?] [y|?]"};
	project(&p, "8,8", 2, 1, maps, sh);
	p.t[1].replicated.v = SL_NEWN(&arena, sl_axis_ref, 1);
	p.t[1].replicated.n = parse_axes("x", p.t[1].replicated.v);
	uint8_t dirs[8];
	bool upd[3];
	all_dirs(dirs, SL_DIR_BOTH);
	sli_propagate_basic(&p, dirs, false, upd);
	CU_ASSERT(!upd[0] && !upd[1] && !upd[2]);
	teardown();
}

/* B2: one closed tensor caps the factor for everybody. */
static void
test_basic_closed_caps(void)
{
	setup("x=2 y=2 z=2");
	sli_proj p;
	const char *maps[] = {"i k", "k j", "i j"};
	const char *sh[] = {"[x] []", "[] [y]", "[] [|?]"};
	project(&p, "8,16,8", 2, 1, maps, sh);
	uint8_t dirs[8];
	bool upd[3];
	all_dirs(dirs, SL_DIR_BOTH);
	sli_propagate_basic(&p, dirs, false, upd);
	CU_ASSERT(!upd[0] && !upd[1] && upd[2]);
	CU_ASSERT_STRING_EQUAL(fs_text(&p, 2, 0), " closed");
	CU_ASSERT_STRING_EQUAL(fs_text(&p, 2, 1), "y");
	teardown();
}

/* B3: a non-minor-most factor of size 6 takes only "x":(1)2 of "x"=4. */
static void
test_basic_divisibility_sub_axis(void)
{
	setup("x=4");
	sli_proj p;
	const char *maps[] = {"i", "ij"};
	const char *sh[] = {"[x|?]", NULL};
	project(&p, "6,2", 1, 1, maps, sh);
	uint8_t dirs[8];
	bool upd[2];
	all_dirs(dirs, SL_DIR_BOTH);
	sli_propagate_basic(&p, dirs, false, upd);
	CU_ASSERT(upd[1]);
	CU_ASSERT_STRING_EQUAL(fs_text(&p, 1, 0), "x:(1)2");
	teardown();
}

/* Conservative mode cuts candidate lists at their first sub-axis (2.5). */
static void
test_conservative_cut(void)
{
	setup("x=2 y=8");
	sli_proj p;
	const char *maps[] = {"ij", "i j"};
	const char *sh[] = {"[x,y]", NULL};
	uint8_t dirs[8];
	bool upd[2];
	all_dirs(dirs, SL_DIR_BOTH);
	project(&p, "4,4", 1, 1, maps, sh);
	sli_propagate_basic(&p, dirs, false, upd);
	CU_ASSERT_STRING_EQUAL(fs_text(&p, 1, 0), "x,y:(1)2");
	CU_ASSERT_STRING_EQUAL(fs_text(&p, 1, 1), "y:(2)4");
	project(&p, "4,4", 1, 1, maps, sh);
	sli_propagate_basic(&p, dirs, true, upd);
	CU_ASSERT_STRING_EQUAL(fs_text(&p, 1, 0), "x");
	CU_ASSERT_STRING_EQUAL(fs_text(&p, 1, 1), "");
	teardown();
}

/* Fact C.2.1: a forward direction still expands a second operand sideways. */
static void
test_forward_sideways(void)
{
	setup("x=2 y=2");
	sli_proj p;
	const char *maps[] = {"i", "i", "i"};
	const char *sh[] = {"[x|?]", "[|?]", "[x,y|?]"};
	project(&p, "8", 2, 1, maps, sh);
	uint8_t dirs[8];
	bool upd[3];
	all_dirs(dirs, SL_DIR_FORWARD);
	sli_propagate_basic(&p, dirs, false, upd);
	CU_ASSERT(!upd[0] && upd[1] && !upd[2]);
	CU_ASSERT_STRING_EQUAL(fs_text(&p, 1, 0), "x");
	teardown();
}

/* ====================================================================
 * Aggressive factor propagation (spec 4)
 * ==================================================================== */

/* A1: the factor with the bigger source tensor wins the axis. */
static void
test_aggressive_bigger_source_wins(void)
{
	setup("x=2 y=2 z=2");
	sli_proj p;
	const char *maps[] = {"i k", "k j", "i j"};
	const char *sh[] = {"[x,y|?] [|?]", "[|?] [x,z|?]", NULL};
	project(&p, "8,16,4", 2, 1, maps, sh);
	uint8_t dirs[8];
	bool upd[3];
	all_dirs(dirs, SL_DIR_BOTH);
	sli_propagate_aggressive(&p, dirs, false, false, upd);
	CU_ASSERT(upd[2]);
	CU_ASSERT_STRING_EQUAL(fs_text(&p, 2, 1), "x,z");
	CU_ASSERT_STRING_EQUAL(fs_text(&p, 2, 0), "");
	/* basic propagation leaves the result alone */
	project(&p, "8,16,4", 2, 1, maps, sh);
	sli_propagate_basic(&p, dirs, false, upd);
	CU_ASSERT(!upd[2]);
	teardown();
}

/* A2: element-wise ops prefer the candidate that shards more devices. */
static void
test_aggressive_elementwise_tie_break(void)
{
	setup("x=2 y=2");
	sli_proj p;
	const char *maps[] = {"i j", "i j", "i j"};
	const char *sh[] = {"[] [x]", "[y,x] []", NULL};
	project(&p, "8,8", 2, 1, maps, sh);
	uint8_t dirs[8];
	bool upd[3];
	all_dirs(dirs, SL_DIR_BOTH);
	sli_propagate_aggressive(&p, dirs, false, true, upd);
	CU_ASSERT_STRING_EQUAL(fs_text(&p, 2, 0), "y,x");
	CU_ASSERT_STRING_EQUAL(fs_text(&p, 2, 1), "");
	project(&p, "8,8", 2, 1, maps, sh);
	sli_propagate_aggressive(&p, dirs, false, false, upd);
	CU_ASSERT_STRING_EQUAL(fs_text(&p, 2, 1), "x");
	teardown();
}

/* A3: a closed tensor refuses only for itself. */
static void
test_aggressive_per_tensor(void)
{
	setup("x=2 y=2");
	sli_proj p;
	const char *maps[] = {"i j", "i j", "i j"};
	const char *sh[] = {"[x] [y]", "[] [x,y]", NULL};
	project(&p, "8,8", 2, 1, maps, sh);
	uint8_t dirs[8];
	bool upd[3];
	all_dirs(dirs, SL_DIR_BOTH);
	sli_propagate_aggressive(&p, dirs, false, true, upd);
	CU_ASSERT(upd[2] && !upd[1]);
	CU_ASSERT_STRING_EQUAL(fs_text(&p, 2, 0), "x");
	CU_ASSERT_STRING_EQUAL(fs_text(&p, 2, 1), "");
	teardown();
}

/* A4: element-wise operands are clamped to the result. */
static void
test_aggressive_elementwise_clamp(void)
{
	setup("x=2 y=2");
	sli_proj p;
	const char *maps[] = {"i", "i", "i"};
	const char *sh[] = {"[x,y]", "[|?]", "[x]"};
	project(&p, "8", 2, 1, maps, sh);
	uint8_t dirs[8];
	bool upd[3];
	all_dirs(dirs, SL_DIR_BOTH);
	sli_propagate_aggressive(&p, dirs, false, true, upd);
	CU_ASSERT_STRING_EQUAL(fs_text(&p, 1, 0), "x");
	const char *closed[] = {"[x,y]", "[|?]", "[]"};
	project(&p, "8", 2, 1, maps, closed);
	sli_propagate_aggressive(&p, dirs, false, true, upd);
	CU_ASSERT(!upd[1]);
	teardown();
}

/* ====================================================================
 * Passes on modules: quirks of Appendix C
 * ==================================================================== */

static char *
run_pass(const char *pass, const char *opts, const char *text)
{
	sl_context *c = sl_context_new();
	sl_module *m = test_parse(c, text);
	char *out = NULL;
	char err[128];
	if (m && !sl_module_verify(m) && !sl_pass_run(m, pass, opts, err, sizeof err))
		out = test_print(m);
	sl_module_free(m);
	sl_context_free(c);
	return out;
}

/* A14: an updated tensor loses its priorities, an untouched one keeps them. */
static void
test_quirk_a14_priorities_dropped(void)
{
	char *out = run_pass("sdy-basic-propagate", NULL,
		"sdy.mesh @m = <[\"x\"=2, \"y\"=2]>\n"
		"func.func @f(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{\"x\"}p1, {?}]>},\n"
		"             %b: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{?}p0, {\"y\"}p2]>})\n"
		"    -> tensor<8x8xf32> {\n"
		"  %0 = stablehlo.add %a, %b : tensor<8x8xf32>\n"
		"  return %0 : tensor<8x8xf32>\n"
		"}\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "[{\"x\"}, {\"y\", ?}]>}"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "[{\"x\", ?}, {\"y\"}]>}"));
	free(out);
}

/*
 * A16: result-sync debug edges of every result go under result 0 (here
 * both syncs record the same edge, kept once with its first step).
 */
static void
test_quirk_a16_result_edges(void)
{
	char *out = run_pass("sdy-aggressive-propagate", "debug-propagation-edge-sharding=true",
		"sdy.mesh @m = <[\"x\"=2]>\n"
		"func.func @main(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{\"x\", ?}]>})\n"
		"    -> (tensor<8xf32>, tensor<8xf32>) {\n"
		"  return %a, %a : tensor<8xf32>, tensor<8xf32>\n"
		"}\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "(tensor<8xf32> {sdy.propagation_edges = "
	                                   "#sdy.propagation_edges<[{step-0 = [{\"x\" = "
	                                   "operand-0 -> [result-0]}]}]>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "}, tensor<8xf32> {sdy.sharding"));
	free(out);
}

/* A19: `dot %x, %x` writes both operand slots; the later write wins. */
static void
test_quirk_a19_same_value_twice(void)
{
	char *out = run_pass("sdy-basic-propagate", NULL,
		"sdy.mesh @m = <[\"x\"=2, \"y\"=2]>\n"
		"func.func @f(%a: tensor<8x8xf32>) -> (tensor<8x8xf32> {sdy.sharding = "
		"#sdy.sharding<@m, [{\"x\", ?}, {\"y\", ?}]>}) {\n"
		"  %0 = stablehlo.dot %a, %a : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>\n"
		"  return %0 : tensor<8x8xf32>\n"
		"}\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "%arg0: tensor<8x8xf32> {sdy.sharding = "
	                                   "#sdy.sharding<@m, [{?}, {\"y\", ?}]>}"));
	free(out);
}

/*
 * Equal steps (same rule, same shardings) are replayed from the step
 * memo: the second chain must get what the first got.
 */
static void
test_step_memo_replays(void)
{
	char *out = run_pass("sdy-aggressive-propagate", NULL,
		"sdy.mesh @m = <[\"x\"=2, \"y\"=2]>\n"
		"func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{\"x\"}, {}]>},\n"
		"                %b: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{\"x\"}, {}]>})\n"
		"    -> (tensor<8x8xf32>, tensor<8x8xf32>) {\n"
		"  %0 = stablehlo.negate %a : tensor<8x8xf32>\n"
		"  %1 = stablehlo.negate %b : tensor<8x8xf32>\n"
		"  %2 = stablehlo.negate %0 : tensor<8x8xf32>\n"
		"  %3 = stablehlo.negate %1 : tensor<8x8xf32>\n"
		"  return %2, %3 : tensor<8x8xf32>, tensor<8x8xf32>\n"
		"}\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	const char *want = "{sdy.sharding = #sdy.sharding_per_value<[<@m, [{\"x\", ?}, {?}]>]>}";
	int n = 0;
	for (const char *p = strstr(out, want); p; p = strstr(p + 1, want))
		n++;
	CU_ASSERT_EQUAL(n, 4);
	free(out);
}

/* Section 6.3: user priorities reserve axes until their round. */
static void
test_user_priority_example(void)
{
	char *out = run_pass("sdy-user-priority-propagate", NULL,
		"sdy.mesh @m = <[\"x\"=2, \"y\"=2, \"z\"=2]>\n"
		"func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, "
		"[{\"x\", ?}p1, {\"y\"}p1]>}, %b: tensor<8x8xf32>, %c: tensor<8x8xf32>) "
		"-> tensor<8x8xf32> {\n"
		"  %0 = stablehlo.add %a, %b : tensor<8x8xf32>\n"
		"  %1 = stablehlo.divide %0, %c {sdy.sharding = #sdy.sharding_per_value<[<@m, "
		"[{\"z\"}p0, {?}]>]>} : tensor<8x8xf32>\n"
		"  return %1 : tensor<8x8xf32>\n"
		"}\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "%arg0: tensor<8x8xf32> {sdy.sharding = "
	                                   "#sdy.sharding<@m, [{\"x\", ?}, {\"y\"}]>}"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "%arg1: tensor<8x8xf32> {sdy.sharding = "
	                                   "#sdy.sharding<@m, [{\"z\", ?}, {\"y\", ?}]>}"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "<[<@m, [{\"z\"}, {\"y\", ?}]>]>"));
	free(out);
}

/* Section 5.4: op priorities let the adds win over the dot. */
static void
test_op_priority_example(void)
{
	char *out = run_pass("sdy-op-priority-propagate", NULL,
		"sdy.mesh @m = <[\"x\"=2, \"y\"=2]>\n"
		"func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{\"x\", ?}, {?}]>},\n"
		"                %b: tensor<8x8xf32>)\n"
		"    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{?}, {\"x\", ?}]>}) {\n"
		"  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : "
		"(tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>\n"
		"  %1 = stablehlo.add %0, %0 : tensor<8x8xf32>\n"
		"  %2 = stablehlo.add %1, %1 : tensor<8x8xf32>\n"
		"  return %2 : tensor<8x8xf32>\n"
		"}\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "%arg1: tensor<8x8xf32> {sdy.sharding = "
	                                   "#sdy.sharding<@m, [{?}, {\"x\", ?}]>}"));
	CU_ASSERT_PTR_NULL(strstr(out, "[{\"x\", ?}, {?}]>]>"));
	free(out);
}

/* Conflicting initial group shardings: a located warning and constraints. */
static void
test_group_conflict_warning(void)
{
	sl_context *c = sl_context_new();
	sl_module *m = test_parse(c,
		"sdy.mesh @m = <[\"a\"=2, \"b\"=2]>\n"
		"func.func @f(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{\"a\"}, {}]>},\n"
		"             %b: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{\"b\"}, {}]>}) {\n"
		"  sdy.sharding_group %a group_id = 0 : tensor<8x8xf32>\n"
		"  sdy.sharding_group %b group_id = 0 : tensor<8x8xf32>\n"
		"  func.return\n"
		"}\n");
	char err[128];
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL(sl_pass_run(m, "sdy-basic-propagate", NULL, err, sizeof err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(test_diags(), "t.mlir:2:1: warning: The initial operand "
	                                            "shardings on the sharding groups of groupID: 0"));
	/* both sides of the conflict, with their places */
	CU_ASSERT_PTR_NOT_NULL(strstr(test_diags(), "groups are not resolved. Conflict: "
	                              "<@m, [{\"a\"}, {}]> on argument 0 of @f (2:14) vs "
	                              "<@m, [{\"b\"}, {}]> on argument 1 of @f (3:14)\n"));
	char *out = test_print(m);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "%1 = sdy.sharding_constraint %arg0 <@m, [{\"b\", ?}, {?}]>"));
	free(out);
	sl_module_free(m);
	sl_context_free(c);
}

/* A group of op results pinned to different closed shardings. */
static void
test_group_conflict_results(void)
{
	sl_context *c = sl_context_new();
	sl_module *m = test_parse(c,
		"sdy.mesh @m = <[\"a\"=2, \"b\"=2]>\n"
		"func.func @f(%x: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {\n"
		"  %0 = stablehlo.abs %x {sdy.sharding = #sdy.sharding_per_value<[<@m, [{}, {\"a\"}]>]>} : tensor<8x8xf32>\n"
		"  %1 = stablehlo.negate %x {sdy.sharding = #sdy.sharding_per_value<[<@m, [{\"a\"}, {}]>]>} : tensor<8x8xf32>\n"
		"  sdy.sharding_group %0 group_id = 3 : tensor<8x8xf32>\n"
		"  sdy.sharding_group %1 group_id = 3 : tensor<8x8xf32>\n"
		"  return %0, %1 : tensor<8x8xf32>, tensor<8x8xf32>\n"
		"}\n");
	char err[128];
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL(sl_pass_run(m, "sdy-propagation-pipeline", NULL, err, sizeof err), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(test_diags(), "t.mlir:3:3: warning: The initial operand "
	                              "shardings on the sharding groups of groupID: 0 do not match"));
	CU_ASSERT_PTR_NOT_NULL(strstr(test_diags(), "Conflict: <@m, [{}, {\"a\"}]> on result 0 of "
	                              "'stablehlo.abs' (3:3) vs <@m, [{\"a\"}, {}]> on result 0 "
	                              "of 'stablehlo.negate' (4:3)\n"));
	sl_module_free(m);
	sl_context_free(c);
}

/* An axis used by two dimensions: located, names the axis. */
static void
test_axis_used_twice(void)
{
	const char *d = test_verify_diags(
		"sdy.mesh @m = <[\"a\"=2, \"b\"=2]>\n"
		"func.func @f(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {\n"
		"  %0 = stablehlo.abs %x {sdy.sharding = #sdy.sharding_per_value<[<@m, [{\"a\"}, {\"b\", \"a\"}]>]>} : tensor<8x8xf32>\n"
		"  return %0 : tensor<8x8xf32>\n"
		"}\n");
	CU_ASSERT_PTR_NOT_NULL(strstr(d, "t.mlir:3:3: error: 'stablehlo.abs' op result - "
	                                 "duplicate axis ref: \"a\""));
}

/* A manual axis inside the body: the op and the manual computation. */
static void
test_manual_axis_in_body(void)
{
	const char *d = test_verify_diags(
		"sdy.mesh @m = <[\"a\"=2, \"b\"=2]>\n"
		"func.func @f(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {\n"
		"  %0 = sdy.manual_computation(%x) in_shardings=[<@m, [{\"a\"}, {}]>] "
		"out_shardings=[<@m, [{\"a\"}, {}]>] manual_axes={\"a\"} (%y: tensor<4x8xf32>) {\n"
		"    %1 = stablehlo.abs %y {sdy.sharding = #sdy.sharding_per_value<[<@m, [{}, {\"a\"}]>]>} : tensor<4x8xf32>\n"
		"    sdy.return %1 : tensor<4x8xf32>\n"
		"  } : (tensor<8x8xf32>) -> tensor<8x8xf32>\n"
		"  return %0 : tensor<8x8xf32>\n"
		"}\n");
	CU_ASSERT_PTR_NOT_NULL(strstr(d, "t.mlir:4:5: error: 'stablehlo.abs' op result - operates "
	                                 "on axis \"a\" which is already bound by a parent "
	                                 "sdy.manual_computation op"));
	CU_ASSERT_PTR_NOT_NULL(strstr(d, "t.mlir:3:3: note: parent bounding this axis as manual"));
}

/*
 * A dimension with one factor borrows the sharding's axis list; expanding
 * the factor copies it first, so the sharding itself never changes.
 */
static void
test_projection_borrowed_axes(void)
{
	setup("x=2 y=2 z=2");
	sli_proj p;
	const char *maps[] = {"i", "i"};
	project(&p, "8", 1, 1, maps, (const char *[]){"[x|?]", "[x,y|?]"});
	const sl_sharding *src = sharding("[x|?]");
	sli_proj_tensor(&p, 0, mapping("i"), src);
	uint8_t dirs[8];
	bool upd[2];
	all_dirs(dirs, SL_DIR_BOTH);
	sli_propagate_aggressive(&p, dirs, false, true, upd);
	CU_ASSERT(upd[0] && !upd[1]);
	CU_ASSERT_STRING_EQUAL(fs_text(&p, 0, 0), "x,y");
	CU_ASSERT_PTR_NOT_EQUAL(p.t[0].f[0].axes.v, src->dims[0].axes.v);
	CU_ASSERT_EQUAL(src->dims[0].axes.n, 1);
	CU_ASSERT_STRING_EQUAL(dim_text(src, 0), "x,?");
	teardown();
}

CU_TestInfo tests_propagation[] = {
	{"projection borrows whole-dimension axes", test_projection_borrowed_axes},
	{"projection splits axes by gcd", test_projection_split},
	{"projection overflow", test_projection_overflow},
	{"projection minor-most non-divisible", test_projection_minor_most_non_divisible},
	{"quirk A1: factors after an overflow", test_quirk_a1_after_overflow},
	{"back-projection stops at partial factors", test_back_projection},
	{"back-projection merges sub-axes", test_back_projection_merges_sub_axes},
	{"compatible major axes", test_compatible_major_axes},
	{"basic: conflicts", test_basic_conflicts},
	{"basic: closed tensor caps a factor", test_basic_closed_caps},
	{"basic: divisibility gives a sub-axis", test_basic_divisibility_sub_axis},
	{"conservative cut at sub-axes", test_conservative_cut},
	{"forward expands operands sideways", test_forward_sideways},
	{"aggressive: bigger source wins", test_aggressive_bigger_source_wins},
	{"aggressive: element-wise tie-break", test_aggressive_elementwise_tie_break},
	{"aggressive: per-tensor conflicts", test_aggressive_per_tensor},
	{"aggressive: element-wise clamp", test_aggressive_elementwise_clamp},
	{"quirk A14: priorities dropped on update", test_quirk_a14_priorities_dropped},
	{"quirk A16: result edges under result 0", test_quirk_a16_result_edges},
	{"quirk A19: same value twice", test_quirk_a19_same_value_twice},
	{"step memo replays equal steps", test_step_memo_replays},
	{"user priorities (6.3)", test_user_priority_example},
	{"op priorities (5.4)", test_op_priority_example},
	{"group conflict warning", test_group_conflict_warning},
	{"group conflict of op results", test_group_conflict_results},
	{"axis used twice", test_axis_used_twice},
	{"manual axis inside a body", test_manual_axis_in_body},
	CU_TEST_INFO_NULL,
};
