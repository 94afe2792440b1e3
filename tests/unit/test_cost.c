/*
 * test_cost.c - src/cost: the model's price (the ILP's objective) against
 * costs computed by hand from the formulas of shardlp-cost(7), one tiny
 * module per collective the model prices (all-gather, all-to-all,
 * all-reduce, the free local slice and axis permutation), plus peak
 * memory, compute and the per-axis bandwidth and latency; the ILP's edge
 * terms against the reshard; and the evaluator's price of the collectives
 * the export emits, where it differs from the model's (several axes, a
 * permute, an op's all-reduce); a program on two meshes.
 *
 * The cluster of these tests (unit_cluster): every link 1e6 bytes/s with
 * no latency, so that a collective on an axis of n devices costs its
 * steps times its step's bytes in microseconds (the model's unit); the
 * device 1e6 FLOP/s, so that a flop costs 1 us; no memory budget.  f32
 * is 4 bytes.
 */
#include "tests.h"

#include <stdlib.h>
#include <string.h>

#include "cost/cost.h"
#include "cost/memo.h"
#include "cost/primitives.h"
#include "cost/terms.h"
#include "ir/ir.h"

#define MESH4 "sdy.mesh @mesh = <[\"a\"=4]>\n"
#define T88 "tensor<8x8xf32>"

static void
unit_cluster(sli_cost_params *p)
{
	sli_cost_params_init(p);
	p->bandwidth = 1e6;
	p->latency = 0;
	p->flops = 1e6;
	p->hbm = 0;
}

/*
 * The model's price (emitted: false) or the evaluator's score (true) of
 * text under p (NULL: unit_cluster); asserts it ran.
 */
static sli_cost_parts
score_as(const char *text, const sli_cost_params *p, bool emitted)
{
	sli_cost_params unit;
	if (!p) {
		unit_cluster(&unit);
		p = &unit;
	}
	sli_cost_parts parts;
	memset(&parts, 0, sizeof parts);
	sl_context *ctx = sl_context_new();
	sl_module *m = test_parse(ctx, text);
	CU_ASSERT_PTR_NOT_NULL(m);
	if (m) {
		CU_ASSERT_EQUAL(sl_module_verify(m), 0);
		CU_ASSERT_EQUAL(emitted ? sli_cost_eval(m, p, &parts, NULL)
		                        : sli_cost_eval_model(m, p, &parts, NULL), 0);
	}
	sl_module_free(m);
	sl_context_free(ctx);
	return parts;
}

static sli_cost_parts
score(const char *text, const sli_cost_params *p)
{
	return score_as(text, p, false);
}

/*
 * Each part within a relative 1e-12 of the hand-computed value: peak live
 * bytes per device, communication and compute in microseconds.
 */
static void
expect(const sli_cost_parts *got, double peak, double comm, double compute)
{
	CU_ASSERT_DOUBLE_EQUAL(got->peak_bytes, peak, 1e-12 * peak);
	CU_ASSERT_DOUBLE_EQUAL(got->communication, comm, 1e-12 * comm + 1e-18);
	CU_ASSERT_DOUBLE_EQUAL(got->compute, compute, 1e-12 * compute + 1e-18);
	CU_ASSERT_DOUBLE_EQUAL(got->total, comm + compute,
	                       1e-12 * (comm + compute) + 1e-18);
}

/*
 * Memory: one argument 8x16xf32 on [{"a"}, {"b"}] of a 4x2 mesh.
 * pb = 4 * ceil(8/4) * ceil(16/2) = 4 * 2 * 8 = 64 bytes, the peak;
 * nothing else.
 */
static void
test_memory(void)
{
	sli_cost_parts p = score(
		"sdy.mesh @mesh = <[\"a\"=4, \"b\"=2]>\n"
		"func.func @f(%arg0: tensor<8x16xf32> {sdy.sharding = "
		"#sdy.sharding<@mesh, [{\"a\"}, {\"b\"}]>}) -> tensor<8x16xf32> {\n"
		"  return %arg0 : tensor<8x16xf32>\n}\n", NULL);
	expect(&p, 64, 0, 0);
}

/*
 * All-gather: sdy.all_gather of "a" (n_a = 4) from dim 0 of an 8x8xf32.
 * Operand pb = 4 * 2 * 8 = 64 bytes, result (replicated) 4 * 8 * 8 = 256.
 * Both live to the end (an argument, a returned value): peak 320;
 * all-gather = (n_a - 1) (lat_a + p / bw_a) = 3 * 64 us = 192 us;
 * compute 0 (an sdy op moves data).
 */
static void
test_all_gather(void)
{
	sli_cost_parts p = score(MESH4
		"func.func @f(%arg0: " T88 " {sdy.sharding = "
		"#sdy.sharding<@mesh, [{\"a\"}, {}]>}) -> " T88 " {\n"
		"  %0 = sdy.all_gather [{\"a\"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]> : " T88 "\n"
		"  return %0 : " T88 "\n}\n", NULL);
	expect(&p, 320, 192, 0);
}

/*
 * The same all-gather with --axis a=2M:0.5u (2e6 bytes/s, 0.5 us):
 * all-gather = 3 * (0.5 + 64 / 2) us = 97.5 us; peak as above, 320.
 */
static void
test_bandwidth_latency(void)
{
	sli_cost_params cp;
	sli_cost_axis ax = {"a", 2e6, 0.5e-6};
	unit_cluster(&cp);
	cp.axes = &ax;
	cp.naxes = 1;
	sli_cost_parts p = score(MESH4
		"func.func @f(%arg0: " T88 " {sdy.sharding = "
		"#sdy.sharding<@mesh, [{\"a\"}, {}]>}) -> " T88 " {\n"
		"  %0 = sdy.all_gather [{\"a\"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]> : " T88 "\n"
		"  return %0 : " T88 "\n}\n", &cp);
	expect(&p, 320, 97.5, 0);
}

/*
 * All-to-all: "a" moves from dim 0 to dim 1 of an 8x8xf32.
 * Operand and result pb = 4 * 2 * 8 = 64 bytes each:
 * peak 128; all-to-all = (n_a - 1) (lat_a + p / n_a / bw_a) = 3 * 16 us
 * = 48 us.
 */
static void
test_all_to_all(void)
{
	sli_cost_parts p = score(MESH4
		"func.func @f(%arg0: " T88 " {sdy.sharding = "
		"#sdy.sharding<@mesh, [{\"a\"}, {}]>}) -> " T88 " {\n"
		"  %0 = sdy.all_to_all [{\"a\"}: 0->1] %arg0 out_sharding=<@mesh, [{}, {\"a\"}]> : " T88 "\n"
		"  return %0 : " T88 "\n}\n", NULL);
	expect(&p, 128, 48, 0);
}

/*
 * Local slice: sdy.all_slice of a replicated 8x8xf32 onto "a" is free.
 * peak 256 + 64 = 320; communication 0.
 */
static void
test_all_slice(void)
{
	sli_cost_parts p = score(MESH4
		"func.func @f(%arg0: " T88 ") -> " T88 " {\n"
		"  %0 = sdy.all_slice [{\"a\"}, {}] %arg0 out_sharding=<@mesh, [{\"a\"}, {}]> : " T88 "\n"
		"  return %0 : " T88 "\n}\n", NULL);
	expect(&p, 320, 0, 0);
}

/*
 * Collective permute: [{"a", "b"}, {}] to [{"b", "a"}, {}] on a 2x2 mesh
 * keeps the set of axes of each dim, which the model prices as free
 * (shardlp-cost(7), CAVEATS).  pb = 4 * 2 * 8 = 64 bytes each:
 * peak 128; communication 0.
 */
static void
test_collective_permute(void)
{
	sli_cost_parts p = score(
		"sdy.mesh @mesh = <[\"a\"=2, \"b\"=2]>\n"
		"func.func @f(%arg0: " T88 " {sdy.sharding = "
		"#sdy.sharding<@mesh, [{\"a\", \"b\"}, {}]>}) -> " T88 " {\n"
		"  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{\"b\", \"a\"}, {}]> : " T88 "\n"
		"  return %0 : " T88 "\n}\n", NULL);
	expect(&p, 128, 0, 0);
}

/*
 * All-reduce and compute: a dot_general 8x16 . 16x4 -> 8x4 whose
 * contracting factor (16) both operands shard on "a".  The cheapest
 * assignment puts "a" on it: no reshard, one all-reduce of the result
 * at its projected size, 4 * 8 * 4 = 128 bytes:
 * all-reduce = 2 (n_a - 1) (lat_a + p / n_a / bw_a) = 6 * 32 us = 192 us;
 * flops = 2 * 8 * ceil(16/4) * 4 = 256, compute 256 us;
 * peak: 4*8*4 + 4*4*4 + 128 = 128 + 64 + 128 = 320 bytes (all live to
 * the end).  (Replicating instead gathers both operands, 3 * 128 + 3 * 64
 * = 576 us, and computes 1024 flops: dearer.)
 */
static void
test_all_reduce(void)
{
	sli_cost_parts p = score(MESH4
		"func.func @f(%arg0: tensor<8x16xf32> {sdy.sharding = "
		"#sdy.sharding<@mesh, [{}, {\"a\"}]>}, %arg1: tensor<16x4xf32> "
		"{sdy.sharding = #sdy.sharding<@mesh, [{\"a\"}, {}]>}) -> tensor<8x4xf32> {\n"
		"  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] "
		"{sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : "
		"(tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>\n"
		"  return %0 : tensor<8x4xf32>\n}\n", NULL);
	expect(&p, 320, 192, 256);
}

/*
 * Compute of an elementwise op: add of two 8x8xf32 on [{"a"}, {}] into
 * the same.  flops = 1 * ceil(8/4) * 8 = 16, compute 16 us; peak 3 * 64
 * = 192; no reshard.
 */
static void
test_compute(void)
{
	sli_cost_parts p = score(MESH4
		"func.func @f(%arg0: " T88 " {sdy.sharding = #sdy.sharding<@mesh, [{\"a\"}, {}]>}, "
		"%arg1: " T88 " {sdy.sharding = #sdy.sharding<@mesh, [{\"a\"}, {}]>}) -> " T88 " {\n"
		"  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = "
		"#sdy.sharding_per_value<[<@mesh, [{\"a\"}, {}]>]>} : " T88 "\n"
		"  return %0 : " T88 "\n}\n", NULL);
	expect(&p, 192, 0, 16);
}

/*
 * The ILP's edge terms (terms.h) against the reshard primitive: for every
 * pair of shardings of an 8x8 tensor on a 4x2 mesh, the gathers the
 * source pays less the refunds the target earns (same dim: the first,
 * used elsewhere: the second) equal sli_cost_reshard.
 */
static void
test_terms_match_reshard(void)
{
	sl_context *ctx = sl_context_new();
	sl_module *m = test_parse(ctx,
		"sdy.mesh @mesh = <[\"a\"=4, \"b\"=2]>\n"
		"func.func @f(%arg0: " T88 ") -> " T88 " {\n"
		"  return %arg0 : " T88 "\n}\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	sli_cost_model cm;
	sli_cost_params cp;
	unit_cluster(&cp);
	CU_ASSERT_FATAL(sli_cost_model_build(m, &cp, &cm) == 0);
	sli_cost_asg *opt;
	size_t n = sli_cost_tensor_options(&cm, 0, &opt);
	CU_ASSERT_EQUAL(n, 9);	/* each of 2 axes on dim 0, dim 1 or none */
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			double bytes = sli_cost_term_bytes(&cm, 0, &opt[i]), c = 0;
			sli_cost_term_gathers(&cm, &opt[i], bytes, &c);
			for (uint32_t a = 0; a < cm.naxes; a++) {
				int from = opt[i].a[a], to = opt[j].a[a];
				if (from >= 0 && to == from)
					c -= sli_cost_term_refund(&cm, a, bytes, true);
				if (from >= 0 && to >= 0)
					c -= sli_cost_term_refund(&cm, a, bytes, false);
			}
			double want = sli_cost_reshard(&cm, &opt[i], bytes, &opt[j], NULL);
			CU_ASSERT_DOUBLE_EQUAL(c, want, 1e-15);
			CU_ASSERT_DOUBLE_EQUAL(sli_cost_term_reshard(&cm, &opt[i], bytes,
			                                             &opt[j]), want, 0);
		}
	free(opt);
	sli_cost_model_fini(&cm);
	sl_module_free(m);
	sl_context_free(ctx);
}

/*
 * A data-flow edge (as the import steps add it) is its owner's tensor,
 * read through the edge: an optimization_barrier's result on [{"a"}, {}]
 * by its edge, and the argument on the same.  Peak 64 + 64 = 128 (no
 * third tensor for the edge); no reshard.
 */
static void
test_edge_is_its_owner(void)
{
	sli_cost_parts p = score(MESH4
		"func.func @f(%arg0: " T88 " {sdy.sharding = "
		"#sdy.sharding<@mesh, [{\"a\"}, {}]>}) -> " T88 " {\n"
		"  %0 = stablehlo.optimization_barrier %arg0 : " T88 "\n"
		"  %1 = sdy.data_flow_edge %0 sharding=<@mesh, [{\"a\"}, {}]> : " T88 "\n"
		"  return %1 : " T88 "\n}\n", NULL);
	expect(&p, 128, 0, 0);
}

/*
 * A loop whose operand is on [{"a"}, {}] and whose carried value is
 * replicated: the operand is resharded into it, an all-gather of 64
 * bytes per device over "a": 3 * 64 us = 192 us.  Peak: in program
 * order (regions before their op) the condition's argument (256 bytes,
 * unused) and its i1 constant (1) live with the argument (64): 321; the
 * body's argument and then the loop's result (256 each) live with the
 * argument alone: 320.
 */
static void
test_loop_operand_reshards(void)
{
	sli_cost_parts p = score(MESH4
		"func.func @f(%arg0: " T88 " {sdy.sharding = "
		"#sdy.sharding<@mesh, [{\"a\"}, {}]>}) -> " T88 " {\n"
		"  %0 = stablehlo.while(%iterArg = %arg0) : " T88 " attributes {sdy.sharding = "
		"#sdy.sharding_per_value<[<@mesh, [{}, {}]>]>}\n"
		"    cond {\n"
		"    %c = stablehlo.constant dense<true> : tensor<i1>\n"
		"    stablehlo.return %c : tensor<i1>\n"
		"  } do {\n"
		"    stablehlo.return %iterArg : " T88 "\n"
		"  }\n"
		"  return %0 : " T88 "\n}\n", NULL);
	expect(&p, 321, 192, 0);
}

/*
 * Peak memory over the program order: a chain of three negates of an
 * 8x8xf32 on [{"a"}, {}] (64 bytes each).  The argument lives throughout;
 * %0 dies at %1, %1 at %2: at most three tensors live at once, 192
 * bytes, though the four sum to 256.
 */
static void
test_peak_is_live(void)
{
	static const char text[] = MESH4
		"func.func @f(%arg0: " T88 " {sdy.sharding = "
		"#sdy.sharding<@mesh, [{\"a\"}, {}]>}) -> " T88 " {\n"
		"  %0 = stablehlo.negate %arg0 {sdy.sharding = "
		"#sdy.sharding_per_value<[<@mesh, [{\"a\"}, {}]>]>} : " T88 "\n"
		"  %1 = stablehlo.negate %0 {sdy.sharding = "
		"#sdy.sharding_per_value<[<@mesh, [{\"a\"}, {}]>]>} : " T88 "\n"
		"  %2 = stablehlo.negate %1 {sdy.sharding = "
		"#sdy.sharding_per_value<[<@mesh, [{\"a\"}, {}]>]>} : " T88 "\n"
		"  return %2 : " T88 "\n}\n";
	sli_cost_parts p = score(text, NULL);
	expect(&p, 192, 0, 3 * 16);

	/* a budget of 200 bytes binds (replicated, three live tensors take
	 * 3 * 256); the model keeps one row per maximal live set */
	sl_context *ctx = sl_context_new();
	sl_module *m = test_parse(ctx, text);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	sli_cost_params cp;
	unit_cluster(&cp);
	cp.memory_budget = 200;
	sli_cost_model cm;
	CU_ASSERT_FATAL(sli_cost_model_build(m, &cp, &cm) == 0);
	CU_ASSERT_DOUBLE_EQUAL(cm.budget, 200, 0);
	CU_ASSERT(cm.budget_binds);	/* replicated: 3 * 256 > 200 */
	/* live sets {arg, %0} at the first negate, {arg, %0, %1}, {arg, %1,
	 * %2}: the maximal ones are the last two */
	CU_ASSERT_EQUAL(cm.row_start.n, 3);
	for (size_t r = 0; r + 1 < cm.row_start.n; r++)
		CU_ASSERT_EQUAL(cm.row_start.v[r + 1] - cm.row_start.v[r], 3);
	sli_cost_model_fini(&cm);
	/* a budget above the replicated peak never binds: no rows */
	cp.memory_budget = 1e6;
	CU_ASSERT_FATAL(sli_cost_model_build(m, &cp, &cm) == 0);
	CU_ASSERT(!cm.budget_binds);
	CU_ASSERT_EQUAL(cm.rows.n, 0);
	sli_cost_model_fini(&cm);
	sl_module_free(m);
	sl_context_free(ctx);
}

/*
 * A broadcast of a scalar, %0, used by an add on [{"a", "b"}, {}] (mesh
 * a=2, b=2): on [{"b"}, {}] or on [{"a", "b"}, {}] it costs the model
 * the same (the add keeps "b" on dim 0), while the export gathers "b"
 * from the first; sli_cost_tidy moves %0 to the second (in the model of
 * the second: a written sharding pins %0 to its own).
 */
static void
tidy_text(char *buf, size_t n, const char *s)
{
	snprintf(buf, n, "sdy.mesh @mesh = <[\"a\"=2, \"b\"=2]>\n"
		"func.func @f(%%arg0: " T88 " {sdy.sharding = #sdy.sharding<@mesh, "
		"[{\"a\", \"b\"}, {}]>}, %%arg1: tensor<f32>) -> " T88 " {\n"
		"  %%0 = stablehlo.broadcast_in_dim %%arg1, dims = [] {sdy.sharding = "
		"#sdy.sharding_per_value<[<@mesh, [%s, {}]>]>} : (tensor<f32>) -> "
		T88 "\n"
		"  %%1 = stablehlo.add %%arg0, %%0 {sdy.sharding = #sdy.sharding_per_value"
		"<[<@mesh, [{\"a\", \"b\"}, {}]>]>} : " T88 "\n"
		"  return %%1 : " T88 "\n}\n", s);
}

/* The model and the shardings read from text; the tensors' count. */
static size_t
read_q(sl_context *ctx, const char *text, sl_module **m, sli_cost_model *cm,
       sli_cost_asg **q)
{
	sli_cost_params cp;
	unit_cluster(&cp);
	*m = test_parse(ctx, text);
	CU_ASSERT_PTR_NOT_NULL_FATAL(*m);
	CU_ASSERT_FATAL(sli_cost_model_build(*m, &cp, cm) == 0);
	*q = calloc(cm->tensors.n + 1, sizeof **q);
	CU_ASSERT_FATAL(sli_cost_read(cm, *q, NULL) == 0);
	return cm->tensors.n;
}

/*
 * The model of text `to` at the point of text `from`, which differ in one
 * tensor: sli_cost_tidy moves it to `to`'s sharding the wide way, and the
 * narrow way too when narrow, at the same model price; a tidy point
 * stays as it is.
 */
static void
tidy_moves(const char *from, const char *to, bool narrow)
{
	sl_context *ctx = sl_context_new();
	sl_module *m, *m2;
	sli_cost_model cm, cm2;
	sli_cost_asg *q, *q2;
	size_t n = read_q(ctx, from, &m, &cm, &q);
	CU_ASSERT_EQUAL_FATAL(read_q(ctx, to, &m2, &cm2, &q2), n);
	size_t differ = 0;
	for (size_t t = 0; t < n; t++)
		differ += memcmp(&q[t], &q2[t], sizeof *q) != 0;
	CU_ASSERT_EQUAL(differ, 1);
	sli_cost_parts before, after;
	CU_ASSERT_EQUAL(sli_cost_eval_asg(&cm2, q, &before, NULL), 0);
	sli_cost_tidy(&cm2, q, false);
	CU_ASSERT_EQUAL(memcmp(q, q2, n * sizeof *q) == 0, narrow);
	sli_cost_tidy(&cm2, q, true);
	CU_ASSERT_EQUAL(memcmp(q, q2, n * sizeof *q), 0);
	CU_ASSERT_EQUAL(sli_cost_eval_asg(&cm2, q, &after, NULL), 0);
	CU_ASSERT_DOUBLE_EQUAL(after.total, before.total, 1e-12);
	sli_cost_tidy(&cm2, q2, false);
	sli_cost_tidy(&cm2, q2, true);
	CU_ASSERT_EQUAL(memcmp(q, q2, n * sizeof *q), 0);
	free(q);
	free(q2);
	sli_cost_model_fini(&cm);
	sli_cost_model_fini(&cm2);
	sl_module_free(m);
	sl_module_free(m2);
	sl_context_free(ctx);
}

static void
test_tidy_reorder(void)
{
	char behind[2048], front[2048];
	tidy_text(behind, sizeof behind, "{\"b\"}");
	tidy_text(front, sizeof front, "{\"a\", \"b\"}");
	CU_ASSERT_DOUBLE_EQUAL(score(behind, NULL).total, score(front, NULL).total, 1e-12);
	CU_ASSERT(score_as(behind, NULL, true).communication >
	          score_as(front, NULL, true).communication + 1);
	/* the model of the second (where %0 may take it), at the point of
	 * the first */
	tidy_moves(behind, front, true);
}

/*
 * A dot whose result is on [{"a", "b"}, {}] (mesh a=2, b=2), its lhs %0
 * a negate of an argument on [{"a"}, {"b"}].  %0 on [{"a"}, {"b"}] or on
 * [{"a", "b"}, {}] costs the model the same: one all-to-all that moves
 * "b" to dim 0, into the dot or into the negate.  The export keeps "b"
 * on the contracting dim of the first and all-reduces the result, at
 * twice that (the lhs is the dot's largest tensor).  The wide tidy
 * moves %0 to the second; the narrow one, which only undoes reorders,
 * leaves it.
 */
static void
dot_text(char *buf, size_t n, const char *s)
{
	snprintf(buf, n, "sdy.mesh @mesh = <[\"a\"=2, \"b\"=2]>\n"
		"func.func @f(%%arg0: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, "
		"[{\"a\"}, {\"b\"}]>}, %%arg1: tensor<32x8xf32>) -> (" T88 " {sdy.sharding = "
		"#sdy.sharding<@mesh, [{\"a\", \"b\"}, {}]>}) {\n"
		"  %%0 = stablehlo.negate %%arg0 {sdy.sharding = "
		"#sdy.sharding_per_value<[<@mesh, %s>]>} : tensor<8x32xf32>\n"
		"  %%1 = stablehlo.dot_general %%0, %%arg1, contracting_dims = [1] x [0] "
		"{sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{\"a\", \"b\"}, {}]>]>}"
		" : (tensor<8x32xf32>, tensor<32x8xf32>) -> " T88 "\n"
		"  return %%1 : " T88 "\n}\n", s);
}

static void
test_tidy_wide(void)
{
	char split[2048], front[2048];
	dot_text(split, sizeof split, "[{\"a\"}, {\"b\"}]");
	dot_text(front, sizeof front, "[{\"a\", \"b\"}, {}]");
	CU_ASSERT_DOUBLE_EQUAL(score(split, NULL).total, score(front, NULL).total, 1e-12);
	/* a latency of 1 s a step: the all-reduce takes two, the
	 * all-to-all one */
	sli_cost_params p;
	unit_cluster(&p);
	p.latency = 1;
	double c1 = score_as(split, &p, true).communication;
	double c2 = score_as(front, &p, true).communication;
	CU_ASSERT_DOUBLE_EQUAL(score(split, &p).total, score(front, &p).total, 1e-12);
	CU_ASSERT(c2 >= 1);
	CU_ASSERT(c1 > 1.9 * c2);

	tidy_moves(split, front, false);
}

/* {====================================================================
 * The evaluator: the collectives the export emits
 * ===================================================================== */

#define REPLICATED88 T88 " {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}"

/*
 * A gather of "a" then "b" (mesh a=4, b=2) from [{"a", "b"}, {}] of an
 * 8x8xf32: p = 4 * 1 * 8 = 32 bytes; "a" gathers 3 * 32 = 96 us, then
 * "b" the gathered 128 bytes, 1 * 128 us: 224 us, one all-gather sending
 * 224 bytes.  (The model prices both axes at 32 bytes: 128 us.)
 */
static void
test_emitted_gather(void)
{
	static const char text[] =
		"sdy.mesh @mesh = <[\"a\"=4, \"b\"=2]>\n"
		"func.func @f(%arg0: " T88 " {sdy.sharding = "
		"#sdy.sharding<@mesh, [{\"a\", \"b\"}, {}]>}) -> (" REPLICATED88 ") {\n"
		"  %0 = sdy.all_gather [{\"a\", \"b\"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]> : " T88 "\n"
		"  return %0 : " T88 "\n}\n";
	sli_cost_parts p = score_as(text, NULL, true);
	CU_ASSERT_DOUBLE_EQUAL(p.communication, 224, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(p.ncoll[SLI_COLL_ALL_GATHER], 1, 0);
	CU_ASSERT_DOUBLE_EQUAL(p.coll_bytes[SLI_COLL_ALL_GATHER], 224, 1e-9);
	p = score(text, NULL);
	CU_ASSERT_DOUBLE_EQUAL(p.communication, 128, 1e-9);
}

/*
 * The permute of test_collective_permute, which the model prices free:
 * one step of its 64 bytes, 64 us.
 */
static void
test_emitted_permute(void)
{
	sli_cost_parts p = score_as(
		"sdy.mesh @mesh = <[\"a\"=2, \"b\"=2]>\n"
		"func.func @f(%arg0: " T88 " {sdy.sharding = "
		"#sdy.sharding<@mesh, [{\"a\", \"b\"}, {}]>}) -> (" T88 " {sdy.sharding = "
		"#sdy.sharding<@mesh, [{\"b\", \"a\"}, {}]>}) {\n"
		"  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{\"b\", \"a\"}, {}]> : " T88 "\n"
		"  return %0 : " T88 "\n}\n", NULL, true);
	CU_ASSERT_DOUBLE_EQUAL(p.communication, 64, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(p.ncoll[SLI_COLL_PERMUTE], 1, 0);
	CU_ASSERT_DOUBLE_EQUAL(p.coll_bytes[SLI_COLL_PERMUTE], 64, 1e-9);
}

/*
 * An all-reduce over "a" then "b" (a=4, b=2) of a replicated 8x8xf32
 * (256 bytes): reduce-scatters 3 * 64 + 1 * 32, all-gathers 1 * 32 +
 * 3 * 64 us (in all 2 (1 - 1/8) 256 = 448 us and bytes).  The model's
 * price of an op reducing over both: 6 * 256 / 8 + 2 * 256 / 8 = 256 us,
 * a bound.
 */
static void
test_emitted_all_reduce(void)
{
	sli_cost_parts p = score_as(
		"sdy.mesh @mesh = <[\"a\"=4, \"b\"=2]>\n"
		"func.func @f(%arg0: " REPLICATED88 ") -> (" REPLICATED88 ") {\n"
		"  %0 = sdy.all_reduce {\"a\", \"b\"} %arg0 out_sharding=<@mesh, [{}, {}]> : " T88 "\n"
		"  return %0 : " T88 "\n}\n", NULL, true);
	CU_ASSERT_DOUBLE_EQUAL(p.communication, 448, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(p.ncoll[SLI_COLL_ALL_REDUCE], 1, 0);
	CU_ASSERT_DOUBLE_EQUAL(p.coll_bytes[SLI_COLL_ALL_REDUCE], 448, 1e-9);
}

/*
 * The dot_general of test_all_reduce, its result returned replicated:
 * -sdy-insert-explicit-reshards all-reduces the result over "a", as the
 * model has it: 192 us.
 */
static void
test_emitted_op(void)
{
	sli_cost_parts p = score_as(MESH4
		"func.func @f(%arg0: tensor<8x16xf32> {sdy.sharding = "
		"#sdy.sharding<@mesh, [{}, {\"a\"}]>}, %arg1: tensor<16x4xf32> "
		"{sdy.sharding = #sdy.sharding<@mesh, [{\"a\"}, {}]>}) -> (tensor<8x4xf32> "
		"{sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {\n"
		"  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] "
		"{sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : "
		"(tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>\n"
		"  return %0 : tensor<8x4xf32>\n}\n", NULL, true);
	expect(&p, 320, 192, 256);
	CU_ASSERT_DOUBLE_EQUAL(p.ncoll[SLI_COLL_ALL_REDUCE], 1, 0);
}

/*
 * Two meshes (shardlp-cost(7), "Several meshes"): an add of %arg0 on
 * @m1 = ["a"=4], [{"a"}, {}] (pb 4 * 2 * 8 = 64) and %arg1 on @m2 =
 * ["b"=2], [{"b"}, {}] (pb 4 * 4 * 8 = 128), its result pinned like
 * %arg1 (128).  The op's assignment uses the axes of one mesh:
 *   "b" on the first factor: %arg0 is gathered on @m1, 3 * 64 = 192 us;
 *     %arg1 and the result as they are; compute 4 * 8 = 32 us: 224;
 *   "a" on it: %arg1 gathered, 1 * 128, the result's projection (64)
 *     gathered, 3 * 64, then sliced on @m2: 320 + compute 16 = 336;
 *   replicated: 192 + 128 + compute 64 = 384.
 * So 192 us of communication and 32 of compute; "a" and "b" together
 * (184 us, were the meshes one) are no option.  Peak: 64 + 128 + 128.
 */
static void
test_two_meshes(void)
{
	sli_cost_parts p = score(
		"sdy.mesh @m1 = <[\"a\"=4]>\n"
		"sdy.mesh @m2 = <[\"b\"=2]>\n"
		"func.func @f(%arg0: " T88 " {sdy.sharding = #sdy.sharding<@m1, "
		"[{\"a\"}, {}]>}, %arg1: " T88 " {sdy.sharding = #sdy.sharding<@m2, "
		"[{\"b\"}, {}]>}) -> " T88 " {\n"
		"  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = "
		"#sdy.sharding_per_value<[<@m2, [{\"b\"}, {}]>]>} : " T88 "\n"
		"  return %0 : " T88 "\n}\n", NULL);
	expect(&p, 320, 192, 32);
}

/*
 * The memo (cost/memo.h) gives an assignment the first index it was
 * seen at, and tells apart assignments that differ in one axis only,
 * the last included.
 */
static void
test_memo(void)
{
	sli_htab seen = {0};
	sli_cost_asg q[SLI_COST_MAX_AXES + 1];
	for (uint32_t k = 0; k <= SLI_COST_MAX_AXES; k++) {
		memset(q[k].a, SLI_COST_NONE, sizeof q[k].a);
		if (k < SLI_COST_MAX_AXES)
			q[k].a[k] = 0;
	}
	for (uint32_t k = 0; k <= SLI_COST_MAX_AXES; k++)
		CU_ASSERT_EQUAL(sli_cost_memo(&seen, &q[k], 10 + k), 10 + k);
	for (uint32_t k = 0; k <= SLI_COST_MAX_AXES; k++)
		CU_ASSERT_EQUAL(sli_cost_memo(&seen, &q[k], 99), 10 + k);
	sli_htab_fini(&seen);
}

/* }==================================================================== */

CU_TestInfo tests_cost[] = {
	{"the peak is the per-device bytes of what is live", test_memory},
	{"an all-gather costs (n - 1) (lat + p / bw)", test_all_gather},
	{"bandwidth and latency of an axis scale its collectives",
	 test_bandwidth_latency},
	{"an all-to-all costs (n - 1) (lat + p / n / bw)", test_all_to_all},
	{"a local slice is free", test_all_slice},
	{"a permutation of the axes of a dim is free", test_collective_permute},
	{"an all-reduce costs 2 (n - 1) (lat + p / n / bw)", test_all_reduce},
	{"compute is the per-device flops at the device's FLOP/s", test_compute},
	{"the ILP's edge terms add up to the reshard", test_terms_match_reshard},
	{"ties broken where the export reorders axes", test_tidy_reorder},
	{"ties broken the wide way where the export reshards", test_tidy_wide},
	{"a data-flow edge is its owner's tensor", test_edge_is_its_owner},
	{"a loop's operand is resharded into its carried value",
	 test_loop_operand_reshards},
	{"peak memory counts only what is live; budget rows at maximal sets",
	 test_peak_is_live},
	{"the evaluator: a gather of several axes grows axis by axis",
	 test_emitted_gather},
	{"the evaluator: a collective permute is one step", test_emitted_permute},
	{"the evaluator: an all-reduce of several axes", test_emitted_all_reduce},
	{"the evaluator: an op's all-reduce as the export emits it", test_emitted_op},
	{"two meshes: an op uses the axes of one, the other's are gathered",
	 test_two_meshes},
	{"the memo tells assignments apart, each at its first index", test_memo},
	CU_TEST_INFO_NULL,
};
