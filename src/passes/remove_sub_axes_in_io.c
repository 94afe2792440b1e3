/*
 * remove_sub_axes_in_io.c - -sdy-remove-sub-axes-in-input-output-shardings
 * (export; spec/import-passes.md section 4): on the main function's
 * argument and result shardings, every open dimension is cut at its
 * first sub-axis; closed dimensions are kept.
 */
#include "passes/pass.h"
#include "passes/passutil.h"

static sl_sharding *
cut(sl_module *m, const sl_sharding *s)
{
	sl_sharding *r = NULL;
	for (uint32_t d = 0; d < s->rank; d++) {
		if (!s->dims[d].open)
			continue;
		uint32_t k = 0;
		while (k < s->dims[d].axes.n && !s->dims[d].axes.v[k].sub)
			k++;
		if (k == s->dims[d].axes.n)
			continue;
		if (!r) {
			r = SL_NEW(&m->arena, sl_sharding);
			*r = *s;
			r->dims = SL_NEWN(&m->arena, sl_dim_sharding, s->rank);
			for (uint32_t i = 0; i < s->rank; i++)
				r->dims[i] = s->dims[i];
		}
		r->dims[d].axes.n = k;
	}
	return r;
}

int
sli_pass_remove_sub_axes_in_input_output_shardings(sl_module *m, const sli_pass_opts *opts)
{
	(void)opts;
	sl_op *f = sli_main_func(m);
	if (!f)
		return 0;
	sl_block *b = sli_func_body(f);
	for (uint32_t i = 0; b && i < b->nargs; i++) {
		sl_sharding *s = sli_func_arg_sharding(f, i);
		sl_sharding *r = s ? cut(m, s) : NULL;
		if (r)
			sli_func_set_arg_sharding(m, f, i, r);
	}
	uint32_t n = sli_func_nresults(f);
	for (uint32_t i = 0; i < n; i++) {
		sl_sharding *s = sli_func_res_sharding(f, i);
		sl_sharding *r = s ? cut(m, s) : NULL;
		if (r)
			sli_func_set_res_sharding(m, f, i, r);
	}
	return 0;
}
