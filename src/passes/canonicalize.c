/* canonicalize.c - placeholder until the sdy canonicalization patterns land. */
#include "passes/pass.h"

int
sli_pass_canonicalize(sl_module *m, const sli_pass_opts *opts)
{
	return 0;
}
