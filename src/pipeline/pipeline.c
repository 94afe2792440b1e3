/*
 * pipeline.c - the runner of step lists (pipeline.h): a step runs when
 * the mode of the run and the census of the module call for it, with its
 * typed options; the census grows with what it may create; with
 * verify-each the module is verified after it.
 */
#include "pipeline/pipeline.h"

#include "passes/passutil.h"

#include <stdlib.h>
#include <string.h>

void
sl_context_set_verify_each(sl_context *ctx, bool on)
{
	ctx->verify_each = on;
}

/* Whether SHARDLP_VERIFY_EACH=1 asks every run to verify each step. */
static bool
env_verify_each(void)
{
	const char *e = getenv("SHARDLP_VERIFY_EACH");
	return e && !strcmp(e, "1");
}

void
sli_pipeline_start(sli_pipeline_state *s, sl_module *m, bool dedup, bool calls)
{
	s->mode = (dedup ? SLI_WHEN_DEDUP : SLI_WHEN_NO_DEDUP) | (calls ? SLI_WHEN_CALLS : 0);
	s->census = sli_census(m);
	s->verify_each = m->ctx->verify_each || env_verify_each();
}

/* A top-level function carries an attribute that unflattening strips. */
static bool
func_attrs(sl_module *m)
{
	sl_sym orig = sli_sym(m, "sdy.original_func_name");
	sl_sym manual = sli_sym(m, "sdy.func_manual_axes");
	sl_block *body = sli_module_body(m);
	for (sl_op *f = body ? body->first : NULL; f; f = f->next)
		if (f->kind == SL_OP_FUNC && (sli_op_attr(f, orig) || sli_op_attr(f, manual)))
			return true;
	return false;
}

/* Whether step t has work in m, whose census is c. */
static bool
needed(sl_module *m, const sli_step *t, unsigned c)
{
	unsigned has = t->needs & ~(SLI_NEEDS_PRIVATE | SLI_NEEDS_FUNCS_MOVE |
	                            SLI_NEEDS_FUNC_ATTRS | SLI_NEEDS_NONE_OF);
	if (t->needs == 0)
		return true;
	if (t->needs & SLI_NEEDS_FUNCS_MOVE)
		return sli_funcs_may_move(m);
	if (t->needs & SLI_NEEDS_FUNC_ATTRS)
		return (c & SLI_HAS_CALL) || func_attrs(m);
	if (t->needs & SLI_NEEDS_NONE_OF)
		return !(c & has);
	if ((t->needs & SLI_NEEDS_PRIVATE) && sli_has_private_symbol(m))
		return true;
	return (c & has) != 0;
}

/* Runs step t with its typed options: the defaults d, or d as its hook
 * sets them (with static strings only: nothing here frees them). */
static int
run_step(sl_module *m, const sli_step *t, const sli_pass_opts *d)
{
	if (!t->options)
		return t->run(m, d);
	sli_pass_opts o = *d;
	t->options(&o);
	return t->run(m, &o);
}

int
sli_pipeline_run(sl_module *m, const sli_pipeline *p, sli_pipeline_state *s)
{
	sli_pass_opts defaults;
	sli_pass_opts_init(&defaults);
	for (size_t i = 0; i < p->nsteps; i++) {
		const sli_step *t = &p->steps[i];
		if ((t->when & ~s->mode) || !needed(m, t, s->census))
			continue;
		/*
		 * Shardy verifies the module after every pass; a run here
		 * verifies it at its end, and after a step only with
		 * verify-each or when the census asks (sli_step.verify_if)
		 */
		bool verify = s->verify_each || (s->census & t->verify_if);
		if (run_step(m, t, &defaults))
			return -1;
		if (!t->makes_if || (s->census & t->makes_if))
			s->census |= t->makes;
		if (verify && sl_module_verify(m)) {
			sli_error(m->ctx, sli_loc_none(),
			          "module does not verify after step '%s' of pipeline '%s'", t->name,
			          p->name);
			return -1;
		}
	}
	return 0;
}
