/*
 * options.h - the typed options of the passes (spec/propagation.md 8.2,
 * spec/import-passes.md): one struct per pass family, parsed once from an
 * sdy_opt-style option string ("a=1,b=true" or "{a=1 b=true}") against
 * the option table of the pass.  An option the pass does not take, or a
 * value its type does not allow, is an error with a message; nothing is
 * read by name after parsing.
 * Ownership: sli_pass_opts is caller-owned (init, or parse; then fini),
 * and its strings are heap copies that fini frees.
 */
#ifndef SL_PASSES_OPTIONS_H
#define SL_PASSES_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

/* sdy-populate-op-sharding-rules */
typedef struct sli_rules_pass_opts {
	bool conservative;		/* conservative-propagation */
} sli_rules_pass_opts;

/* sdy-import-func-calls */
typedef struct sli_import_calls_opts {
	bool edges_on_named;		/* add-data-flow-edges-on-named-computations (true) */
} sli_import_calls_opts;

/* sdy-apply-sharding-constraints */
typedef struct sli_apply_opts {
	bool debug_origins;		/* debug-sharding-origins (taken, no effect) */
	bool debug_edges;		/* debug-propagation-edge-sharding */
} sli_apply_opts;

/* sdy-import-pipeline, sdy-propagation-pipeline and sdy-unflatten-call-graph */
typedef struct sli_pipeline_opts {
	bool dedup_fully;		/* dedup-functions-fully */
} sli_pipeline_opts;

/* sdy-sink-data-flow-edges */
typedef struct sli_sink_opts {
	bool debug_origins;		/* sink-debug-sharding-origins */
	bool debug_edges;		/* sink-debug-propagation-edge-sharding */
} sli_sink_opts;

/* sdy-reshard-to-collectives */
typedef struct sli_rtc_opts {
	bool keep_redundant;		/* keep-redundant-reshards */
} sli_rtc_opts;

/* sdy-insert-explicit-reshards */
typedef struct sli_xr_opts {
	bool full;			/* enable-full-version */
} sli_xr_opts;

/* sdy-resolve-permutation-factors and sdy-per-instruction-partitioning */
typedef struct sli_pip_opts {
	bool halo;			/* enable-halo-exchange (true) */
	int replicas, partitions;	/* replica-count, partition-count (taken) */
	const char *filter;		/* filter (per-instruction only), NULL if none */
} sli_pip_opts;

/* sdy-export-pipeline (with dedup-functions-fully of sli_pipeline_opts) */
typedef struct sli_export_opts {
	bool collectives;		/* enable-insert-explicit-collectives */
	bool cmv1;			/* remove-all-gather-reduce-scatter-for-cmv1 */
	bool keep_rules;		/* keep-sharding-rules */
	bool avoid_partitioning;	/* avoid-export-for-partitioning */
	bool update_io;			/* update-non-divisible-input-output-shardings (true) */
} sli_export_opts;

/* The propagation strategies (propagation-strategy). */
enum {
	SLI_STRATEGY_AGGRESSIVE,
	SLI_STRATEGY_BASIC,
	SLI_STRATEGY_BASIC_THEN_AGGRESSIVE
};

/* Which propagation pass is running (spec 7.1 step 4). */
enum {
	SLI_PROP_BASIC,
	SLI_PROP_AGGRESSIVE,
	SLI_PROP_OP_PRIORITY,
	SLI_PROP_USER_PRIORITY
};

/* The four propagation passes. */
typedef struct sli_prop_opts {
	int pass;			/* SLI_PROP_*, set by the pass */
	int strategy;			/* SLI_STRATEGY_* (aggressive) */
	bool keep_sharding_rules;
	bool conservative;		/* conservative-propagation */
	bool debug_origins;		/* debug-sharding-origins */
	bool debug_edges;		/* debug-propagation-edge-sharding */
	bool debug_edge_source;		/* debug-edge-source-sharding: ORed into debug_edges */
	bool op_priority;		/* run-op-priority-propagation (true) */
	const char *dump_dir;		/* module-dump-directory, NULL if none */
	int dump_index;			/* dump-index: NN of the dump file names */
} sli_prop_opts;

/* The options of one pass run: the parser fills the family of its pass,
 * the other families keep their defaults. */
typedef struct sli_pass_opts {
	sli_rules_pass_opts rules;
	sli_import_calls_opts import_calls;
	sli_apply_opts apply;
	sli_pipeline_opts pipeline;
	sli_prop_opts prop;
	sli_sink_opts sink;
	sli_rtc_opts rtc;
	sli_xr_opts xr;
	sli_export_opts exp;
	sli_pip_opts pip;
} sli_pass_opts;

/* How an option's value is read. */
typedef enum sli_opt_type {
	SLI_OPT_BOOL,			/* true, false, 1 or 0; no value: true */
	SLI_OPT_STR,			/* quoted ('...' or "...") or up to a space */
	SLI_OPT_INT,			/* a decimal number, 0 or more */
	SLI_OPT_STRATEGY		/* basic, aggressive or basic-then-aggressive */
} sli_opt_type;

/* One option: its spelling, type, and field in sli_pass_opts. */
typedef struct sli_opt_spec {
	const char *key;
	sli_opt_type type;
	size_t offset;
} sli_opt_spec;

/* The options of a pass family: its own, then those of `base`. */
typedef struct sli_opt_family {
	const sli_opt_spec *specs;	/* ends with a NULL key */
	const struct sli_opt_family *base;
} sli_opt_family;

extern const sli_opt_family sli_opts_none, sli_opts_rules, sli_opts_import_calls,
	sli_opts_apply, sli_opts_pipeline, sli_opts_propagate, sli_opts_strategy,
	sli_opts_priority, sli_opts_sink, sli_opts_rtc, sli_opts_xr, sli_opts_export,
	sli_opts_permutation, sli_opts_pip;

/* Every option at its default. */
void sli_pass_opts_init(sli_pass_opts *o);
/*
 * Parses text (NULL: no options) for pass `pass` taking the options of
 * family f into *o: 0, or -1 with *o at its defaults and a message in err
 * (e.g. "unknown option 'x' for pass 'p'").  A later option wins.
 */
int sli_pass_opts_parse_text(const sli_opt_family *f, const char *pass,
                             const char *text, sli_pass_opts *o, char *err,
                             size_t errlen);
void sli_pass_opts_fini(sli_pass_opts *o);

#endif
