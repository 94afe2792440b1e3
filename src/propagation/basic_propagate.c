/*
 * basic_propagate.c - the sdy-basic-propagate pass: one fixpoint run with
 * basic factor propagation (spec/propagation.md sections 3 and 7).
 */
#include "propagation/propagation.h"

int
sli_pass_basic_propagate(sl_module *m, const sli_pass_opts *opts)
{
	sli_prop_opts o;
	if (sli_prop_opts_parse(m, opts, SLI_PROP_BASIC, &o))
		return -1;
	return sli_propagate(m, &o);
}
