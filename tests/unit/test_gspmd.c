/* test_gspmd.c - unit tests of the HLO sharding string reader and of the
 * mesh it derives (formats/gspmd.h). */
#include "tests.h"

#include <stdio.h>
#include <string.h>

#include "formats/gspmd.h"

static sli_arena arena;
static char msg[160];
static size_t off;

/* Parses s; 0 or -1 (msg and off then hold the error). */
static int
parse(const char *s, sli_hlo_sharding *h)
{
	msg[0] = 0;
	off = (size_t)-1;
	return sli_gspmd_parse(&arena, s, strlen(s), h, &off, msg, sizeof msg);
}

static void
test_simple_forms(void)
{
	sli_arena_init(&arena);
	sli_hlo_sharding h;
	CU_ASSERT_EQUAL(parse("{replicated}", &h), 0);
	CU_ASSERT_EQUAL(h.kind, SLI_HLO_REPLICATED);
	CU_ASSERT_EQUAL(parse(" { manual } ", &h), 0);
	CU_ASSERT_EQUAL(h.kind, SLI_HLO_MANUAL);
	CU_ASSERT_EQUAL(parse("{unknown}", &h), 0);
	CU_ASSERT_EQUAL(h.kind, SLI_HLO_UNKNOWN);
	CU_ASSERT_EQUAL(parse("{maximal device=7}", &h), 0);
	CU_ASSERT_EQUAL(h.kind, SLI_HLO_MAXIMAL);
	CU_ASSERT_EQUAL(h.device, 7);
	CU_ASSERT_EQUAL(parse("{replicated metadata={op_name=\"a{b}\" source_line=3}}", &h), 0);
	sli_arena_fini(&arena);
}

static void
test_tiled(void)
{
	sli_arena_init(&arena);
	sli_hlo_sharding h;
	CU_ASSERT_EQUAL_FATAL(parse("{devices=[2,1]0,1}", &h), 0);
	CU_ASSERT_EQUAL(h.kind, SLI_HLO_TILED);
	CU_ASSERT_EQUAL(h.ntile, 2);
	CU_ASSERT_EQUAL(h.ndevices, 2);
	CU_ASSERT_EQUAL(h.devices[1], 1);
	CU_ASSERT_EQUAL(sli_gspmd_ndevices(&h), 2);
	CU_ASSERT_EQUAL_FATAL(parse("{devices=[4,2]<=[8]}", &h), 0);
	CU_ASSERT_PTR_NULL(h.devices);
	CU_ASSERT_EQUAL(h.niota, 1);
	CU_ASSERT_PTR_NULL(h.perm);
	CU_ASSERT_EQUAL_FATAL(parse("{devices=[4,2,1]<=[2,4]T(1,0) last_tile_dim_replicate}", &h), 0);
	CU_ASSERT_EQUAL(h.niota, 2);
	CU_ASSERT_EQUAL(h.perm[0], 1);
	CU_ASSERT_EQUAL(h.nsub, 1);
	CU_ASSERT_EQUAL(h.subgroups[0], SLI_HLO_REPLICATED);
	CU_ASSERT_EQUAL_FATAL(parse("{devices=[2,2,2]<=[8] last_tile_dims={manual, replicated}}", &h), 0);
	CU_ASSERT_EQUAL(h.nsub, 2);
	CU_ASSERT_EQUAL(h.subgroups[0], SLI_HLO_MANUAL);
	CU_ASSERT_EQUAL(h.subgroups[1], SLI_HLO_REPLICATED);
	CU_ASSERT_EQUAL(parse("{devices=[2]<=[2] shard_as 1}", &h), 0);
	CU_ASSERT_TRUE(h.shard_group);
	sli_arena_fini(&arena);
}

static void
test_tuples(void)
{
	sli_arena_init(&arena);
	sli_hlo_sharding h;
	CU_ASSERT_EQUAL_FATAL(parse("{{replicated}, {devices=[2]<=[2]}, {{maximal device=1}}}", &h), 0);
	CU_ASSERT_EQUAL(h.kind, SLI_HLO_TUPLE);
	CU_ASSERT_EQUAL_FATAL(h.nelems, 3);
	CU_ASSERT_EQUAL(h.elems[1].kind, SLI_HLO_TILED);
	CU_ASSERT_EQUAL(h.elems[2].kind, SLI_HLO_TUPLE);
	CU_ASSERT_EQUAL(h.elems[2].elems[0].device, 1);
	CU_ASSERT_EQUAL(parse("{}", &h), 0);
	CU_ASSERT_EQUAL(h.kind, SLI_HLO_TUPLE);
	CU_ASSERT_EQUAL(h.nelems, 0);
	sli_arena_fini(&arena);
}

/* Each malformed string gives an error at the offset given, never a crash. */
static void
test_errors(void)
{
	static const struct {
		const char *s;
		size_t off;
		const char *msg;
	} cases[] = {
		{"", 0, "expected '{' to start a sharding"},
		{"{", 1, "expected 'replicated', 'manual', 'maximal', 'devices' or '{' in sharding"},
		{"{replicated", 11, "expected '}' to end a sharding"},
		{"{replicated} x", 13, "unexpected text after sharding"},
		{"{maximal}", 8, "expected 'device=' after 'maximal'"},
		{"{maximal device=x}", 16, "expected integer in sharding"},
		{"{devices=[2,2]0,1}", 9, "tile assignment does not match the number of devices"},
		{"{devices=[2,0]<=[2]}", 12, "dimension sizes must be positive in sharding"},
		{"{devices=[4]<=[4]T(1)}", 18, "transpose is not a permutation of the iota dimensions"},
		{"{devices=[4]<=[2,2]T(0,0)}", 20, "transpose is not a permutation of the iota dimensions"},
		{"{devices=[4]<=[]}", 16, "expected iota dimensions in sharding"},
		{"{devices=[2]<=[2] last_tile_dims={x}}", 34, "expected 'manual' or 'replicated' in last_tile_dims"},
		{"{devices=[2]<=[2] last_tile_dims={manual,replicated}}", 18, "more subgroup dimensions than tile dimensions"},
		{"{replicated last_tile_dim_replicate}", 12, "unexpected 'last_tile_dim_replicate'"},
		{"{devices=[2]<=[2] metadata={op_name=\"x}", 40, "unterminated metadata in sharding"},
		{"{devices=[99999999999999999999]<=[2]}", 10, "integer too large in sharding"},
		{"{devices=[4294967296,4294967296,4294967296]<=[2]}", 9, "tile assignment too large in sharding"},
		{"{{replicated}, }", 15, "expected '{' to start a sharding"},
	};
	sli_arena_init(&arena);
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		sli_hlo_sharding h;
		CU_ASSERT_EQUAL(parse(cases[i].s, &h), -1);
		CU_ASSERT_STRING_EQUAL(msg, cases[i].msg);
		CU_ASSERT_EQUAL(off, cases[i].off);
		if (strcmp(msg, cases[i].msg) || off != cases[i].off)
			fprintf(stderr, "\n  case %zu: off %zu msg '%s'\n", i, off, msg);
	}
	char deep[400];
	memset(deep, '{', sizeof deep - 1);
	deep[sizeof deep - 1] = 0;
	sli_hlo_sharding h;
	CU_ASSERT_EQUAL(parse(deep, &h), -1);
	CU_ASSERT_STRING_EQUAL(msg, "sharding nested too deeply");
	sli_arena_fini(&arena);
}

/* The mesh of Shardy's own example: [4,8]<=[8,4]T(1,0), [1,2,16]<=[32]
 * and [4,4,2]<=[2,16]T(1,0) share the mesh 2x4x4. */
static void
test_mesh(void)
{
	sli_arena_init(&arena);
	const char *s[] = {
		"{devices=[4,8]<=[8,4]T(1,0)}",
		"{devices=[1,2,16]<=[32] last_tile_dim_replicate}",
		"{devices=[4,4,2]<=[2,16]T(1,0) last_tile_dim_replicate}",
	};
	sli_hlo_sharding h[3];
	sli_gspmd_cuts c = {0};
	for (int i = 0; i < 3; i++) {
		CU_ASSERT_EQUAL_FATAL(parse(s[i], &h[i]), 0);
		CU_ASSERT_TRUE(sli_gspmd_add_cuts(&c, &h[i]));
	}
	int64_t sizes[8];
	uint32_t n;
	CU_ASSERT_TRUE_FATAL(sli_gspmd_mesh_sizes(&c, sizes, &n));
	CU_ASSERT_EQUAL_FATAL(n, 3);
	CU_ASSERT_EQUAL(sizes[0], 2);
	CU_ASSERT_EQUAL(sizes[1], 4);
	CU_ASSERT_EQUAL(sizes[2], 4);
	uint32_t axes[8], first[8];
	CU_ASSERT_TRUE_FATAL(sli_gspmd_tile_axes(&c, &h[0], axes, first));
	/* dimension 0 takes axis 2 (size 4), dimension 1 axes 0 and 1 */
	CU_ASSERT_EQUAL(first[1] - first[0], 1);
	CU_ASSERT_EQUAL(axes[first[0]], 2);
	CU_ASSERT_EQUAL(first[2] - first[1], 2);
	CU_ASSERT_EQUAL(axes[first[1]], 0);
	CU_ASSERT_EQUAL(axes[first[1] + 1], 1);
	/* uneven splits and non-iota device lists do not fit */
	sli_hlo_sharding bad;
	CU_ASSERT_EQUAL_FATAL(parse("{devices=[2,6]<=[3,4]}", &bad), 0);
	sli_gspmd_cuts c2 = {0};
	CU_ASSERT_FALSE(sli_gspmd_add_cuts(&c2, &bad));
	CU_ASSERT_EQUAL_FATAL(parse("{devices=[2,2]0,2,1,3}", &bad), 0);
	CU_ASSERT_FALSE(sli_gspmd_add_cuts(&c2, &bad));
	/* crossing cuts: 3x4 and 4x3 orders of 12 devices */
	sli_hlo_sharding a, b;
	CU_ASSERT_EQUAL_FATAL(parse("{devices=[3,4]<=[12]}", &a), 0);
	CU_ASSERT_EQUAL_FATAL(parse("{devices=[4,3]<=[12]}", &b), 0);
	CU_ASSERT_TRUE(sli_gspmd_add_cuts(&c2, &a));
	CU_ASSERT_TRUE(sli_gspmd_add_cuts(&c2, &b));
	CU_ASSERT_FALSE(sli_gspmd_mesh_sizes(&c2, sizes, &n));
	sli_gspmd_cuts_fini(&c);
	sli_gspmd_cuts_fini(&c2);
	sli_arena_fini(&arena);
}

CU_TestInfo tests_gspmd[] = {
	{"simple forms", test_simple_forms},
	{"tiled", test_tiled},
	{"tuples", test_tuples},
	{"malformed strings", test_errors},
	{"mesh from device orders", test_mesh},
	CU_TEST_INFO_NULL,
};
