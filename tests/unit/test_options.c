/*
 * test_options.c - passes/options.c: option strings parsed into the typed
 * structs of each pass family; unknown options and bad values rejected
 * with a message naming them; the defaults when nothing is given.
 */
#include "tests.h"

#include <string.h>

#include "pipeline/registry.h"

/* Parses text for the pass named flag; err holds the message on -1. */
static int
parse(const char *flag, const char *text, sli_pass_opts *o, char *err, size_t n)
{
	const sli_pass_info *p = sli_pass_find(flag, strlen(flag));
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	err[0] = 0;
	return sli_pass_opts_parse(p, text, o, err, n);
}

static void
test_defaults(void)
{
	sli_pass_opts o;
	char err[256];
	CU_ASSERT_EQUAL(parse("sdy-aggressive-propagate", NULL, &o, err, sizeof err), 0);
	CU_ASSERT_EQUAL(o.prop.strategy, SLI_STRATEGY_AGGRESSIVE);
	CU_ASSERT_TRUE(o.prop.op_priority);
	CU_ASSERT_FALSE(o.prop.conservative);
	CU_ASSERT_PTR_NULL(o.prop.dump_dir);
	CU_ASSERT_TRUE(o.import_calls.edges_on_named);
	CU_ASSERT_FALSE(o.pipeline.dedup_fully);
	sli_pass_opts_fini(&o);
}

static void
test_good(void)
{
	sli_pass_opts o;
	char err[256];
	CU_ASSERT_EQUAL(parse("sdy-user-priority-propagate",
	                      "{conservative-propagation=true propagation-strategy=basic-then-aggressive "
	                      "run-op-priority-propagation=0 module-dump-directory=/tmp/d dump-index=7 "
	                      "debug-edge-source-sharding}", &o, err, sizeof err), 0);
	CU_ASSERT_TRUE(o.prop.conservative);
	CU_ASSERT_EQUAL(o.prop.strategy, SLI_STRATEGY_BASIC_THEN_AGGRESSIVE);
	CU_ASSERT_FALSE(o.prop.op_priority);
	CU_ASSERT_STRING_EQUAL(o.prop.dump_dir, "/tmp/d");
	CU_ASSERT_EQUAL(o.prop.dump_index, 7);
	CU_ASSERT_TRUE(o.prop.debug_edges);	/* the alias sets it */
	sli_pass_opts_fini(&o);

	/* a later option wins; commas separate too */
	CU_ASSERT_EQUAL(parse("sdy-populate-op-sharding-rules",
	                      "conservative-propagation=true,conservative-propagation=false",
	                      &o, err, sizeof err), 0);
	CU_ASSERT_FALSE(o.rules.conservative);
	sli_pass_opts_fini(&o);

	CU_ASSERT_EQUAL(parse("sdy-import-func-calls",
	                      "add-data-flow-edges-on-named-computations=false", &o, err,
	                      sizeof err), 0);
	CU_ASSERT_FALSE(o.import_calls.edges_on_named);
	CU_ASSERT_EQUAL(parse("sdy-sink-data-flow-edges", "sink-debug-sharding-origins",
	                      &o, err, sizeof err), 0);
	CU_ASSERT_TRUE(o.sink.debug_origins);
	CU_ASSERT_FALSE(o.sink.debug_edges);
	CU_ASSERT_EQUAL(parse("sdy-propagation-pipeline", "dedup-functions-fully=1", &o, err,
	                      sizeof err), 0);
	CU_ASSERT_TRUE(o.pipeline.dedup_fully);
}

static void
test_unknown(void)
{
	sli_pass_opts o;
	char err[256];
	CU_ASSERT_EQUAL(parse("canonicalize", "x=1", &o, err, sizeof err), -1);
	CU_ASSERT_STRING_EQUAL(err, "unknown option 'x' for pass 'canonicalize'");
	/* basic propagation has no strategy to choose */
	CU_ASSERT_EQUAL(parse("sdy-basic-propagate", "propagation-strategy=basic", &o, err,
	                      sizeof err), -1);
	CU_ASSERT_STRING_EQUAL(err, "unknown option 'propagation-strategy' for pass "
	                       "'sdy-basic-propagate'");
	CU_ASSERT_EQUAL(parse("sdy-aggressive-propagate", "run-op-priority-propagation=false",
	                      &o, err, sizeof err), -1);
}

static void
test_bad_value(void)
{
	sli_pass_opts o;
	char err[256];
	CU_ASSERT_EQUAL(parse("sdy-basic-propagate", "conservative-propagation=maybe", &o,
	                      err, sizeof err), -1);
	CU_ASSERT_STRING_EQUAL(err, "invalid value 'maybe' for option 'conservative-propagation' "
	                       "of pass 'sdy-basic-propagate' (expected true or false)");
	CU_ASSERT_FALSE(o.prop.conservative);	/* left at the defaults */
	CU_ASSERT_EQUAL(parse("sdy-aggressive-propagate", "propagation-strategy=fast", &o,
	                      err, sizeof err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "(expected basic, aggressive or basic-then-aggressive)"));
	CU_ASSERT_EQUAL(parse("sdy-op-priority-propagate",
	                      "module-dump-directory=/tmp/d dump-index=two", &o, err, sizeof err), -1);
	CU_ASSERT_STRING_EQUAL(err, "invalid value 'two' for option 'dump-index' of pass "
	                       "'sdy-op-priority-propagate' (expected a number from 0 to 999999)");
	CU_ASSERT_PTR_NULL(o.prop.dump_dir);	/* freed on the error */
	CU_ASSERT_EQUAL(parse("sdy-op-priority-propagate", "dump-index=-1", &o, err,
	                      sizeof err), -1);
}

CU_TestInfo tests_options[] = {
	{"no options: every default", test_defaults},
	{"good options fill their family's struct", test_good},
	{"an option the pass does not take", test_unknown},
	{"a value the option's type does not allow", test_bad_value},
	CU_TEST_INFO_NULL,
};
