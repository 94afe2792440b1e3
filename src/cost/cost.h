/*
 * cost.h - the one cost evaluator (shardlp-cost(7)).  A module becomes a
 * cost model: its tensors (static ranked values) and its ops with their
 * sharding rules (src/rules), the user constraints on each tensor and the
 * data-flow ties between tensors.  A sharding of a tensor is kept per mesh
 * axis: the dimension the axis shards, or -1; an op's factor assignment
 * likewise: the factor each axis shards, or -1.  Axes on one dimension or
 * factor are ordered as in the mesh.  The axes are those of the
 * program's meshes one after the other; a sharding or an assignment uses
 * the axes of one mesh (shardlp-cost(7), "Several meshes").
 *
 * The model prices a complete assignment of tensor shardings as an
 * estimated step time in seconds: compute (each op's FLOPs per device at
 * the device's FLOP/s) and communication (each operand and result
 * resharded to or from what the op's assignment needs, all-reduce over
 * sharded reduction factors, each collective priced per axis by an
 * alpha-beta model on its axis's link); every op takes its cheapest
 * assignment given its tensors.  The ILP (solver/) builds its objective
 * from the same primitives (primitives.c, private), through terms.h.
 * The evaluator of a module (sli_cost_eval) prices instead what Shardy's
 * export runs for its shardings (emitted.c), which the model's price
 * bounds (shardlp-cost(7), "The ILP's bound").  Memory is not a cost but
 * a constraint: the peak live bytes per device over the program order,
 * held against a budget.
 *
 * Files: model.c builds the model (axes.c its axes, shardings.c reads the
 * module's shardings, order.c the written orders), options.c enumerates
 * valid shardings and assignments, eval.c is the model's price and the
 * evaluator, emitted.c what the export runs.
 *
 * Ownership: a model holds pointers into the module (which must outlive
 * it) and owns its own heap arrays, freed by sli_cost_model_fini.
 */
#ifndef SL_COST_COST_H
#define SL_COST_COST_H

#include "ir/access.h"
#include "ir/ir.h"
#include "rules/rules.h"
#include "util/hash.h"

#define SLI_COST_MAX_AXES 8
#define SLI_COST_NONE (-1)	/* an axis on no dimension / no factor */

/* The links along one mesh axis, set by name (shardlp-cost(7), CLUSTER). */
typedef struct sli_cost_axis {
	const char *name;
	double bandwidth;	/* bytes/s one device sends along the axis; 0: default */
	double latency;		/* seconds of one step of a collective on it */
} sli_cost_axis;

/* A device's peak FLOP/s for one element type ("bf16", "f32", ...). */
typedef struct sli_cost_flops {
	const char *type;
	double flops;
} sli_cost_flops;

/* Internal prices are in microseconds (the public API: seconds). */
#define SLI_COST_UNIT 1e6	/* internal units per second */

/* The documented default cluster (shardlp-cost(7), DEFAULT CLUSTER). */
#define SLI_COST_DEFAULT_BANDWIDTH 100e9	/* bytes/s per axis */
#define SLI_COST_DEFAULT_LATENCY 5e-6		/* seconds per step */
#define SLI_COST_DEFAULT_FLOPS 100e12		/* FLOP/s */
#define SLI_COST_DEFAULT_HBM 16e9		/* bytes per device */
#define SLI_COST_BUDGET_HBM (-1.0)		/* memory_budget: the HBM */

typedef struct sli_cost_params {
	double bandwidth;	/* bytes/s of an axis without a link of its own */
	double latency;		/* seconds per collective step, likewise */
	double flops;		/* FLOP/s of an element type not in type_flops */
	const sli_cost_flops *type_flops;
	uint32_t ntype_flops;
	double hbm;		/* bytes per device; 0: unknown */
	/*
	 * peak live bytes per device allowed: SLI_COST_BUDGET_HBM for the
	 * HBM (none when it is unknown), 0 for none
	 */
	double memory_budget;
	bool conservative;	/* forbid non-divisible sharding */
	/*
	 * a function result sharding may grow in its open dims (the solver's
	 * view, as greedy propagation does); false: held as written
	 */
	bool extend_results;
	bool report;		/* warn of user shardings the model approximates */
	/*
	 * split each mesh axis into sub-axes, so that a sharding may use
	 * part of an axis: where the program's sizes use a part
	 * (shardlp-cost(7)), or with sub_axes_primes into pieces of prime
	 * size (smallest first); false: whole axes only
	 */
	bool sub_axes, sub_axes_primes;
	/*
	 * with sub_axes (not primes): every tensor may take a part of an
	 * axis; false: only where its own sizes, a reshape next to it, its
	 * pin or a greedy result use one (sli_cost_tensor.whole)
	 */
	bool sub_axes_anywhere;
	/*
	 * other modules of the same program (greedy results): the mesh axes
	 * are also cut where their sub-axes start and end, with or without
	 * sub_axes, so that each of them is a point of the model
	 */
	const sl_module *const *cut_by;
	uint32_t ncut_by;
	/*
	 * a model of the same program whose pieces of the mesh axes this one
	 * takes too (or NULL): a solved module re-read keeps the pieces it
	 * was solved over where its own shardings no longer name them
	 */
	const struct sli_cost_model *like;
	const sli_cost_axis *axes;	/* overrides, by axis name */
	uint32_t naxes;
} sli_cost_params;

void sli_cost_params_init(sli_cost_params *p);

/* One assignment: per mesh axis, a dimension (tensor) or factor (op). */
typedef struct sli_cost_asg {
	int8_t a[SLI_COST_MAX_AXES];
} sli_cost_asg;

/* What the collectives of a sharding move, by kind (shardlp-cost(7)). */
typedef enum sli_cost_coll {
	SLI_COLL_ALL_GATHER,
	SLI_COLL_ALL_TO_ALL,
	SLI_COLL_ALL_REDUCE,
	SLI_COLL_REDUCE_SCATTER,
	SLI_COLL_PERMUTE,	/* collective permute */
	SLI_COLL_KINDS
} sli_cost_coll;

typedef struct sli_cost_parts {
	double compute, communication;	/* microseconds (SLI_COST_UNIT) */
	double total;			/* their sum */
	double peak_bytes;	/* peak live bytes per device */
	double budget;		/* the budget held against it; 0: none */
	/*
	 * per kind: collectives and bytes sent per device (the evaluator:
	 * one per collective emitted; the model's price: one per axis)
	 */
	double ncoll[SLI_COLL_KINDS], coll_bytes[SLI_COLL_KINDS];
} sli_cost_parts;

/* What the user fixed on one tensor. */
typedef struct sli_cost_pin {
	bool any;		/* the tensor carries a user sharding */
	bool closed[16];	/* per dim (rank <= 16 is enforced) */
	int8_t axes[16][SLI_COST_MAX_AXES];	/* user axes per dim, -1 ends */
	uint32_t replicated;	/* mask of axes that may not shard the tensor */
	sl_loc loc;		/* where it was written */
	const char *what;	/* "argument", "result", "sharding constraint", ... */
} sli_cost_pin;

typedef struct sli_cost_tensor {
	sl_value *v;
	uint32_t rank;
	const int64_t *dims;
	double elem_bytes;
	uint32_t forbidden;	/* mask of axes that may not shard it (manual) */
	sli_cost_pin pin;
	/*
	 * per dim, the axes written first, in this order (-1 ends): the
	 * longest user prefix among the tensors tied to this one, else the
	 * order of a dim an op joins it to; the other axes follow in mesh
	 * order
	 */
	int8_t major[16][SLI_COST_MAX_AXES];
	/*
	 * a user sharding on another mesh (not an empty one): kept as
	 * written, fixed to `fixed`, replicated
	 */
	bool kept;
	sli_cost_asg *fixed;	/* the one sharding allowed (manual body, kept),
				 * or NULL */
	/*
	 * with sub_axes by sizes: the pieces of each mesh axis stay together
	 * (all on one dim, or none), as no size of this tensor or reshape
	 * next to it uses a part, and no pin, greedy result or tie keeps them
	 * apart (model.c, whole_axes)
	 */
	bool whole;
	/*
	 * live range in program positions (liveness.c): from its definition
	 * to its last use; a function's arguments and results span the whole
	 * program
	 */
	uint32_t live_from, live_to;
} sli_cost_tensor;

typedef enum sli_cost_opkind {
	SLI_COST_RULE,		/* factors from the op's sharding rule */
	SLI_COST_IDENTITY,	/* one factor per dim: constraint, barrier, edge */
	SLI_COST_OPAQUE		/* no rule: operands needed replicated */
} sli_cost_opkind;

typedef struct sli_cost_op {
	sl_op *op;
	sli_cost_opkind kind;
	sl_rule rule;		/* for SLI_COST_RULE and SLI_COST_IDENTITY */
	uint32_t *operands;	/* tensor index per operand, UINT32_MAX if none */
	uint32_t *results;	/* likewise per result */
	uint32_t noperands, nresults;
	double flop_weight;	/* flops = weight x product of factor sizes */
	double flop_rate;	/* the device's FLOP/s for its element type */
	uint32_t forbidden;	/* axes it may not use (manual) */
	sli_cost_asg *req;	/* fixed operand requirement (or NULL) per operand */
	/*
	 * or NULL: axes added to the projection on operand 0 (a manual
	 * computation's entry: its manual axes, which its body never sees)
	 */
	sli_cost_asg *extra;
	/*
	 * per operand, or NULL: the requirements it may take instead (a
	 * function result extended in its open dims; req first) and their count
	 */
	sli_cost_asg **ropt;
	uint32_t *nropt;
} sli_cost_op;

/* Two tensors that must carry the same sharding (groups, data flow). */
typedef struct sli_cost_tie {
	uint32_t a, b;
	sl_loc loc;
	const char *why;
} sli_cost_tie;

typedef struct sli_cost_op_memo sli_cost_op_memo;

typedef struct sli_cost_model {
	sl_module *m;
	sli_cost_params params;
	sl_sym mesh_name;	/* the first of meshes: for values outside the model */
	const sl_mesh *mesh;
	/*
	 * The meshes with axes, in the order the module declares them
	 * (shardlp-cost(7), "Several meshes"): their names, their axes as
	 * a mask of model axes, and per model axis its mesh.  A sharding or
	 * a factor assignment uses the axes of one mesh only.
	 */
	uint32_t nmeshes;
	sl_sym mesh_names[SLI_COST_MAX_AXES];
	const sl_mesh *meshes[SLI_COST_MAX_AXES];
	uint32_t mesh_axes[SLI_COST_MAX_AXES];
	uint8_t axis_mesh[SLI_COST_MAX_AXES];
	/*
	 * The model's axes: the mesh axes in mesh order, or with sub_axes
	 * their pieces, each the sub-axis "name":(pre)size of a mesh axis of
	 * size whole (a whole axis: pre 1, size whole); the pieces of one
	 * mesh axis are consecutive, by pre-size.
	 */
	uint32_t naxes;
	int64_t axis_size[SLI_COST_MAX_AXES];
	int64_t axis_pre[SLI_COST_MAX_AXES], axis_whole[SLI_COST_MAX_AXES];
	sl_sym axis_name[SLI_COST_MAX_AXES];
	double axis_bw[SLI_COST_MAX_AXES], axis_lat[SLI_COST_MAX_AXES];
	SL_VEC(sli_cost_tensor) tensors;
	SL_VEC(sli_cost_op) ops;
	SL_VEC(sli_cost_tie) ties;
	/*
	 * Memory (liveness.c): the budget on peak live bytes per device (0:
	 * none); whether it can bind at all (the tensors replicated exceed it
	 * somewhere); the program positions where a maximal set of tensors is
	 * live, each row the tensors live there (rows[row_start[k] ..
	 * row_start[k + 1]))
	 */
	double budget;
	bool budget_binds;
	uint32_t npositions;
	SL_VEC(uint32_t) row_start;
	SL_VEC(uint32_t) rows;
	SL_VEC(sl_loc) row_loc;	/* the op at each row's position */
	sli_arena arena;	/* rules and index arrays */
	sli_htab tensor_of;	/* value -> tensor index + 1 */
	/*
	 * The valid assignments of each op, enumerated on first use
	 * (sli_cost_op_options): the formulation and every pricing of an
	 * assignment ask again for each op, the same answer every time
	 */
	sli_cost_op_memo *op_memo;
	/*
	 * Every reshard costs >= 0: no tensor of negative size, no link of
	 * negative latency or bandwidth (an op's price only grows edge by
	 * edge, which eval.c's search for an op's best assignment uses)
	 */
	bool reshards_nonnegative;
} sli_cost_model;

/*
 * Builds the model of m.  Returns 0, or -1 after a located diagnostic
 * (no mesh, meshes of more axes than the model takes, a rule error, a
 * tensor of rank > 16).
 */
int sli_cost_model_build(sl_module *m, const sli_cost_params *p,
                         sli_cost_model *cm);
void sli_cost_model_fini(sli_cost_model *cm);
/*
 * The model of c, a copy of cm's module (sli_cost_copy) neither has
 * changed since cm was built, without building it: cm's tensors, ops,
 * ties and orders on c's values and ops, paired op by op.  It shares
 * cm's rules and index arrays, so cm (and its module) must outlive it.
 * Where the two modules do not pair, it is built from c.  Returns as
 * sli_cost_model_build does, without warnings.
 */
int sli_cost_model_build_copy(const sli_cost_model *cm, sl_module *c,
                              sli_cost_model *out);
/* The tensor index of v, or UINT32_MAX when v is not in the model. */
uint32_t sli_cost_tensor_of(const sli_cost_model *cm, const sl_value *v);

/* {====================================================================
 * Options (options.c); the prices are in primitives.c, private, and
 * reach the solver through terms.h
 * ===================================================================== */

/* Whether q is a valid sharding of t that honours every user constraint. */
bool sli_cost_tensor_allows(const sli_cost_model *cm, uint32_t t,
                            const sli_cost_asg *q);
/*
 * The axes q puts on dim d in written order into out (SLI_COST_MAX_AXES
 * entries): those of major (one dim's row, -1 ends; NULL: none) first, in
 * its order, then the others in mesh order.  Returns their count.
 */
uint32_t sli_cost_dim_axes(const sli_cost_model *cm, const int8_t *major,
                           const sli_cost_asg *q, uint32_t d, int8_t *out);
/*
 * Whether model axes a and b are alike: the same size, bandwidth and
 * latency (every price is then the same with them trading places).
 */
bool sli_cost_axes_alike(const sli_cost_model *cm, uint32_t a, uint32_t b);
/*
 * The mesh (index into cm->meshes) whose axes q uses, or -1 when q uses
 * none; -2 when it uses axes of several (no valid option does).
 */
int sli_cost_asg_mesh(const sli_cost_model *cm, const sli_cost_asg *q);
/* Model axis a as an axis ref: a full axis, or a sub-axis of one. */
sl_axis_ref sli_cost_axis_ref(const sli_cost_model *cm, uint32_t a);
/* Whether s is a valid factor assignment of op o. */
bool sli_cost_op_allows(const sli_cost_model *cm, uint32_t o,
                        const sli_cost_asg *s);

/*
 * Enumerates the valid shardings of tensor t (or assignments of op o):
 * fills *out (heap, caller frees) and returns the count.
 */
size_t sli_cost_tensor_options(const sli_cost_model *cm, uint32_t t,
                               sli_cost_asg **out);
size_t sli_cost_op_options(const sli_cost_model *cm, uint32_t o,
                           sli_cost_asg **out);
/* The memo of sli_cost_op_options for a model of nops ops. */
sli_cost_op_memo *sli_cost_op_memo_new(size_t nops);
void sli_cost_op_memo_free(sli_cost_op_memo *m);

/* }==================================================================== */

/* {====================================================================
 * The evaluator (eval.c) and the module's shardings (shardings.c)
 * ===================================================================== */

/*
 * Scores a complete assignment q (one per tensor).  Each op takes its
 * cheapest assignment; when chosen is non-NULL it receives them.  Returns
 * 0, or -1 when some op has no valid assignment.
 */
int sli_cost_eval_asg(const sli_cost_model *cm, const sli_cost_asg *q,
                      sli_cost_parts *out, sli_cost_asg *chosen);
/*
 * Breaks the model's ties in q as the export would have them: where an
 * op's edge keeps an axis on its dim behind other axes than the tensor
 * has (the model charges nothing, the export gathers it), the tensor
 * takes the op's sharding when the model's price stays the same or
 * falls, fewer of its edges do so, the budget holds, and the tensor is
 * neither tied nor fixed (shardlp-cost(7), "Ties").  Wide also moves
 * an operand its use reshards to (or towards) the use's sharding, or a
 * tensor to fewer bytes per device, at the same price and reorders: a
 * second answer of the same price for the evaluator to choose from.
 */
void sli_cost_tidy(const sli_cost_model *cm, sli_cost_asg *q, bool wide);

/*
 * Reads the sharding of every tensor of the model from the module
 * (absent: replicated) into q.  A sharding outside the model reads as its
 * approximation (shardlp-cost(7), CAVEATS): sub-axes shard nothing, and a
 * sharding on another mesh is replicated (on an empty mesh it is exact).
 * Returns 0; -1 with a message in why is left for a sharding it cannot
 * read at all (none today).
 */
int sli_cost_read(const sli_cost_model *cm, sli_cost_asg *q, sli_buf *why);
/*
 * Whether sli_cost_read reads every sharding of the module exactly (no
 * approximation); when not, *where is the first one it approximates.
 */
bool sli_cost_reads_exactly(const sli_cost_model *cm, sl_loc *where);

/*
 * The sharding the module stores for v (ir/access.h), as the model reads
 * it: the arguments of a manual computation's body have none of their
 * own (their in_shardings, global and with the manual axes, enter the
 * model as ties to the operands), or NULL.
 */
const sl_sharding *sli_cost_value_sharding(const sl_value *v);

/*
 * Sets the live ranges, the budget and the live-set rows of a built
 * model (liveness.c; sli_cost_model_build calls it).
 */
void sli_cost_liveness(sli_cost_model *cm);
/*
 * Peak live bytes per device of assignment q over the program order
 * (liveness.c); the position of the peak into *at when at is non-NULL.
 */
double sli_cost_peak_bytes(const sli_cost_model *cm, const sli_cost_asg *q,
                           uint32_t *at);

/*
 * The evaluator: the module's own shardings scored, peak memory as
 * sli_cost_eval_asg gives it, compute and communication as the export
 * runs them (emitted.h), in one walk of the program; where the export
 * fails on m, sli_cost_eval_asg's price.
 */
int sli_cost_eval(sl_module *m, const sli_cost_params *p, sli_cost_parts *out,
                  sli_buf *why);
/*
 * The model's price of the module's own shardings (sli_cost_read, then
 * sli_cost_eval_asg): what the ILP's objective is for them.
 */
int sli_cost_eval_model(sl_module *m, const sli_cost_params *p,
                        sli_cost_parts *out, sli_buf *why);

/* }==================================================================== */

#endif
