/*
 * test_xml.c - the XML mesh description (formats/xml_mesh.c): reading a
 * valid file into the cost parameters, the exact located diagnostics of
 * each kind of bad file, the check against a module's sdy.mesh, and the
 * report of formats/xml_report.c validating against data/shardlp.xsd.
 */
#include "tests.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cost/primitives.h"
#include "formats/xml_mesh.h"
#include "ir/context.h"
#include "ir/ir.h"

static char diags[1 << 14];
static size_t ndiags;

static void
collect(void *ud, const sl_diag *d)
{
	static const char *const kind[] = {"error", "warning", "remark", "note"};
	const sl_context *ctx = ud;
	int n = d->loc.line
	        ? snprintf(diags + ndiags, sizeof diags - ndiags, "%s:%u:%u: %s: %s\n",
	                   sl_sym_str(ctx, d->loc.file), d->loc.line, d->loc.col,
	                   kind[d->severity], d->message)
	        : snprintf(diags + ndiags, sizeof diags - ndiags, "%s: %s\n",
	                   kind[d->severity], d->message);
	if (n > 0 && ndiags + (size_t)n < sizeof diags)
		ndiags += (size_t)n;
}

static sl_context *
new_ctx(void)
{
	sl_context *ctx = sl_context_new();
	sl_context_set_diag(ctx, collect, ctx);
	ndiags = 0;
	diags[0] = 0;
	return ctx;
}

/* Reads text as "t.xml"; returns the return code, diagnostics in diags. */
static int
read_mesh(sl_context *ctx, const char *text, sli_xml_mesh *mesh)
{
	ndiags = 0;
	diags[0] = 0;
	return sli_xml_mesh_parse(ctx, "t.xml", text, strlen(text), mesh);
}

/* The diagnostics of reading text, in a fresh context. */
static const char *
mesh_diags(const char *text)
{
	sl_context *ctx = new_ctx();
	sli_xml_mesh mesh;
	int rc = read_mesh(ctx, text, &mesh);
	CU_ASSERT_EQUAL(rc, -1);
	sl_context_free(ctx);
	return diags;
}

static const char *
srcdir(void)
{
	const char *s = getenv("top_srcdir");
	return s && *s ? s : ".";
}

#define MESH_4X2 \
	"<?xml version=\"1.0\"?>\n" \
	"<shardlp-mesh name=\"mesh\">\n" \
	"  <axis name=\"x\" size=\"4\"/>\n" \
	"  <axis name=\"y\" size=\"2\"/>\n" \
	"  <link axis=\"x\" bandwidth=\"25e9\" latency=\"3e-6\"/>\n" \
	"  <device flops=\"2e14\" memory-budget=\"1e6\">\n" \
	"    <flops type=\"bf16\" value=\"4e14\"/>\n" \
	"  </device>\n" \
	"</shardlp-mesh>\n"

static void
test_read_valid(void)
{
	sl_context *ctx = new_ctx();
	sli_xml_mesh mesh;
	CU_ASSERT_EQUAL(read_mesh(ctx, MESH_4X2, &mesh), 0);
	CU_ASSERT_STRING_EQUAL(diags, "");
	CU_ASSERT_STRING_EQUAL(sl_sym_str(ctx, mesh.name), "mesh");
	CU_ASSERT_EQUAL(mesh.loc.line, 2);
	CU_ASSERT_EQUAL(mesh.loc.col, 1);
	CU_ASSERT_EQUAL_FATAL(mesh.naxes, 2);
	CU_ASSERT_STRING_EQUAL(sl_sym_str(ctx, mesh.axes[0].name), "x");
	CU_ASSERT_EQUAL(mesh.axes[0].size, 4);
	CU_ASSERT_EQUAL(mesh.axes[0].bandwidth, 25e9);
	CU_ASSERT_EQUAL(mesh.axes[0].latency, 3e-6);
	CU_ASSERT_EQUAL(mesh.axes[0].loc.line, 3);
	CU_ASSERT_EQUAL(mesh.axes[0].loc.col, 3);
	CU_ASSERT_EQUAL(mesh.axes[1].size_loc.col, 18);
	CU_ASSERT_STRING_EQUAL(sl_sym_str(ctx, mesh.axes[1].name), "y");
	CU_ASSERT_EQUAL(mesh.axes[1].bandwidth, 0);	/* no <link>: defaults */
	CU_ASSERT_EQUAL(mesh.axes[1].latency, -1);
	CU_ASSERT_EQUAL(mesh.set, SLI_XML_MESH_FLOPS | SLI_XML_MESH_MEMORY_BUDGET);
	CU_ASSERT_EQUAL_FATAL(mesh.ntypes, 1);
	CU_ASSERT_STRING_EQUAL(mesh.types[0].type, "bf16");
	CU_ASSERT_EQUAL(mesh.types[0].flops, 4e14);

	/* applied on top of an --axis option: the option wins for its axis */
	sli_cost_params p;
	sli_cost_params_init(&p);
	sli_cost_axis opt = {"y", 0.5e9, 7e-6};
	p.axes = &opt;
	p.naxes = 1;
	p.flops = 5e12;	/* given as an option too: kept */
	sli_xml_mesh_apply(&mesh, &p, SLI_XML_MESH_FLOPS);
	CU_ASSERT_EQUAL(p.flops, 5e12);
	CU_ASSERT_EQUAL(p.ntype_flops, 0);
	CU_ASSERT_EQUAL(p.memory_budget, 1e6);
	CU_ASSERT_EQUAL(p.hbm, SLI_COST_DEFAULT_HBM);	/* not in the file: kept */
	CU_ASSERT_EQUAL_FATAL(p.naxes, 3);
	CU_ASSERT_STRING_EQUAL(p.axes[0].name, "x");
	CU_ASSERT_EQUAL(p.axes[0].bandwidth, 25e9);
	CU_ASSERT_STRING_EQUAL(p.axes[2].name, "y");
	CU_ASSERT_EQUAL(p.axes[2].bandwidth, 0.5e9);
	sli_xml_mesh_apply(&mesh, &p, 0);	/* twice: the links once */
	CU_ASSERT_EQUAL(p.naxes, 3);
	CU_ASSERT_EQUAL(p.flops, 2e14);
	CU_ASSERT_EQUAL(p.ntype_flops, 1);

	/* the evaluator sees the slow axis */
	const char *mlir = "sdy.mesh @mesh = <[\"x\"=4, \"y\"=2]>\n";
	sl_module *m = sl_module_parse(ctx, "t.mlir", mlir, strlen(mlir));
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL(sli_xml_mesh_check(&mesh, m), 0);
	sl_module_free(m);
	sl_context_free(ctx);
}

/* data/mesh-4x2.xml, read from its file, fits every example of data/. */
static void
test_read_example(void)
{
	static const char *const examples[] = {
		"attention.mlir", "manual.mlir", "mlp.mlir", "transformer.mlir", "while.mlir"
	};
	char path[4096];
	sl_context *ctx = new_ctx();
	sli_xml_mesh mesh;
	sli_cost_params p;
	sli_cost_params_init(&p);
	snprintf(path, sizeof path, "%s/data/mesh-4x2.xml", srcdir());
	CU_ASSERT_EQUAL_FATAL(sli_xml_read_mesh_costs(ctx, path, &mesh, &p), 0);
	CU_ASSERT_EQUAL_FATAL(p.naxes, 2);
	CU_ASSERT_STRING_EQUAL(p.axes[0].name, "x");
	CU_ASSERT(p.axes[0].bandwidth < p.axes[1].bandwidth);	/* x is slow */
	CU_ASSERT(p.axes[0].latency > p.axes[1].latency);
	for (size_t i = 0; i < sizeof examples / sizeof examples[0]; i++) {
		snprintf(path, sizeof path, "%s/data/%s", srcdir(), examples[i]);
		sl_module *m = sl_module_parse_file(ctx, path);
		CU_ASSERT_PTR_NOT_NULL_FATAL(m);
		CU_ASSERT_EQUAL(sli_xml_mesh_check(&mesh, m), 0);
		sl_module_free(m);
	}
	CU_ASSERT_STRING_EQUAL(diags, "");

	/* a slow x makes communication on x cost more than on y */
	snprintf(path, sizeof path, "%s/data/mlp.mlir", srcdir());
	sl_module *m = sl_module_parse_file(ctx, path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	sli_cost_model cm;
	CU_ASSERT_EQUAL_FATAL(sli_cost_model_build(m, &p, &cm), 0);
	CU_ASSERT_EQUAL(cm.axis_bw[0], 25e9);
	CU_ASSERT(sli_cost_gather(&cm, 0, 1e6) > sli_cost_gather(&cm, 1, 1e6));
	sli_cost_model_fini(&cm);
	sl_module_free(m);
	sl_context_free(ctx);
}

static void
test_not_well_formed(void)
{
	CU_ASSERT_STRING_EQUAL(mesh_diags(
	        "<shardlp-mesh>\n"
	        "  <axis name=\"x\" size=\"4\">\n"
	        "</shardlp-mesh>\n"),
	        "t.xml:3:16: error: opening and ending tag mismatch: axis line 2 and "
	        "shardlp-mesh\n"
	        "t.xml:4:1: error: premature end of data in tag shardlp-mesh line 1\n");
	CU_ASSERT_STRING_EQUAL(mesh_diags(""),
	        "t.xml:1:1: error: not a well-formed XML document\n");
	CU_ASSERT_STRING_EQUAL(mesh_diags("<shardlp-mesh name=x/>"),
	        "t.xml:1:20: error: attValue: \" or ' expected\n"
	        "t.xml:1:20: error: attributes construct error\n"
	        "t.xml:1:20: error: couldn't find end of Start Tag shardlp-mesh line 1\n"
	        "t.xml:1:20: error: extra content at the end of the document\n");
}

static void
test_schema_violation(void)
{
	CU_ASSERT_STRING_EQUAL(mesh_diags(
	        "<shardlp-mesh>\n"
	        "  <axis name=\"x\"/>\n"
	        "  <axes/>\n"
	        "</shardlp-mesh>\n"),
	        "t.xml:2:3: error: element 'axis': The attribute 'size' is required "
	        "but missing\n"
	        "t.xml:3:3: error: element 'axes': This element is not expected. "
	        "Expected is one of ( axis, link, device )\n");
	CU_ASSERT_STRING_EQUAL(mesh_diags(
	        "<shardlp-mesh>\n"
	        "  <axis name=\"x\" size=\"4\"/>\n"
	        "  <axis name=\"x\" size=\"2\"/>\n"
	        "</shardlp-mesh>\n"),
	        "t.xml:3:3: error: element 'axis': Duplicate key-sequence ['x'] in "
	        "unique identity-constraint 'axis-name'\n");
	/* the column of the attribute the message names */
	CU_ASSERT_STRING_EQUAL(mesh_diags(
	        "<shardlp-mesh>\n"
	        "  <axis name=\"x\" size=\"four\"/>\n"
	        "</shardlp-mesh>\n"),
	        "t.xml:2:18: error: element 'axis', attribute 'size': 'four' is not a "
	        "valid value of the atomic type 'xs:positiveInteger'\n");
	/* a report is valid XML of the schema, but not a mesh description */
	CU_ASSERT_STRING_EQUAL(mesh_diags(
	        "<?xml version=\"1.0\"?>\n"
	        "<shardlp-solve file=\"f.mlir\">\n"
	        " <result status=\"optimal\" cost=\"1\" compute=\"0\" communication=\"1\" "
	        "peak-bytes=\"8\" bound=\"1\" gap=\"0\" seconds=\"0\" "
	        "binaries=\"1\" rows=\"1\"/>\n"
	        "</shardlp-solve>\n"),
	        "t.xml:2:1: error: expected a mesh description <shardlp-mesh>, found "
	        "<shardlp-solve>\n");
}

static void
test_unknown_axis(void)
{
	CU_ASSERT_STRING_EQUAL(mesh_diags(
	        "<shardlp-mesh>\n"
	        "  <axis name=\"x\" size=\"4\"/>\n"
	        "  <axis name=\"y\" size=\"2\"/>\n"
	        "  <link axis=\"z\" bandwidth=\"2\"/>\n"
	        "</shardlp-mesh>\n"),
	        "t.xml:4:9: error: <link> to unknown axis 'z'; the mesh has 'x', 'y'\n");
}

static void
test_bad_bandwidth(void)
{
	/* the schema's bound, located at the attribute of a two-line tag */
	CU_ASSERT_STRING_EQUAL(mesh_diags(
	        "<shardlp-mesh>\n"
	        "  <axis name=\"x\" size=\"4\"/>\n"
	        "  <link axis=\"x\"\n"
	        "        bandwidth=\"0\"/>\n"
	        "</shardlp-mesh>\n"),
	        "t.xml:4:9: error: element 'link', attribute 'bandwidth': [facet "
	        "'minExclusive'] The value '0' must be greater than '0'\n");
	CU_ASSERT_STRING_EQUAL(mesh_diags(
	        "<shardlp-mesh>\n"
	        "  <axis name=\"x\" size=\"4\"/>\n"
	        "  <link axis=\"x\" bandwidth=\"-2\"/>\n"
	        "</shardlp-mesh>\n"),
	        "t.xml:3:18: error: element 'link', attribute 'bandwidth': [facet "
	        "'minExclusive'] The value '-2' must be greater than '0'\n");
	/* xs:double lets NaN and INF through; the reader does not */
	CU_ASSERT_STRING_EQUAL(mesh_diags(
	        "<shardlp-mesh>\n"
	        "  <axis name=\"x\" size=\"4\"/>\n"
	        "  <link axis=\"x\" bandwidth=\"NaN\"/>\n"
	        "</shardlp-mesh>\n"),
	        "t.xml:3:18: error: bandwidth of <link> must be a finite number, "
	        "found 'NaN'\n");
	CU_ASSERT_STRING_EQUAL(mesh_diags(
	        "<shardlp-mesh>\n"
	        "  <axis name=\"x\" size=\"4\"/>\n"
	        "  <link axis=\"x\" bandwidth=\"1\" latency=\"INF\"/>\n"
	        "</shardlp-mesh>\n"),
	        "t.xml:3:32: error: latency of <link> must be a finite number, "
	        "found 'INF'\n");
}

static void
test_too_many_axes(void)
{
	char text[1024];
	size_t k = (size_t)snprintf(text, sizeof text, "<shardlp-mesh>\n");
	for (int i = 0; i <= SLI_COST_MAX_AXES; i++)
		k += (size_t)snprintf(text + k, sizeof text - k,
		                      "  <axis name=\"a%d\" size=\"2\"/>\n", i);
	snprintf(text + k, sizeof text - k, "</shardlp-mesh>\n");
	CU_ASSERT_STRING_EQUAL(mesh_diags(text),
	        "t.xml:10:3: error: a mesh of more than 8 axes: the cost model takes "
	        "8 at most\n");
}

static void
test_missing_file(void)
{
	sl_context *ctx = new_ctx();
	sli_xml_mesh mesh;
	sli_cost_params p;
	sli_cost_params_init(&p);
	CU_ASSERT_EQUAL(sli_xml_read_mesh_costs(ctx, "/nonexistent/mesh.xml", &mesh, &p), -1);
	CU_ASSERT_STRING_EQUAL(diags, "error: cannot read '/nonexistent/mesh.xml': "
	                       "No such file or directory\n");
	CU_ASSERT_PTR_NULL(p.axes);	/* untouched */
	sl_context_free(ctx);
}

/* The diagnostics of checking description xml against module mlir. */
static const char *
check_diags(const char *xml, const char *mlir)
{
	sl_context *ctx = new_ctx();
	sli_xml_mesh mesh;
	sl_module *m = sl_module_parse(ctx, "t.mlir", mlir, strlen(mlir));
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL_FATAL(read_mesh(ctx, xml, &mesh), 0);
	CU_ASSERT_EQUAL(sli_xml_mesh_check(&mesh, m), -1);
	sl_module_free(m);
	sl_context_free(ctx);
	return diags;
}

static void
test_mesh_mismatch(void)
{
	const char *mlir = "sdy.mesh @other = <[\"a\"=2]>\n"
	                   "sdy.mesh @mesh = <[\"x\"=4, \"y\"=2]>\n";
	CU_ASSERT_STRING_EQUAL(check_diags(
	        "<shardlp-mesh name=\"mesh\">\n"
	        "  <axis name=\"x\" size=\"4\"/>\n"
	        "  <axis name=\"y\" size=\"4\"/>\n"
	        "</shardlp-mesh>\n", mlir),
	        "t.xml:3:18: error: axis 'y' has size 4 here but 2 in the module's "
	        "mesh @mesh\n"
	        "t.mlir:2:1: note: the module's mesh: sdy.mesh @mesh = <[\"x\"=4, "
	        "\"y\"=2]>\n");
	CU_ASSERT_STRING_EQUAL(check_diags(
	        "<shardlp-mesh name=\"mesh\">\n"
	        "  <axis name=\"y\" size=\"2\"/>\n"
	        "  <axis name=\"x\" size=\"4\"/>\n"
	        "</shardlp-mesh>\n", mlir),
	        "t.xml:2:3: error: axis 'y' is axis 1 here but axis 2 of the module's "
	        "mesh @mesh\n"
	        "t.mlir:2:1: note: the module's mesh: sdy.mesh @mesh = <[\"x\"=4, "
	        "\"y\"=2]>\n");
	CU_ASSERT_STRING_EQUAL(check_diags(
	        "<shardlp-mesh name=\"mesh\">\n"
	        "  <axis name=\"x\" size=\"4\"/>\n"
	        "</shardlp-mesh>\n", mlir),
	        "t.xml:1:1: error: the description lacks axis 'y' (size 2) of the "
	        "module's mesh @mesh\n"
	        "t.mlir:2:1: note: the module's mesh: sdy.mesh @mesh = <[\"x\"=4, "
	        "\"y\"=2]>\n");
	CU_ASSERT_STRING_EQUAL(check_diags(
	        "<shardlp-mesh name=\"mesh\">\n"
	        "  <axis name=\"x\" size=\"4\"/>\n"
	        "  <axis name=\"y\" size=\"2\"/>\n"
	        "  <axis name=\"z\" size=\"2\"/>\n"
	        "</shardlp-mesh>\n", mlir),
	        "t.xml:4:3: error: axis 'z' is not in the module's mesh @mesh\n"
	        "t.mlir:2:1: note: the module's mesh: sdy.mesh @mesh = <[\"x\"=4, "
	        "\"y\"=2]>\n");
	CU_ASSERT_STRING_EQUAL(check_diags(
	        "<shardlp-mesh name=\"grid\">\n"
	        "  <axis name=\"x\" size=\"4\"/>\n"
	        "</shardlp-mesh>\n", mlir),
	        "t.xml:1:1: error: the module has no sdy.mesh @grid\n");
	CU_ASSERT_STRING_EQUAL(check_diags(
	        "<shardlp-mesh>\n"
	        "  <axis name=\"x\" size=\"4\"/>\n"
	        "</shardlp-mesh>\n", mlir),
	        "t.xml:1:1: error: the module has 2 meshes with axes; name one with "
	        "<shardlp-mesh name=\"...\">\n");
}

/* Writes the report of r on m and validates it; returns the diagnostics. */
static const char *
report_diags(sl_context *ctx, sl_module *m, const sl_solve_result *r,
             const sl_solve_opts *so, int *rc)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	CU_ASSERT_EQUAL(sl_solve_write_xml(f, "t.mlir", m, r, &so->cost), 0);
	fclose(f);
	ndiags = 0;
	diags[0] = 0;
	*rc = sli_xml_validate(ctx, "report.xml", text, len);
	free(text);
	return diags;
}

static void
test_report_validates(void)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/data/mlp.mlir", srcdir());
	sl_context *ctx = new_ctx();
	sl_module *m = sl_module_parse_file(ctx, path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	sl_solve_opts so;
	sl_solve_opts_init(&so);
	sl_solve_result r;
	CU_ASSERT_EQUAL_FATAL(sl_solve(m, &so, &r), 0);
	int rc;
	CU_ASSERT_STRING_EQUAL(report_diags(ctx, m, &r, &so, &rc), "");
	CU_ASSERT_EQUAL(rc, 0);

	/* an unbounded gap prints as "inf": still valid */
	r.status = SL_SOLVE_FEASIBLE;
	r.gap = INFINITY;
	r.bound = -INFINITY;
	CU_ASSERT_STRING_EQUAL(report_diags(ctx, m, &r, &so, &rc), "");
	CU_ASSERT_EQUAL(rc, 0);
	sl_module_free(m);

	/* and the schema does reject a bad report */
	const char *bad = "<shardlp-solve file=\"f\">\n"
	                  "  <tensor line=\"1\" col=\"1\" type=\"f32\"/>\n"
	                  "</shardlp-solve>\n";
	CU_ASSERT_EQUAL(sli_xml_validate(ctx, "bad.xml", bad, strlen(bad)), -1);
	CU_ASSERT_STRING_EQUAL(diags, "bad.xml:2:3: error: element 'tensor': This "
	                       "element is not expected. Expected is ( result )\n");
	sl_context_free(ctx);
}

CU_TestInfo tests_xml[] = {
	{"valid mesh description", test_read_valid},
	{"data/mesh-4x2.xml fits the examples", test_read_example},
	{"not well-formed XML", test_not_well_formed},
	{"schema violations", test_schema_violation},
	{"link to an unknown axis", test_unknown_axis},
	{"non-positive or non-finite bandwidth", test_bad_bandwidth},
	{"more axes than the cost model takes", test_too_many_axes},
	{"missing file", test_missing_file},
	{"description against the module's mesh", test_mesh_mismatch},
	{"solve report validates against the schema", test_report_validates},
	CU_TEST_INFO_NULL,
};
