/*
 * aggressive_propagate.c - the sdy-aggressive-propagate pass: the
 * configured propagation strategy (aggressive by default) without op
 * priorities (spec/propagation.md sections 4 and 7).
 */
#include "propagation/propagation.h"

int
sli_pass_aggressive_propagate(sl_module *m, const sli_pass_opts *opts)
{
	sli_prop_opts o;
	if (sli_prop_opts_parse(m, opts, SLI_PROP_AGGRESSIVE, &o))
		return -1;
	return sli_propagate(m, &o);
}
