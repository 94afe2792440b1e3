/*
 * fuzz_xml.c - libFuzzer target for the XML readers: the input as a mesh
 * description (read, applied to cost parameters, held against a fixed
 * module's mesh), as any shardlp document for schema validation, and as
 * a sharding problem (read into a module, verified, written back).
 * Any crash, hang, leak or sanitizer report is a bug; diagnostics are
 * dropped.  Built and run by tests/fuzz/run.sh (FUZZ_TARGET=xml).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "formats/xml_mesh.h"
#include "formats/xml_problem.h"
#include "shardlp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char module[] =
	"sdy.mesh @mesh = <[\"x\"=4, \"y\"=2]>\n"
	"func.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {\n"
	"  return %arg0 : tensor<8x8xf32>\n"
	"}\n";

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	sl_context *ctx = sl_context_new();
	sl_module *m = sl_module_parse(ctx, "fuzz.mlir", module, sizeof module - 1);
	sli_xml_mesh mesh;
	if (sli_xml_mesh_parse(ctx, "fuzz.xml", (const char *)data, size, &mesh) == 0) {
		sli_cost_params p;
		memset(&p, 0, sizeof p);
		sli_xml_mesh_apply(&mesh, &p, 0);
		sli_xml_mesh_apply(&mesh, &p, 0);
		if (m)
			sli_xml_mesh_check(&mesh, m);
	}
	sli_xml_validate(ctx, "fuzz.xml", (const char *)data, size);
	sl_module *p = sli_xml_problem_parse(ctx, "fuzz.xml", (const char *)data, size);
	if (p) {
		FILE *null = fopen("/dev/null", "w");
		sl_module_verify(p);
		if (null) {
			sl_module_write_xml(p, null, "fuzz.xml");
			fclose(null);
		}
		sl_module_free(p);
	}
	sl_module_free(m);
	sl_context_free(ctx);
	return 0;
}
