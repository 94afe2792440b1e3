/*
 * cli_solve.h - what `shardlp solve` and `shardlp compare` share: the
 * cost-model options (shardlp-cost(7)) and a loader that parses and
 * verifies one file.  Defined in cmd_solve.c.
 */
#ifndef SL_CLI_CLI_SOLVE_H
#define SL_CLI_CLI_SOLVE_H

#include "cli/cli.h"
#include "cost/cost.h"

enum {
	CLI_OPT_MEMORY_WEIGHT = 2000,
	CLI_OPT_COMM_WEIGHT,
	CLI_OPT_COMPUTE_WEIGHT,
	CLI_OPT_MEMORY_BUDGET,
	CLI_OPT_CONSERVATIVE,
	CLI_OPT_AXIS
};

#define CLI_COST_LONGOPTS \
	{"memory-weight", required_argument, NULL, CLI_OPT_MEMORY_WEIGHT}, \
	{"comm-weight", required_argument, NULL, CLI_OPT_COMM_WEIGHT}, \
	{"compute-weight", required_argument, NULL, CLI_OPT_COMPUTE_WEIGHT}, \
	{"memory-budget", required_argument, NULL, CLI_OPT_MEMORY_BUDGET}, \
	{"conservative", no_argument, NULL, CLI_OPT_CONSERVATIVE}, \
	{"axis", required_argument, NULL, CLI_OPT_AXIS}

typedef struct cli_cost_opts {
	sli_cost_params params;
	sli_cost_axis axes[SLI_COST_MAX_AXES];
	char *names[SLI_COST_MAX_AXES];
	uint32_t naxes;
} cli_cost_opts;

void cli_cost_opts_init(cli_cost_opts *co);
void cli_cost_opts_fini(cli_cost_opts *co);
/* Handles a cost option: 0 taken, 1 not a cost option, -1 bad value. */
int cli_cost_option(cli_cost_opts *co, int c, const char *arg);
extern const char cli_cost_help[];

/* Reads, parses and verifies one file; NULL after printing diagnostics. */
sl_module *cli_load(sl_context *ctx, cli_sink *sink, const char *path, char **text);

#endif
