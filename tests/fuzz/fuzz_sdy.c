/*
 * fuzz_sdy.c - libFuzzer target for the sdy attribute parser and the
 * arithmetic behind it: the input's first line is the axis list of a mesh
 * (`"x"=4, "y"=2` when the input has no newline), the rest a tensor
 * sharding of a 2-d argument; the program is parsed, verified and, when
 * valid, propagated and printed.  Sizes, sub-axes and products reach
 * every checked computation this way.  Built and run by tests/fuzz/run.sh
 * (FUZZ_TARGET=sdy).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shardlp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *devnull;

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *in = (const char *)data, *nl = memchr(in, '\n', size);
	const char *mesh = "\"x\"=4, \"y\"=2", *sh = in;
	int nmesh = (int)strlen(mesh), nsh = (int)size;
	if (size > 4096)
		return 0;
	if (nl) {
		mesh = in;
		nmesh = (int)(nl - in);
		sh = nl + 1;
		nsh = (int)(size - (size_t)nmesh - 1);
	}
	size_t cap = size + 512;
	char *text = malloc(cap);
	int n = snprintf(text, cap,
		"sdy.mesh @mesh = <[%.*s]>\n"
		"func.func @main(%%arg0: tensor<64x32xf32> {sdy.sharding = %.*s}) "
		"-> tensor<32x64xf32> {\n"
		"  %%0 = stablehlo.transpose %%arg0, dims = [1, 0] : "
		"(tensor<64x32xf32>) -> tensor<32x64xf32>\n"
		"  %%1 = stablehlo.reshape %%0 : (tensor<32x64xf32>) -> tensor<2048xf32>\n"
		"  %%2 = stablehlo.reshape %%1 : (tensor<2048xf32>) -> tensor<32x64xf32>\n"
		"  return %%2 : tensor<32x64xf32>\n"
		"}\n", nmesh, mesh, nsh, sh);
	if (!devnull)
		devnull = fopen("/dev/null", "w");
	sl_context *ctx = sl_context_new();
	sl_module *m = sl_module_parse(ctx, "fuzz.mlir", text, (size_t)n);
	if (m && sl_module_verify(m) == 0) {
		char err[256];
		sl_print_opts po = {.generic = false};
		if (sl_pass_run(m, "sdy-propagation-pipeline", "", err, sizeof err) == 0 &&
		    devnull)
			sl_module_print(m, devnull, &po);
	}
	sl_module_free(m);
	sl_context_free(ctx);
	free(text);
	return 0;
}
