/*
 * pad_for_divisibility.h - -sdy-pad-for-divisibility (its rules in the head
 * comment of pad_for_divisibility.c) and what the pass's two files share:
 * the state of the walk over one function, the ops the pass builds
 * (pad_for_divisibility.c) and the handlers of the ops whose shape needs
 * more than the same-shape rule (pad_for_divisibility_ops.c).
 * Ownership: the table is heap memory of the pass, freed per function;
 * every op and type built lives in the module.
 */
#ifndef SL_PASSES_PAD_FOR_DIVISIBILITY_H
#define SL_PASSES_PAD_FOR_DIVISIBILITY_H

#include "passes/pass.h"

int sli_pass_pad_for_divisibility(sl_module *m, const sli_pass_opts *opts);

/* What the walk knows of a value of the input program (by value->id). */
typedef struct sli_pfd_val {
	sl_type *orig;		/* its type before the pass */
	sl_type *padded;	/* the divisible type it gets */
	sl_value *rep;		/* what stands for it now, once converted */
	bool zero;		/* rep's padding is known to hold zeros */
	sl_value *cut;		/* rep sliced back to orig for an op that
				 * needs it, reused in the same block */
} sli_pfd_val;

typedef struct sli_pfd {
	sl_module *m;
	SL_VEC(sli_pfd_val) vals;
} sli_pfd;

/* An operand as a handler changes it: the value standing for it now. */
typedef struct sli_pfd_arg {
	sl_value *v;
	sl_type *orig;		/* the type of the operand in the input */
	bool zero;		/* v's padding beyond orig holds zeros */
	const sl_sharding *s;	/* the input operand's sharding, or NULL */
} sli_pfd_arg;

/* The table entry of a value of the input program. */
sli_pfd_val *sli_pfd_val_of(sli_pfd *P, const sl_value *v);
/* Operand i of op as it stands now. */
sli_pfd_arg sli_pfd_operand(sli_pfd *P, const sl_op *op, uint32_t i);
/* Whether t is a ranked tensor of static shape (what the pass pads). */
bool sli_pfd_static(const sl_type *t);
/*
 * Makes a->v of shape dims before `at`: a slice keeps what fits, then a
 * pad with zeros adds what is missing (both with a's sharding).
 */
void sli_pfd_fit(sli_pfd *P, sl_op *at, sli_pfd_arg *a, const int64_t *dims);
/*
 * Replaces, before `at`, the padding of a->v along the dims where want[d]
 * by `fill` (a scalar; NULL: a new zero), with an iota mask and a select.
 */
void sli_pfd_enforce(sli_pfd *P, sl_op *at, sli_pfd_arg *a, const bool *want,
                     sl_value *fill);
/*
 * Gives result i of op the shape dims (at least its padded one), then
 * slices it back to its padded type right after op.
 */
void sli_pfd_result(sli_pfd *P, sl_op *op, uint32_t i, const int64_t *dims,
                    bool zero);
/* Operands cut back to their input types, results padded after op. */
int sli_pfd_fallback(sli_pfd *P, sl_op *op);
/* An i64 array attribute (array<i64: ...>). */
sl_attr *sli_pfd_i64_array(sli_pfd *P, const int64_t *v, uint32_t n);
/* The integers of op's attribute `name`, or n copies of dflt. */
void sli_pfd_ints(sli_pfd *P, const sl_op *op, const char *name, uint32_t n,
                  int64_t dflt, int64_t *out);

/* The handlers of pad_for_divisibility_ops.c: 0, or -1 after an error. */
int sli_pfd_slice(sli_pfd *P, sl_op *op);
int sli_pfd_pad(sli_pfd *P, sl_op *op);
int sli_pfd_dot_general(sli_pfd *P, sl_op *op);
int sli_pfd_dot(sli_pfd *P, sl_op *op);
int sli_pfd_convolution(sli_pfd *P, sl_op *op);

#endif
