/*
 * fuzz_mlir.c - libFuzzer target for the MLIR text reader: parses the
 * input, verifies and prints what parsed (to /dev/null), frees everything.
 * Any crash, hang, leak or sanitizer report is a bug; diagnostics are
 * dropped.  Built and run by tests/fuzz/run.sh.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "shardlp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *devnull;

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	sl_context *ctx;
	sl_module *m;
	sl_print_opts opts = {false, false};

	if (!devnull)
		devnull = fopen("/dev/null", "w");
	ctx = sl_context_new();
	m = sl_module_parse(ctx, "fuzz.mlir", (const char *)data, size);
	if (m) {
		if (sl_module_verify(m) == 0 && devnull) {
			sl_module_print(m, devnull, &opts);
			opts.debuginfo = true;
			sl_module_print(m, devnull, &opts);
		}
		sl_module_free(m);
	}
	sl_context_free(ctx);
	return 0;
}
