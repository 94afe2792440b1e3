/* pass.c - the pass table, option parsing and sl_pass_run. */
#include "passes/pass.h"

#include <stdlib.h>
#include <string.h>

static const char *const no_options[] = {NULL};
static const char *const rule_options[] = {"conservative-propagation", NULL};
static const char *const import_calls_options[] = {"add-data-flow-edges-on-named-computations", NULL};
static const char *const apply_constraints_options[] = {"debug-sharding-origins", "debug-propagation-edge-sharding", NULL};
static const char *const import_pipeline_options[] = {"dedup-functions-fully", NULL};
static const char *const pipeline_options[] = {"dedup-functions-fully", NULL};
static const char *const propagate_options[] = {"keep-sharding-rules",
	"conservative-propagation", "debug-sharding-origins", "debug-propagation-edge-sharding",
	"debug-edge-source-sharding", "module-dump-directory", NULL};
static const char *const strategy_options[] = {"keep-sharding-rules",
	"conservative-propagation", "debug-sharding-origins", "debug-propagation-edge-sharding",
	"debug-edge-source-sharding", "module-dump-directory", "propagation-strategy", NULL};
static const char *const priority_options[] = {"keep-sharding-rules",
	"conservative-propagation", "debug-sharding-origins", "debug-propagation-edge-sharding",
	"debug-edge-source-sharding", "module-dump-directory", "propagation-strategy",
	"run-op-priority-propagation", NULL};
static const char *const sink_options[] = {"sink-debug-sharding-origins", "sink-debug-propagation-edge-sharding", NULL};

const sli_pass_info sli_passes[] = {
	{"canonicalize", sli_pass_canonicalize, no_options,
	 "fold redundant sdy reshards and collectives"},
	{"sdy-populate-op-sharding-rules", sli_pass_populate_op_sharding_rules, rule_options,
	 "attach the sharding rule of every op as sdy.sharding_rule"},
	{"sdy-constant-or-scalar-splitter", sli_pass_constant_or_scalar_splitter, no_options,
	 "give every non-constant use of a constant or scalar broadcast its own copy"},
	{"sdy-add-func-data-flow-edges", sli_pass_add_func_data_flow_edges, no_options,
	 "add func_data_flow_edge ops on non-main function arguments and call results"},
	{"sdy-import-func-calls", sli_pass_import_func_calls, import_calls_options,
	 "turn func.call ops into sdy.named_computation ops"},
	{"sdy-flatten-call-graph", sli_pass_flatten_call_graph, no_options,
	 "clone functions so that each is called at most once"},
	{"sdy-pre-order-funcs", sli_pass_pre_order_funcs, no_options,
	 "order functions callers first"},
	{"sdy-propagate-sharding-from-func-to-call", sli_pass_propagate_sharding_from_func_to_call, no_options,
	 "copy callee result shardings onto calls without shardings"},
	{"sdy-lift-inlined-meshes", sli_pass_lift_inlined_meshes, no_options,
	 "lift inlined meshes into sdy.mesh symbols and deduplicate meshes"},
	{"sdy-remove-size-one-axes", sli_pass_remove_size_one_axes, no_options,
	 "remove axes of size 1 from every sharding"},
	{"sdy-sharding-group-import", sli_pass_sharding_group_import, no_options,
	 "check, merge and renumber sharding groups"},
	{"sdy-manual-axes-cleanup", sli_pass_manual_axes_cleanup, no_options,
	 "replicate unused manual axes and sort manual axes in mesh order"},
	{"sdy-add-data-flow-edges", sli_pass_add_data_flow_edges, no_options,
	 "add data_flow_edge ops on the edge owners of data-flow ops"},
	{"symbol-dce", sli_pass_symbol_dce, no_options,
	 "erase private symbols nothing refers to"},
	{"sdy-apply-sharding-constraints", sli_pass_apply_sharding_constraints, apply_constraints_options,
	 "copy closed sharding constraints onto their inputs"},
	{"sdy-import-pipeline", sli_pass_import_pipeline, import_pipeline_options,
	 "run the import passes in Shardy's order"},
	{"sdy-basic-propagate", sli_pass_basic_propagate, propagate_options,
	 "propagate shardings with basic factor propagation"},
	{"sdy-aggressive-propagate", sli_pass_aggressive_propagate, strategy_options,
	 "propagate shardings with the aggressive (or chosen) strategy"},
	{"sdy-op-priority-propagate", sli_pass_op_priority_propagate, priority_options,
	 "propagate shardings by op-priority levels"},
	{"sdy-user-priority-propagate", sli_pass_user_priority_propagate, priority_options,
	 "propagate shardings by user priorities, then op priorities"},
	{"sdy-sink-data-flow-edges", sli_pass_sink_data_flow_edges, sink_options,
	 "move data-flow edge shardings onto their ops and remove the edges"},
	{"sdy-sink-func-data-flow-edges", sli_pass_sink_func_data_flow_edges, no_options,
	 "move func data-flow edge shardings onto their values and remove the edges"},
	{"sdy-remove-sharding-groups", sli_pass_remove_sharding_groups, no_options,
	 "erase every sharding group"},
	{"sdy-sharding-constraint-to-reshard", sli_pass_sharding_constraint_to_reshard, no_options,
	 "turn sharding constraints into reshards"},
	{"sdy-close-shardings", sli_pass_close_shardings, no_options,
	 "close every sharding and drop replicated axes"},
	{"sdy-drop-sharding-rules", sli_pass_drop_sharding_rules, no_options,
	 "remove non-custom sdy.sharding_rule attributes"},
	{"sdy-update-non-divisible-input-output-shardings", sli_pass_update_non_divisible_input_output_shardings, no_options,
	 "cut input/output shardings to their longest divisible prefix"},
	{"sdy-remove-sub-axes-in-input-output-shardings", sli_pass_remove_sub_axes_in_input_output_shardings, no_options,
	 "drop sub-axes from open dimensions of main's shardings"},
	{"sdy-propagate-to-func-results", sli_pass_propagate_to_func_results, no_options,
	 "copy returned value shardings to non-main function results"},
	{"sdy-export-named-computations", sli_pass_export_named_computations, no_options,
	 "turn named computations into private functions and calls"},
	{"sdy-unflatten-call-graph", sli_pass_unflatten_call_graph, no_options,
	 "call one clone per original function and sharding signature"},
	{"sdy-propagation-pipeline", sli_pass_propagation_pipeline, pipeline_options,
	 "import passes, user-priority propagation and the export steps"},
	{"sdy-explicit-gather-scatter-batching", sli_pass_explicit_gather_scatter_batching, no_options,
	 "make the iota-indexed dimension 0 of gathers and scatters an explicit batch dimension"},
};
const size_t sli_npasses = sizeof sli_passes / sizeof *sli_passes;

const sli_pass_info *
sli_pass_find(const char *flag, size_t n)
{
	for (size_t i = 0; i < sli_npasses; i++)
		if (strlen(sli_passes[i].flag) == n && !memcmp(sli_passes[i].flag, flag, n))
			return &sli_passes[i];
	return NULL;
}

int
sli_pass_opts_parse(const sli_pass_info *p, const char *text, sli_pass_opts *out,
                    char *err, size_t errlen)
{
	out->v = NULL;
	out->n = 0;
	if (!text)
		return 0;
	size_t len = strlen(text);
	if (len >= 2 && text[0] == '{' && text[len - 1] == '}') {
		text++;
		len -= 2;
	}
	char *buf = sli_xstrndup(text, len);
	char *save = NULL;
	for (char *tok = strtok_r(buf, " ,", &save); tok; tok = strtok_r(NULL, " ,", &save)) {
		char *eq = strchr(tok, '=');
		if (eq)
			*eq = 0;
		const char *key = tok, *value = eq ? eq + 1 : "true";
		bool known = false;
		for (const char *const *k = p->options; *k; k++)
			known |= !strcmp(*k, key);
		if (!known) {
			snprintf(err, errlen, "unknown option '%s' for pass '%s'", key, p->flag);
			free(buf);
			sli_pass_opts_free(out);
			return -1;
		}
		out->v = sli_xrealloc(out->v, sizeof *out->v * (out->n + 1));
		out->v[out->n].key = sli_xstrdup(key);
		out->v[out->n].value = sli_xstrdup(value);
		out->n++;
	}
	free(buf);
	return 0;
}

void
sli_pass_opts_free(sli_pass_opts *o)
{
	for (uint32_t i = 0; i < o->n; i++) {
		free((char *)o->v[i].key);
		free((char *)o->v[i].value);
	}
	free(o->v);
	o->v = NULL;
	o->n = 0;
}

const char *
sli_pass_opt_str(const sli_pass_opts *o, const char *key)
{
	const char *v = NULL;
	for (uint32_t i = 0; o && i < o->n; i++)
		if (!strcmp(o->v[i].key, key))
			v = o->v[i].value;
	return v;
}

bool
sli_pass_opt_bool(const sli_pass_opts *o, const char *key, bool def)
{
	const char *v = sli_pass_opt_str(o, key);
	if (!v)
		return def;
	return !strcmp(v, "true") || !strcmp(v, "1");
}

bool
sl_pass_exists(const char *name)
{
	return sli_pass_find(name, strlen(name)) != NULL;
}

const char *
sl_pass_name(size_t i, const char **summary)
{
	if (i >= sli_npasses)
		return NULL;
	if (summary)
		*summary = sli_passes[i].summary;
	return sli_passes[i].flag;
}

int
sl_pass_run(sl_module *m, const char *name, const char *options, char *err, size_t errlen)
{
	const sli_pass_info *p = sli_pass_find(name, strlen(name));
	if (!p) {
		snprintf(err, errlen, "unknown pass '%s'", name);
		return -2;
	}
	sli_pass_opts opts;
	if (sli_pass_opts_parse(p, options, &opts, err, errlen))
		return -2;
	int rc = p->run(m, &opts);
	sli_pass_opts_free(&opts);
	return rc ? -1 : 0;
}
