/*
 * mlir_sdy.c - the sdy dialect in MLIR text: every #sdy.* attribute and the
 * custom syntax of every sdy op, parsed into structs and printed back in
 * Shardy's canonical form (spec/dialect-and-verifier.md sections 2 and 3,
 * spec/sharding-rules.md section 2).  Meshes are checked as they are built,
 * as Shardy's getChecked does, so mesh errors are parse errors.  Parse
 * errors carry the exact texts of Shardy's parsers, including the chain of
 * "failed to parse ..." messages its generated parsers add.
 *
 * Inherent attributes (props) that the custom forms fill, named as in
 * Shardy's ops.td (where context.h has a symbol it is used):
 *   sdy.mesh                  sym_name (string), mesh (SL_ATTR_MESH)
 *   sdy.sharding_constraint,
 *   sdy.reshard               sharding (SL_ATTR_SHARDING)
 *   sdy.data_flow_edge        sharding (optional)
 *   sdy.manual_computation    in_shardings, out_shardings
 *                             (SL_ATTR_SHARDING_PER_VALUE),
 *                             manual_axes (SL_ATTR_MANUAL_AXES)
 *   sdy.named_computation     name (string), in_shardings, out_shardings
 *                             (both optional)
 *   sdy.sharding_group        group_id (SL_ATTR_INT, i64)
 *   sdy.constant              value (the elements attribute)
 *   sdy.propagation_barrier   allowed_direction (SL_ATTR_DIRECTION)
 *   collectives               out_sharding (SL_ATTR_SHARDING), and
 *     all_gather              gathering_axes (SL_ATTR_AXIS_REF_LISTS)
 *     all_slice               slicing_axes (SL_ATTR_AXIS_REF_LISTS)
 *     all_to_all              params (SL_ATTR_ALL_TO_ALL_PARAMS)
 *     all_reduce              reduction_axes (SL_ATTR_AXIS_REF_LIST)
 *     reduce_scatter          scatter_axes (SL_ATTR_AXIS_REF_LISTS)
 *     sharded_to_unreduced    axes (SL_ATTR_AXIS_REF_LISTS)
 *     replicated_to_unreduced axes (SL_ATTR_AXIS_REF_LIST)
 *     all_reduce, reduce_scatter: reduction_op (SL_ATTR_INT holding
 *                             SL_RED_MAX or SL_RED_MIN; absent means sum)
 *
 * Printed forms: sli_print_axis_list prints `{"a", "b":(1)2}` (braces
 * included), sli_print_mesh_body `<["a"=2], device_ids=[..]>` (angle
 * brackets included), stripped sdy attributes as in op formats: a sharding
 * `<@m, [...]>`, a per-value list `[<...>, ...]`, axis lists `{...}` and
 * `[...]`, a direction `BACKWARD`.
 */
#include "formats/mlir_parser.h"
#include "formats/mlir_printer.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ====================================================================
 * Parsing: state and diagnostics
 * ==================================================================== */

/* Parse state of this file: the custom op being parsed, if any, whose
 * name prefixes errors as MLIR's custom-op parser does. */
typedef struct sdyp {
	sli_parser *P;
	const char *op;
	size_t opn;
} sdyp;

static int
verr(sdyp *S, sl_loc loc, const char *fmt, va_list ap)
{
	sli_buf b;
	sli_buf_init(&b);
	if (S->op)
		sli_buf_printf(&b, "custom op '%.*s' ", (int)S->opn, S->op);
	sli_buf_vprintf(&b, fmt, ap);
	sli_diag(S->P->ctx, SL_DIAG_ERROR, loc, "%s", sli_buf_cstr(&b));
	sli_buf_fini(&b);
	S->P->failed = 1;
	return -1;
}

static int
err(sdyp *S, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int
err_at(sdyp *S, sl_loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Reports an error at the current token, even after a first error (Shardy
 * chains "failed to parse ..." messages); returns -1. */
static int
err(sdyp *S, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	verr(S, sli_p_loc(S->P), fmt, ap);
	va_end(ap);
	return -1;
}

/* Reports an error at loc, as err does. */
static int
err_at(sdyp *S, sl_loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	verr(S, loc, fmt, ap);
	va_end(ap);
	return -1;
}

static void
init_state(sdyp *S, sli_parser *P, const sli_opstate *st)
{
	S->P = P;
	S->op = NULL;
	S->opn = 0;
	if (st) {
		S->op = sl_sym_str(P->ctx, st->name);
		S->opn = sli_sym_len(P->ctx, st->name);
	}
}

static bool
is(sdyp *S, sli_tok_kind k)
{
	return S->P->tok.kind == k;
}

static bool
accept(sdyp *S, sli_tok_kind k)
{
	if (S->P->tok.kind != k)
		return false;
	sli_p_next(S->P);
	return true;
}

/* Consumes a token of kind k or reports "expected <what>". */
static int
expect(sdyp *S, sli_tok_kind k, const char *what)
{
	if (accept(S, k))
		return 0;
	return err(S, "expected %s", what);
}

static bool
is_kw(sdyp *S, const char *kw)
{
	const sli_token *t = &S->P->tok;
	return t->kind == SL_TOK_IDENT && strlen(kw) == t->n && memcmp(t->p, kw, t->n) == 0;
}

static bool
accept_kw(sdyp *S, const char *kw)
{
	if (!is_kw(S, kw))
		return false;
	sli_p_next(S->P);
	return true;
}

static int
expect_kw(sdyp *S, const char *kw)
{
	if (accept_kw(S, kw))
		return 0;
	return err(S, "expected '%s'", kw);
}

static int
parse_int(sdyp *S, int64_t *v)
{
	if (!is(S, SL_TOK_INT) && !is(S, SL_TOK_MINUS))
		return err(S, "expected integer value");
	return sli_p_int(S->P, v);
}

static sl_sym
intern(sdyp *S, const char *p, size_t n)
{
	return sl_sym_intern(S->P->ctx, p, n);
}

/* Copies a heap vector into a fresh arena array. */
static void *
arena_copy(sdyp *S, const void *v, size_t n, size_t elem)
{
	if (!n)
		return NULL;
	return sli_arena_dup(&S->P->m->arena, v, n * elem);
}

/*
 * The same as a read-only array kept once in the module (sli_module_share):
 * the axes and dimensions of shardings, which a big program writes on
 * thousands of arguments and ops with a few distinct values, and which
 * nothing writes through (a changed sharding is a new one).  A 4.4 MB
 * program's copies were 0.3 MB of its peak memory (issue 17).
 */
static void *
shared_copy(sdyp *S, const void *v, size_t n, size_t elem)
{
	return (void *)sli_module_share(S->P->m, v, n * elem);
}

static sl_attr *
new_attr(sdyp *S, sl_attr_kind kind, sl_loc loc)
{
	sl_attr *a = sli_attr_new(S->P->m, kind);
	a->loc = loc;
	return a;
}

/* Parses one element of a list into OUT, an object of the list's type. */
typedef int (*elem_fn)(sdyp *S, void *out);

/* A parsed list: n elements in an arena array (NULL when empty). */
typedef struct {
	void *v;
	uint32_t n;
} list;

/*
 * list-body -> (elem (',' elem)*)?, empty when the next token is CLOSE
 * (which is left to the caller); each element is SIZE bytes.  share:
 * the array may be one other lists share (shared_copy).
 */
static int
list_body(sdyp *S, sli_tok_kind close, size_t size, elem_fn elem, list *out, bool share)
{
	SL_VEC(char) v = {0};
	if (!is(S, close)) {
		do {
			SL_VEC_RESERVE(v, v.n + size);
			if (elem(S, v.v + v.n) < 0) {
				SL_VEC_FREE(v);
				return -1;
			}
			v.n += size;
		} while (accept(S, SL_TOK_COMMA));
	}
	out->n = (uint32_t)(v.n / size);
	out->v = (share ? shared_copy : arena_copy)(S, v.v, out->n, size);
	SL_VEC_FREE(v);
	return 0;
}

/* An integer as a list element. */
static int
int_elem(sdyp *S, void *out)
{
	return parse_int(S, out);
}

/* ====================================================================
 * Parsing: axis references, meshes, shardings
 * ==================================================================== */

/* axis-ref -> string (':' '(' int ')' int)? */
static int
axis_ref(sdyp *S, void *p)
{
	sl_axis_ref *out = p;
	const char *s;
	size_t n;
	memset(out, 0, sizeof *out);
	if (!is(S, SL_TOK_STRING)) {
		err(S, "expected string");
		return err(S, "failed to parse Sdy_AxisRef parameter 'name' which is "
		           "to be a `::llvm::StringRef`");
	}
	if (sli_p_string(S->P, &s, &n) < 0)
		return -1;
	out->name = intern(S, s, n);
	if (!accept(S, SL_TOK_COLON))
		return 0;
	out->sub = true;
	if (expect(S, SL_TOK_LPAREN, "'('") < 0 || parse_int(S, &out->pre) < 0 ||
	    expect(S, SL_TOK_RPAREN, "')'") < 0 || parse_int(S, &out->size) < 0)
		return err(S, "failed to parse Sdy_AxisRef parameter 'sub_axis_info' "
		           "which is to be a `SubAxisInfoAttr`");
	return 0;
}

/* axis-list -> '{' (axis-ref (',' axis-ref)*)? '}' */
static int
braced_axis_list(sdyp *S, void *p)
{
	sl_axis_list *out = p;
	list l;
	if (expect(S, SL_TOK_LBRACE, "'{'") < 0)
		return -1;
	if (list_body(S, SL_TOK_RBRACE, sizeof(sl_axis_ref), axis_ref, &l, false) < 0)
		return err(S, "failed to parse axis list which is expected to be an "
		           "`ArrayRef<AxisRefAttr>`");
	out->v = l.v;
	out->n = l.n;
	return expect(S, SL_TOK_RBRACE, "'}'");
}

static int64_t
mesh_total(const sl_mesh *mesh)
{
	int64_t p = 1;
	for (uint32_t i = 0; i < mesh->naxes; i++) {
		if (mesh->axes[i].size > 0 && p > INT64_MAX / mesh->axes[i].size)
			return INT64_MAX;
		p *= mesh->axes[i].size;
	}
	return p;
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

/* Shardy's MeshAttr::verify, after the construction rule dropped iota ids. */
static int
check_mesh(sdyp *S, const sl_mesh *mesh, sl_loc loc)
{
	for (uint32_t i = 0; i < mesh->nids; i++)
		if (mesh->ids[i] < 0)
			return err_at(S, loc, "device id must be non-negative, got: %" PRId64, mesh->ids[i]);
	if (mesh->naxes == 0) {
		if (mesh->nids > 1)
			return err_at(S, loc, "axes is empty and device_ids has more than one element");
		return 0;
	}
	for (uint32_t i = 0; i < mesh->naxes; i++)
		for (uint32_t j = 0; j < i; j++)
			if (mesh->axes[i].name == mesh->axes[j].name) {
				sli_buf b;
				sli_buf_init(&b);
				sli_print_string(&b, sl_sym_str(S->P->ctx, mesh->axes[i].name),
				                 sli_sym_len(S->P->ctx, mesh->axes[i].name));
				err_at(S, loc, "duplicate axis name: %s", sli_buf_cstr(&b));
				sli_buf_fini(&b);
				return -1;
			}
	if (!mesh->ids)
		return 0;
	int64_t total = mesh_total(mesh);
	if (total != (int64_t)mesh->nids)
		return err_at(S, loc, "total product of axis sizes must match total number of "
		           "device ids, got: %" PRId64 " != %u", total, mesh->nids);
	int64_t *sorted = sli_xmalloc(mesh->nids * sizeof *sorted);
	memcpy(sorted, mesh->ids, mesh->nids * sizeof *sorted);
	qsort(sorted, mesh->nids, sizeof *sorted, cmp_i64);
	bool iota = true;
	for (uint32_t i = 0; i < mesh->nids; i++)
		if (sorted[i] != (int64_t)i)
			iota = false;
	int r = 0;
	if (!iota) {
		sli_buf b;
		sli_buf_init(&b);
		for (uint32_t i = 0; i < mesh->nids; i++)
			sli_buf_printf(&b, "%s%" PRId64, i ? ", " : "", sorted[i]);
		r = err_at(S, loc, "sorted device ids must be iota(product(axes)), got: %s",
		        sli_buf_cstr(&b));
		sli_buf_fini(&b);
	} else if (memcmp(sorted, mesh->ids, mesh->nids * sizeof *sorted) == 0) {
		r = err_at(S, loc, "if the ordered device ids are the same as iota(product(axes)), "
		        "no need to specify them for simplicity");
	}
	free(sorted);
	return r;
}

/*
 * mesh-body -> '<' '[' (mesh-axis (',' mesh-axis)*)? ']'
 *              (',' 'device_ids' '=' '[' int-list ']')? '>'
 * mesh-axis -> string '=' int
 * Applies the construction rule: iota device ids are dropped.
 */
/* mesh-axis -> string '=' int */
static int
mesh_axis(sdyp *S, void *p)
{
	sl_mesh_axis *ax = p;
	const char *s;
	size_t n;
	if (!is(S, SL_TOK_STRING))
		return err(S, "expected string");
	if (sli_p_string(S->P, &s, &n) < 0)
		return -1;
	ax->name = intern(S, s, n);
	if (expect(S, SL_TOK_EQUAL, "'='") < 0 || parse_int(S, &ax->size) < 0)
		return -1;
	if (ax->size < 1)
		return err(S, "axis size must be at least 1, got: %" PRId64, ax->size);
	return 0;
}

static int
mesh_body(sdyp *S, sl_mesh *out)
{
	list axes, ids = {NULL, 0};
	bool have_ids = false;
	sl_loc loc = sli_p_loc(S->P);
	memset(out, 0, sizeof *out);
	if (expect(S, SL_TOK_LESS, "'<'") < 0 || expect(S, SL_TOK_LSQUARE, "'['") < 0)
		return -1;
	if (list_body(S, SL_TOK_RSQUARE, sizeof(sl_mesh_axis), mesh_axis, &axes, false) < 0)
		return err(S, "failed to parse Sdy_Mesh parameter 'axes' which is to be a "
		           "`::llvm::ArrayRef<MeshAxisAttr>`");
	if (expect(S, SL_TOK_RSQUARE, "']'") < 0)
		return -1;
	if (accept(S, SL_TOK_COMMA)) {
		if (expect_kw(S, "device_ids") < 0 || expect(S, SL_TOK_EQUAL, "'='") < 0 ||
		    expect(S, SL_TOK_LSQUARE, "'['") < 0 ||
		    list_body(S, SL_TOK_RSQUARE, sizeof(int64_t), int_elem, &ids, false) < 0 ||
		    expect(S, SL_TOK_RSQUARE, "']'") < 0)
			return -1;
		have_ids = true;
	}
	if (expect(S, SL_TOK_GREATER, "'>'") < 0)
		return -1;
	out->naxes = axes.n;
	out->axes = axes.v;
	if (have_ids) {
		const int64_t *id = ids.v;
		bool iota = axes.n > 0 && (int64_t)ids.n == mesh_total(out);
		for (uint32_t i = 0; iota && i < ids.n; i++)
			iota = id[i] == (int64_t)i;
		if (!iota) {
			out->nids = ids.n;
			out->ids = ids.n ? ids.v : SL_NEWN(&S->P->m->arena, int64_t, 1);
		}
	}
	return check_mesh(S, out, loc);
}

/*
 * dim-sharding -> '{' (axis-ref (',' axis-ref)* (',' '?')? | '?')? '}' priority?
 * priority -> 'p' digits
 */
static int
dim_sharding(sdyp *S, void *p)
{
	sl_dim_sharding *out = p;
	SL_VEC(sl_axis_ref) v = {0};
	memset(out, 0, sizeof *out);
	out->priority = SL_NO_PRIORITY;
	if (expect(S, SL_TOK_LBRACE, "'{'") < 0)
		return -1;
	while (!accept(S, SL_TOK_RBRACE)) {
		sl_axis_ref r;
		if (v.n && expect(S, SL_TOK_COMMA, "','") < 0)
			goto fail;
		if (accept(S, SL_TOK_QUESTION)) {
			out->open = true;
			if (expect(S, SL_TOK_RBRACE, "'}'") < 0)
				goto fail;
			break;
		}
		if (axis_ref(S, &r) < 0)
			goto fail;
		SL_VEC_PUSH(v, r);
	}
	out->axes.n = (uint32_t)v.n;
	out->axes.v = shared_copy(S, v.v, v.n, sizeof *v.v);
	SL_VEC_FREE(v);
	if (is(S, SL_TOK_IDENT)) {
		const char *p = S->P->tok.p;
		size_t n = S->P->tok.n;
		bool digits = n >= 2 && p[0] == 'p';
		for (size_t i = 1; digits && i < n; i++)
			digits = p[i] >= '0' && p[i] <= '9';
		sli_p_next(S->P);
		if (!digits)
			return err(S, "expecting priority in format 'p<number>', got: %.*s", (int)n, p);
		if (p[1] == '0' && n > 2)
			return err(S, "priorities with leading zeros are not allowed, got: %.*s",
			           (int)n, p);
		int64_t pr = 0;
		for (size_t i = 1; i < n; i++) {
			int d = p[i] - '0';
			if (pr > (INT64_MAX - d) / 10)
				return err(S, "expecting integer priority, got: %.*s", (int)n, p);
			pr = pr * 10 + d;
		}
		out->priority = pr;
	}
	return 0;
fail:
	SL_VEC_FREE(v);
	return -1;
}

/* replicated-or-unreduced -> ('replicated' | 'unreduced') '=' reduction? axis-list */
static int
named_axis_list(sdyp *S, sl_sharding *s, bool unreduced)
{
	if (unreduced) {
		accept(S, SL_TOK_EQUAL);
		if (accept_kw(S, "sum"))
			s->reduction = SL_RED_SUM;
		else if (accept_kw(S, "max"))
			s->reduction = SL_RED_MAX;
		else if (accept_kw(S, "min"))
			s->reduction = SL_RED_MIN;
	} else if (expect(S, SL_TOK_EQUAL, "'='") < 0) {
		return -1;
	}
	return braced_axis_list(S, unreduced ? &s->unreduced : &s->replicated);
}

/*
 * sharding-body -> '<' mesh-or-ref ',' '[' (dim-sharding (',' dim-sharding)*)? ']'
 *                  (',' replicated-or-unreduced)* '>'
 * mesh-or-ref -> 'mesh' mesh-body | symbol-ref
 */
static int
sharding_body(sdyp *S, sl_sharding *out)
{
	list dims;
	bool seen_rep = false, seen_unred = false;
	memset(out, 0, sizeof *out);
	out->loc = sli_p_loc(S->P);
	if (expect(S, SL_TOK_LESS, "'<'") < 0)
		return -1;
	if (accept_kw(S, "mesh")) {
		sl_mesh *mesh = SL_NEW(&S->P->m->arena, sl_mesh);
		if (mesh_body(S, mesh) < 0)
			return err(S, "failed to parse MeshAttr");
		out->mesh = mesh;
	} else if (is(S, SL_TOK_AT)) {
		const sli_token *t = &S->P->tok;
		if (t->n >= 2 && t->p[1] == '"') {
			sli_buf b;
			sli_buf_init(&b);
			for (uint32_t i = 2; i + 1 < t->n; i++) {
				if (t->p[i] == '\\' && i + 2 < t->n)
					i++;
				sli_buf_putc(&b, t->p[i]);
			}
			out->mesh_name = intern(S, b.p ? b.p : "", b.n);
			sli_buf_fini(&b);
		} else {
			out->mesh_name = intern(S, t->p + 1, t->n - 1);
		}
		sli_p_next(S->P);
	} else {
		return err(S, "expecting MeshAttr or FlatSymbolRefAttr, got: %.*s",
		           (int)S->P->tok.n, S->P->tok.p);
	}
	if (expect(S, SL_TOK_COMMA, "','") < 0 || expect(S, SL_TOK_LSQUARE, "'['") < 0)
		return -1;
	if (list_body(S, SL_TOK_RSQUARE, sizeof(sl_dim_sharding), dim_sharding, &dims, true) < 0)
		return err(S, "failed to parse Sdy_TensorSharding parameter "
		           "'dim_shardings' which is to be a "
		           "`::llvm::ArrayRef<DimensionShardingAttr>`");
	out->rank = dims.n;
	out->dims = dims.v;
	if (expect(S, SL_TOK_RSQUARE, "']'") < 0)
		return -1;
	while (accept(S, SL_TOK_COMMA)) {
		if (!seen_rep && accept_kw(S, "replicated")) {
			seen_rep = true;
			if (named_axis_list(S, out, false) < 0)
				return err(S, "failed to parse Sdy_TensorSharding parameter "
				           "'replicated_axes'");
		} else if (!seen_unred && accept_kw(S, "unreduced")) {
			seen_unred = true;
			if (named_axis_list(S, out, true) < 0)
				return err(S, "failed to parse Sdy_TensorSharding parameter "
				           "'unreduced_axes'");
		} else {
			return err(S, "failed to parse Sdy_TensorSharding, expected valid "
			           "named axis list after comma");
		}
	}
	return expect(S, SL_TOK_GREATER, "'>'");
}

/* Skips the "#sdy.<mnemonic>" of a full attribute written where the
 * stripped form is expected. */
static void
skip_full_prefix(sdyp *S, const char *full)
{
	const sli_token *t = &S->P->tok;
	if (t->kind == SL_TOK_HASH && t->n == strlen(full) && memcmp(t->p, full, t->n) == 0)
		sli_p_next(S->P);
}

static int
sharding_attr(sdyp *S, sl_attr **out)
{
	sl_attr *a = new_attr(S, SL_ATTR_SHARDING, sli_p_loc(S->P));
	skip_full_prefix(S, "#sdy.sharding");
	a->loc = sli_p_loc(S->P);
	if (sharding_body(S, &a->u.sharding) < 0)
		return -1;
	*out = a;
	return 0;
}

/* sharding-list -> '[' (sharding (',' sharding)*)? ']'; `chain` adds the
 * message of Shardy's TensorShardingPerValueAttr parser on failure. */
/* A sharding in a list of them: an arena sharding and a pointer to it. */
static int
sharding_elem(sdyp *S, void *p)
{
	sl_sharding **out = p;
	*out = SL_NEW(&S->P->m->arena, sl_sharding);
	skip_full_prefix(S, "#sdy.sharding");
	return sharding_body(S, *out);
}

static int
sharding_list(sdyp *S, sl_attr **out, bool chain)
{
	sl_attr *a = new_attr(S, SL_ATTR_SHARDING_PER_VALUE, sli_p_loc(S->P));
	list l;
	if (expect(S, SL_TOK_LSQUARE, "'['") < 0)
		return -1;
	if (list_body(S, SL_TOK_RSQUARE, sizeof(sl_sharding *), sharding_elem, &l, false) < 0) {
		if (chain)
			err(S, "failed to parse Sdy_TensorShardingPerValue parameter "
			    "'shardings' which is to be a "
			    "`::llvm::ArrayRef<TensorShardingAttr>`");
		return -1;
	}
	if (expect(S, SL_TOK_RSQUARE, "']'") < 0)
		return -1;
	a->u.spv.n = l.n;
	a->u.spv.v = l.v;
	*out = a;
	return 0;
}

/* axis-ref-list -> axis-list (also for manual axes) */
static int
axis_list_attr(sdyp *S, sl_attr_kind kind, sl_attr **out)
{
	sl_attr *a = new_attr(S, kind, sli_p_loc(S->P));
	if (braced_axis_list(S, &a->u.axes) < 0)
		return -1;
	if (kind == SL_ATTR_MANUAL_AXES)
		for (uint32_t i = 0; i < a->u.axes.n; i++)
			if (a->u.axes.v[i].sub)
				return err(S, "expected '}'");
	*out = a;
	return 0;
}

/* list-of-axis-lists -> '[' (axis-list (',' axis-list)*)? ']' */
static int
axis_lists_attr(sdyp *S, sl_attr **out)
{
	sl_attr *a = new_attr(S, SL_ATTR_AXIS_REF_LISTS, sli_p_loc(S->P));
	list l;
	if (expect(S, SL_TOK_LSQUARE, "'['") < 0 ||
	    list_body(S, SL_TOK_RSQUARE, sizeof(sl_axis_list), braced_axis_list, &l, false) < 0 ||
	    expect(S, SL_TOK_RSQUARE, "']'") < 0)
		return -1;
	a->u.lists.n = l.n;
	a->u.lists.v = l.v;
	*out = a;
	return 0;
}

/* a2a-param -> axis-list ':' int '->' int */
static int
a2a_param(sdyp *S, void *p)
{
	sl_a2a_param *out = p;
	if (braced_axis_list(S, &out->axes) < 0 || expect(S, SL_TOK_COLON, "':'") < 0 ||
	    parse_int(S, &out->src) < 0 || expect(S, SL_TOK_ARROW, "'->'") < 0)
		return -1;
	return parse_int(S, &out->tgt);
}

/* a2a-params -> '[' a2a-param (',' a2a-param)* ']' */
static int
a2a_attr(sdyp *S, sl_attr **out)
{
	sl_attr *a = new_attr(S, SL_ATTR_ALL_TO_ALL_PARAMS, sli_p_loc(S->P));
	list l;
	if (expect(S, SL_TOK_LSQUARE, "'['") < 0 ||
	    list_body(S, SL_TOK_RSQUARE, sizeof(sl_a2a_param), a2a_param, &l, false) < 0 ||
	    expect(S, SL_TOK_RSQUARE, "']'") < 0)
		return -1;
	a->u.a2a.n = l.n;
	a->u.a2a.v = l.v;
	*out = a;
	return 0;
}

static int
direction_kw(sdyp *S, int *dir)
{
	static const char *const names[] = {"NONE", "FORWARD", "BACKWARD", "BOTH"};
	for (int i = 0; i < 4; i++)
		if (accept_kw(S, names[i])) {
			*dir = i == 0 ? SL_DIR_NONE : i == 1 ? SL_DIR_FORWARD :
			       i == 2 ? SL_DIR_BACKWARD : SL_DIR_BOTH;
			return 0;
		}
	return err(S, "expected ::mlir::sdy::PropagationDirection to be one of: "
	           "NONE, FORWARD, BACKWARD, BOTH");
}

/* ====================================================================
 * Parsing: #sdy.op_sharding_rule (sharding-rules.md section 2)
 * ==================================================================== */

#define SYM_Z 17	/* index of the factor symbol 'z' */

static void
factor_name(sli_buf *b, int64_t k)
{
	if (k >= 0 && k <= SYM_Z)
		sli_buf_putc(b, (char)('i' + k));
	else
		sli_buf_printf(b, "z_%" PRId64, k - SYM_Z);
}

/*
 * Reads one factor symbol from the front of *p (n bytes left): 'i'..'z' or
 * 'z_' digits.  Sets *big when the index does not fit.  Returns -1 on error.
 */
static int
factor_symbol(sdyp *S, const char **p, size_t *n, int64_t *index, bool *big)
{
	const char *s = *p;
	*big = false;
	if (!(*n >= 2 && s[0] == 'z' && s[1] == '_')) {
		char c = s[0];
		if (c < 'i' || c > 'z')
			return err(S, "expecting symbol from 'i' to 'z'. Received: '%c'", c);
		*p += 1;
		*n -= 1;
		*index = c - 'i';
		return 0;
	}
	size_t e = 2;
	while (e < *n && s[e] >= '0' && s[e] <= '9')
		e++;
	if (e == 2)
		return err(S, "expecting integer after 'z_'. Received: '%.*s'", (int)*n, s);
	if (s[2] == '0')
		return err(S, "expecting positive integer without leading zeros. Received: '%.*s'",
		           (int)(e - 2), s + 2);
	int64_t v = 0;
	for (size_t i = 2; i < e; i++) {
		int d = s[i] - '0';
		if (v > (INT64_MAX - d) / 10) {
			err(S, "expecting symbol index <=2^63-1. Received: '%.*s'", (int)(e - 2), s + 2);
			v = 0;
			break;
		}
		v = v * 10 + d;
	}
	if (v > INT64_MAX - SYM_Z)
		*big = true;
	*index = *big ? INT64_MAX : v + SYM_Z;
	*p += e;
	*n -= e;
	return 0;
}

typedef SL_VEC(uint32_t) u32vec;
typedef SL_VEC(int64_t) i64vec;

static uint32_t
clamp_index(int64_t k)
{
	return k < 0 || k > (int64_t)UINT32_MAX ? UINT32_MAX : (uint32_t)k;
}

/* dim-mapping -> identifier? (the symbols of its factors, concatenated) */
static int
dim_mapping(sdyp *S, void *out)
{
	sl_dim_mapping *d = out;
	u32vec f = {0};
	const char *p = S->P->tok.p;
	size_t n = S->P->tok.n;
	d->n = 0;
	d->factors = NULL;
	if (!is(S, SL_TOK_IDENT))
		return 0;
	while (n) {
		int64_t k;
		bool big;
		if (factor_symbol(S, &p, &n, &k, &big) < 0) {
			SL_VEC_FREE(f);
			return err(S, "failed to parse Sdy_TensorMapping parameter 'dim_mappings' "
			           "which is to be a `::llvm::ArrayRef<DimMappingAttr>`");
		}
		SL_VEC_PUSH(f, clamp_index(k));
	}
	sli_p_next(S->P);
	d->n = (uint32_t)f.n;
	d->factors = arena_copy(S, f.v, f.n, sizeof *f.v);
	SL_VEC_FREE(f);
	return 0;
}

/* tensor-mapping -> '[' (dim-mapping (',' dim-mapping)*)? ']' */
static int
tensor_mapping(sdyp *S, sl_tensor_mapping *out)
{
	list dims;
	memset(out, 0, sizeof *out);
	if (expect(S, SL_TOK_LSQUARE, "'['") < 0 ||
	    list_body(S, SL_TOK_RSQUARE, sizeof(sl_dim_mapping), dim_mapping, &dims, false) < 0 ||
	    expect(S, SL_TOK_RSQUARE, "']'") < 0)
		return -1;
	out->rank = dims.n;
	out->dims = dims.v;
	return 0;
}

/* mappings -> '(' tensor-mapping (',' tensor-mapping)* ')' */
static int
mappings(sdyp *S, sl_tensor_mapping **v, uint32_t *n, const char *param)
{
	SL_VEC(sl_tensor_mapping) tv = {0};
	if (expect(S, SL_TOK_LPAREN, "'('") < 0)
		return -1;
	do {
		sl_tensor_mapping t;
		if (tensor_mapping(S, &t) < 0) {
			SL_VEC_FREE(tv);
			return err(S, "failed to parse Sdy_OpShardingRule parameter '%s' which is "
			           "to be a `::llvm::ArrayRef<TensorMappingAttr>`", param);
		}
		SL_VEC_PUSH(tv, t);
	} while (accept(S, SL_TOK_COMMA));
	*n = (uint32_t)tv.n;
	*v = arena_copy(S, tv.v, tv.n, sizeof *tv.v);
	SL_VEC_FREE(tv);
	return expect(S, SL_TOK_RPAREN, "')'");
}

/* factor-sizes -> ('{' (symbol '=' int (',' symbol '=' int)*)? '}')? */
static int
factor_sizes(sdyp *S, sl_rule *rule)
{
	i64vec v = {0};
	if (!accept(S, SL_TOK_LBRACE))
		return 0;
	if (!is(S, SL_TOK_RBRACE)) {
		do {
			const char *p = S->P->tok.p;
			size_t n = S->P->tok.n;
			int64_t k, size;
			bool big;
			if (!is(S, SL_TOK_IDENT)) {
				err(S, "expected valid keyword");
				goto fail;
			}
			if (factor_symbol(S, &p, &n, &k, &big) < 0)
				goto fail;
			if (big || k != (int64_t)v.n) {
				sli_buf want, got;
				sli_buf_init(&want);
				sli_buf_init(&got);
				factor_name(&want, (int64_t)v.n);
				if (big)
					sli_buf_put(&got, S->P->tok.p, S->P->tok.n - n);
				else
					factor_name(&got, k);
				err(S, "expecting factor indices to be ordered like an iota "
				    "([0,1,2,...], e.g. {i=#, j=#, ...}). Expecting factor index "
				    "symbol '%s', received: '%s'", sli_buf_cstr(&want),
				    sli_buf_cstr(&got));
				sli_buf_fini(&want);
				sli_buf_fini(&got);
				goto fail;
			}
			if (n) {
				err(S, "expecting single factor symbol: %.*s", (int)n, p);
				goto fail;
			}
			sli_p_next(S->P);
			if (expect(S, SL_TOK_EQUAL, "'='") < 0 || parse_int(S, &size) < 0)
				goto fail;
			SL_VEC_PUSH(v, size);
		} while (accept(S, SL_TOK_COMMA));
	}
	if (expect(S, SL_TOK_RBRACE, "'}'") < 0)
		goto fail;
	rule->nfactors = (uint32_t)v.n;
	rule->factor_sizes = arena_copy(S, v.v, v.n, sizeof *v.v);
	SL_VEC_FREE(v);
	return 0;
fail:
	SL_VEC_FREE(v);
	return -1;
}

/* A single factor symbol, as its index. */
static int
factor_elem(sdyp *S, void *out)
{
	const char *p = S->P->tok.p;
	size_t n = S->P->tok.n;
	bool big;
	if (!is(S, SL_TOK_IDENT))
		return err(S, "expected valid keyword");
	if (factor_symbol(S, &p, &n, out, &big) < 0)
		return -1;
	sli_p_next(S->P);
	return 0;
}

/* typed-set -> keyword '=' ('{' (symbol (',' symbol)*)? '}')?  (1 when present;
 * without braces the set is empty, as in MLIR's OptionalBraces lists) */
static int
typed_set(sdyp *S, const char *kw, sl_factor_list *out)
{
	list l;
	if (!accept_kw(S, kw))
		return 0;
	if (expect(S, SL_TOK_EQUAL, "'='") < 0)
		return -1;
	if (accept(S, SL_TOK_LBRACE)) {
		if (list_body(S, SL_TOK_RBRACE, sizeof(int64_t), factor_elem, &l, false) < 0 ||
		    expect(S, SL_TOK_RBRACE, "'}'") < 0)
			return -1;
		out->n = l.n;
		out->v = l.v;
	}
	return 1;
}

/*
 * rule -> '<' mappings '->' mappings factor-sizes
 *         typed-set('reduction')? typed-set('need_replication')?
 *         typed-set('permutation')? typed-set('blocked_propagation')?
 *         (',' 'custom')? '>'
 */
static int
rule_attr(sdyp *S, sl_attr **out)
{
	sl_attr *a = new_attr(S, SL_ATTR_RULE, sli_p_loc(S->P));
	sl_rule *r = &a->u.rule;
	int k;
	if (expect(S, SL_TOK_LESS, "'<'") < 0 ||
	    mappings(S, &r->operands, &r->noperands, "operand_mappings") < 0 ||
	    expect(S, SL_TOK_ARROW, "'->'") < 0 ||
	    mappings(S, &r->results, &r->nresults, "result_mappings") < 0 ||
	    factor_sizes(S, r) < 0)
		return -1;
	if ((k = typed_set(S, "reduction", &r->reduction)) < 0)
		return -1;
	r->has_reduction = k > 0;
	if ((k = typed_set(S, "need_replication", &r->need_replication)) < 0)
		return -1;
	r->has_need_replication = k > 0;
	if ((k = typed_set(S, "permutation", &r->permutation)) < 0)
		return -1;
	r->has_permutation = k > 0;
	if ((k = typed_set(S, "blocked_propagation", &r->blocked)) < 0)
		return -1;
	r->has_blocked = k > 0;
	if (accept(S, SL_TOK_COMMA)) {
		if (expect_kw(S, "custom") < 0)
			return -1;
		r->custom = true;
	}
	if (expect(S, SL_TOK_GREATER, "'>'") < 0)
		return -1;
	*out = a;
	return 0;
}

/* ====================================================================
 * Parsing: #sdy.propagation_edges
 * ==================================================================== */

/* edge-ref -> ('operand' | 'result') '-' int */
static int
edge_ref(sdyp *S, void *p)
{
	sl_edge_ref *out = p;
	if (accept_kw(S, "operand"))
		out->result = false;
	else if (accept_kw(S, "result"))
		out->result = true;
	else
		return err(S, "expected 'operand' or 'result'");
	if (expect(S, SL_TOK_MINUS, "'-'") < 0)
		return -1;
	return parse_int(S, &out->index);
}

/* edge-entry -> '{' axis-ref '=' edge-ref '->' '[' edge-ref (',' edge-ref)* ']' '}' */
static int
edge_entry(sdyp *S, void *p)
{
	sl_edge_entry *out = p;
	list l;
	memset(out, 0, sizeof *out);
	if (expect(S, SL_TOK_LBRACE, "'{'") < 0 || axis_ref(S, &out->axis) < 0 ||
	    expect(S, SL_TOK_EQUAL, "'='") < 0 || edge_ref(S, &out->source) < 0 ||
	    expect(S, SL_TOK_ARROW, "'->'") < 0 || expect(S, SL_TOK_LSQUARE, "'['") < 0 ||
	    list_body(S, SL_TOK_RSQUARE, sizeof(sl_edge_ref), edge_ref, &l, false) < 0)
		return -1;
	out->ntargets = l.n;
	out->targets = l.v;
	if (expect(S, SL_TOK_RSQUARE, "']'") < 0)
		return -1;
	return expect(S, SL_TOK_RBRACE, "'}'");
}

/* edge-step -> '{' 'step' '-' int '=' '[' (edge-entry (',' edge-entry)*)? ']' '}' */
static int
edge_step(sdyp *S, void *p)
{
	sl_edge_step *out = p;
	list l;
	memset(out, 0, sizeof *out);
	if (expect(S, SL_TOK_LBRACE, "'{'") < 0 || expect_kw(S, "step") < 0 ||
	    expect(S, SL_TOK_MINUS, "'-'") < 0 || parse_int(S, &out->step) < 0 ||
	    expect(S, SL_TOK_EQUAL, "'='") < 0 || expect(S, SL_TOK_LSQUARE, "'['") < 0 ||
	    list_body(S, SL_TOK_RSQUARE, sizeof(sl_edge_entry), edge_entry, &l, false) < 0)
		return -1;
	out->n = l.n;
	out->entries = l.v;
	if (expect(S, SL_TOK_RSQUARE, "']'") < 0)
		return -1;
	return expect(S, SL_TOK_RBRACE, "'}'");
}

/* edges -> '<' '[' (edge-step (',' edge-step)*)? ']' '>' */
static int
edges_attr(sdyp *S, sl_attr **out)
{
	sl_attr *a = new_attr(S, SL_ATTR_PROP_EDGES, sli_p_loc(S->P));
	list l;
	if (expect(S, SL_TOK_LESS, "'<'") < 0 || expect(S, SL_TOK_LSQUARE, "'['") < 0 ||
	    list_body(S, SL_TOK_RSQUARE, sizeof(sl_edge_step), edge_step, &l, false) < 0)
		return -1;
	a->u.edges.n = l.n;
	a->u.edges.v = l.v;
	if (expect(S, SL_TOK_RSQUARE, "']'") < 0 || expect(S, SL_TOK_GREATER, "'>'") < 0)
		return -1;
	*out = a;
	return 0;
}

/* ====================================================================
 * Parsing: entry points for the core parser
 * ==================================================================== */

static bool
mnemonic_is(const char *m, size_t n, const char *s)
{
	return strlen(s) == n && memcmp(m, s, n) == 0;
}

/* Parses `'<' body '>'` around one of the bracket-delimited bodies. */
static int
angled(sdyp *S, int (*body)(sdyp *, sl_attr **), sl_attr **out)
{
	if (expect(S, SL_TOK_LESS, "'<'") < 0 || body(S, out) < 0)
		return -1;
	return expect(S, SL_TOK_GREATER, "'>'");
}

static int
ref_list_body(sdyp *S, sl_attr **out)
{
	return axis_list_attr(S, SL_ATTR_AXIS_REF_LIST, out);
}

static int
manual_axes_body(sdyp *S, sl_attr **out)
{
	return axis_list_attr(S, SL_ATTR_MANUAL_AXES, out);
}

static int
spv_body(sdyp *S, sl_attr **out)
{
	return sharding_list(S, out, true);
}

int
sli_p_sdy_attr(sli_parser *P, const char *mnemonic, size_t n, sl_attr **out)
{
	sdyp S;
	sl_loc loc = sli_p_loc(P);
	init_state(&S, P, NULL);
	if (mnemonic_is(mnemonic, n, "mesh")) {
		sl_attr *a = new_attr(&S, SL_ATTR_MESH, loc);
		if (mesh_body(&S, &a->u.mesh) < 0)
			return -1;
		*out = a;
		return 0;
	}
	if (mnemonic_is(mnemonic, n, "sharding"))
		return sharding_attr(&S, out);
	if (mnemonic_is(mnemonic, n, "sharding_per_value"))
		return angled(&S, spv_body, out);
	if (mnemonic_is(mnemonic, n, "axis_ref_list"))
		return angled(&S, ref_list_body, out);
	if (mnemonic_is(mnemonic, n, "manual_axes"))
		return angled(&S, manual_axes_body, out);
	if (mnemonic_is(mnemonic, n, "list_of_axis_ref_lists"))
		return angled(&S, axis_lists_attr, out);
	if (mnemonic_is(mnemonic, n, "all_to_all_param_list"))
		return angled(&S, a2a_attr, out);
	if (mnemonic_is(mnemonic, n, "op_sharding_rule"))
		return rule_attr(&S, out);
	if (mnemonic_is(mnemonic, n, "propagation_edges"))
		return edges_attr(&S, out);
	if (n == 0) {
		/* #sdy<propagation_direction X>, #sdy<manual_axes{..}> or
		 * #sdy<reduction_op max> */
		if (expect(&S, SL_TOK_LESS, "'<'") < 0)
			return -1;
		if (accept_kw(&S, "propagation_direction")) {
			sl_attr *a = new_attr(&S, SL_ATTR_DIRECTION, loc);
			if (direction_kw(&S, &a->u.direction) < 0 ||
			    expect(&S, SL_TOK_GREATER, "'>'") < 0)
				return -1;
			*out = a;
			return 0;
		}
		if (accept_kw(&S, "manual_axes")) {
			/* Shardy's ManualAxes format has no '<': `#sdy<manual_axes{"x"}>` */
			if (axis_list_attr(&S, SL_ATTR_MANUAL_AXES, out) < 0)
				return -1;
			return expect(&S, SL_TOK_GREATER, "'>'");
		}
		if (accept_kw(&S, "reduction_op")) {
			int64_t red = accept_kw(&S, "max") ? SL_RED_MAX :
			              accept_kw(&S, "min") ? SL_RED_MIN :
			              accept_kw(&S, "sum") ? SL_RED_SUM : -1;
			if (red < 0)
				return err(&S, "expected ::mlir::sdy::ReductionOp to be one of: "
				           "sum, max, min");
			if (expect(&S, SL_TOK_GREATER, "'>'") < 0)
				return -1;
			*out = sli_attr_int(P->m, red, NULL);
			(*out)->loc = loc;
			return 0;
		}
		return err(&S, "unknown sdy enum attribute");
	}
	return err(&S, "unknown attribute `%.*s` in dialect `sdy`", (int)n, mnemonic);
}

int
sli_p_sharding(sli_parser *P, sl_attr **out)
{
	sdyp S;
	init_state(&S, P, NULL);
	return sharding_attr(&S, out);
}

int
sli_p_sharding_list(sli_parser *P, sl_attr **out)
{
	sdyp S;
	init_state(&S, P, NULL);
	return sharding_list(&S, out, false);
}

int
sli_p_mesh_body(sli_parser *P, sl_mesh *out)
{
	sdyp S;
	init_state(&S, P, NULL);
	return mesh_body(&S, out);
}

/* ====================================================================
 * Parsing: custom syntax of the sdy ops
 * ==================================================================== */

static void
add_prop(sli_opstate *st, sl_sym name, sl_attr *a)
{
	sl_named_attr na = {name, a};
	SL_VEC_PUSH(st->props, na);
}

static int
attr_dict(sdyp *S, sli_opstate *st)
{
	sli_namedvec v = {0};
	int r = sli_p_optional_attr_dict(S->P, &v);
	for (size_t i = 0; i < v.n; i++)
		SL_VEC_PUSH(st->attrs, v.v[i]);
	SL_VEC_FREE(v);
	return r < 0 ? -1 : 0;
}

static int
operand(sdyp *S, sli_opstate *st)
{
	sl_value *v;
	if (sli_p_operand(S->P, &v) < 0)
		return -1;
	SL_VEC_PUSH(st->operands, v);
	return 0;
}

/* ':' type, as the single result type. */
static int
colon_type(sdyp *S, sli_opstate *st, bool result)
{
	sl_type *t;
	if (expect(S, SL_TOK_COLON, "':'") < 0 || sli_p_type(S->P, &t) < 0)
		return -1;
	if (result)
		SL_VEC_PUSH(st->result_types, t);
	return 0;
}

/* ':' '(' types ')' '->' types, keeping the results. */
static int
functional_type(sdyp *S, sli_opstate *st)
{
	sli_typevec ins = {0}, outs = {0};
	int r = -1;
	if (expect(S, SL_TOK_COLON, "':'") < 0)
		goto done;
	if (sli_p_functional_type(S->P, &ins, &outs) < 0)
		goto done;
	for (size_t i = 0; i < outs.n; i++)
		SL_VEC_PUSH(st->result_types, outs.v[i]);
	r = 0;
done:
	SL_VEC_FREE(ins);
	SL_VEC_FREE(outs);
	return r;
}

/* '(' block-args ')' region */
static int
body_region(sdyp *S, sli_opstate *st)
{
	sli_argvec args = {0};
	sl_region *r;
	int rc = -1;
	if (sli_p_arg_list(S->P, &args, true) < 0)
		goto done;
	if (sli_p_region(S->P, &r, args.v, (uint32_t)args.n) < 0)
		goto done;
	SL_VEC_PUSH(st->regions, r);
	rc = 0;
done:
	SL_VEC_FREE(args);
	return rc;
}

/* '(' operands? ')' */
static int
paren_operands(sdyp *S, sli_opstate *st)
{
	if (expect(S, SL_TOK_LPAREN, "'('") < 0)
		return -1;
	if (!is(S, SL_TOK_RPAREN) && sli_p_operand_list(S->P, st) < 0)
		return -1;
	return expect(S, SL_TOK_RPAREN, "')'");
}

/* keyword '=' with no spaces required. */
static int
keyword_eq(sdyp *S, const char *kw)
{
	if (expect_kw(S, kw) < 0)
		return -1;
	return expect(S, SL_TOK_EQUAL, "'='");
}

/* sdy.mesh @name '=' mesh attr-dict */
int
sli_parse_fmt_SDY_MESH(sli_parser *P, sli_opstate *st)
{
	sdyp S;
	sl_attr *mesh;
	init_state(&S, P, st);
	if (!is(&S, SL_TOK_AT))
		return err(&S, "expected valid '@'-identifier for symbol name");
	const sli_token t = P->tok;
	sl_attr *name;
	if (t.n >= 2 && t.p[1] == '"') {
		const char *s;
		size_t n;
		/* re-lex the quoted part of @"name" as a string literal */
		sli_lex_reset(&P->lx, t.p + 1, t.line, t.p - (t.col - 1));
		P->tok = sli_lex_next(&P->lx);
		if (sli_p_string(P, &s, &n) < 0)
			return -1;
		name = sli_attr_string(P->m, s, n);
	} else {
		name = sli_attr_string(P->m, t.p + 1, t.n - 1);
		sli_p_next(P);
	}
	name->loc = sli_p_tok_loc(P, &t);
	add_prop(st, SLS_sym_name, name);
	if (expect(&S, SL_TOK_EQUAL, "'='") < 0)
		return -1;
	mesh = new_attr(&S, SL_ATTR_MESH, sli_p_loc(P));
	skip_full_prefix(&S, "#sdy.mesh");
	if (mesh_body(&S, &mesh->u.mesh) < 0)
		return -1;
	add_prop(st, SLS_mesh, mesh);
	return attr_dict(&S, st);
}

/* sdy.sharding_constraint / sdy.reshard: %x sharding attr-dict ':' type */
int
sli_parse_fmt_SDY_SHARDING_OP(sli_parser *P, sli_opstate *st)
{
	sdyp S;
	sl_attr *s;
	init_state(&S, P, st);
	if (operand(&S, st) < 0 || sharding_attr(&S, &s) < 0)
		return -1;
	add_prop(st, SLS_sharding, s);
	if (attr_dict(&S, st) < 0)
		return -1;
	return colon_type(&S, st, true);
}

/* sdy.return attr-dict (%a, ... ':' types)? */
int
sli_parse_fmt_SDY_RETURN(sli_parser *P, sli_opstate *st)
{
	sdyp S;
	sli_typevec tv = {0};
	init_state(&S, P, st);
	if (attr_dict(&S, st) < 0)
		return -1;
	if (!is(&S, SL_TOK_PERCENT))
		return 0;
	if (sli_p_operand_list(P, st) < 0 || expect(&S, SL_TOK_COLON, "':'") < 0 ||
	    sli_p_type_list(P, &tv) < 0) {
		SL_VEC_FREE(tv);
		return -1;
	}
	SL_VEC_FREE(tv);
	return 0;
}

/*
 * sdy.manual_computation '(' operands ')' in_shardings=[..] out_shardings=[..]
 *     manual_axes={..} '(' args ')' region attr-dict ':' functional-type
 */
int
sli_parse_fmt_SDY_MANUAL(sli_parser *P, sli_opstate *st)
{
	sdyp S;
	sl_attr *in, *out, *manual;
	init_state(&S, P, st);
	if (paren_operands(&S, st) < 0 ||
	    keyword_eq(&S, "in_shardings") < 0 || sharding_list(&S, &in, false) < 0 ||
	    keyword_eq(&S, "out_shardings") < 0 || sharding_list(&S, &out, false) < 0 ||
	    keyword_eq(&S, "manual_axes") < 0 ||
	    axis_list_attr(&S, SL_ATTR_MANUAL_AXES, &manual) < 0)
		return -1;
	add_prop(st, SLS_in_shardings, in);
	add_prop(st, SLS_out_shardings, out);
	add_prop(st, SLS_manual_axes, manual);
	if (body_region(&S, st) < 0 || attr_dict(&S, st) < 0)
		return -1;
	return functional_type(&S, st);
}

/*
 * sdy.named_computation '<' string '>' '(' operands ')' (in_shardings=[..])?
 *     (out_shardings=[..])? '(' args ')' region attr-dict ':' functional-type
 */
int
sli_parse_fmt_SDY_NAMED(sli_parser *P, sli_opstate *st)
{
	sdyp S;
	const char *s;
	size_t n;
	sl_attr *a;
	init_state(&S, P, st);
	if (expect(&S, SL_TOK_LESS, "'<'") < 0)
		return -1;
	if (!is(&S, SL_TOK_STRING))
		return err(&S, "expected string");
	sl_loc loc = sli_p_loc(P);
	if (sli_p_string(P, &s, &n) < 0)
		return -1;
	a = sli_attr_string(P->m, s, n);
	a->loc = loc;
	add_prop(st, SLS_name, a);
	if (expect(&S, SL_TOK_GREATER, "'>'") < 0 || paren_operands(&S, st) < 0)
		return -1;
	if (accept_kw(&S, "in_shardings")) {
		if (expect(&S, SL_TOK_EQUAL, "'='") < 0 || sharding_list(&S, &a, false) < 0)
			return -1;
		add_prop(st, SLS_in_shardings, a);
	}
	if (accept_kw(&S, "out_shardings")) {
		if (expect(&S, SL_TOK_EQUAL, "'='") < 0 || sharding_list(&S, &a, false) < 0)
			return -1;
		add_prop(st, SLS_out_shardings, a);
	}
	if (body_region(&S, st) < 0 || attr_dict(&S, st) < 0)
		return -1;
	return functional_type(&S, st);
}

/* sdy.sharding_group %x group_id '=' int attr-dict ':' type */
int
sli_parse_fmt_SDY_GROUP(sli_parser *P, sli_opstate *st)
{
	sdyp S;
	int64_t id;
	init_state(&S, P, st);
	if (operand(&S, st) < 0 || keyword_eq(&S, "group_id") < 0)
		return -1;
	sl_loc loc = sli_p_loc(P);
	if (parse_int(&S, &id) < 0)
		return -1;
	sl_attr *a = sli_attr_int(P->m, id, sli_type_elem(P->ctx, "i64", 3));
	a->loc = loc;
	add_prop(st, SLS_group_id, a);
	if (attr_dict(&S, st) < 0)
		return -1;
	return colon_type(&S, st, false);
}

/* sdy.constant attr-dict elements-attr (with its ': type') */
int
sli_parse_fmt_SDY_CONSTANT(sli_parser *P, sli_opstate *st)
{
	sdyp S;
	sl_attr *v;
	sl_type *t = NULL;
	init_state(&S, P, st);
	if (attr_dict(&S, st) < 0 || sli_p_attr(P, &v) < 0)
		return -1;
	add_prop(st, SLS_value, v);
	if (v->kind == SL_ATTR_DENSE)
		t = v->u.dense.type;
	if (!t || is(&S, SL_TOK_COLON))
		return colon_type(&S, st, true);
	SL_VEC_PUSH(st->result_types, t);
	return 0;
}

/* sdy.data_flow_edge %x (sharding '=' sharding)? attr-dict ':' type */
int
sli_parse_fmt_SDY_DFE(sli_parser *P, sli_opstate *st)
{
	sdyp S;
	init_state(&S, P, st);
	if (operand(&S, st) < 0)
		return -1;
	if (accept_kw(&S, "sharding")) {
		sl_attr *s;
		if (expect(&S, SL_TOK_EQUAL, "'='") < 0 || sharding_attr(&S, &s) < 0)
			return -1;
		add_prop(st, SLS_sharding, s);
	}
	if (attr_dict(&S, st) < 0)
		return -1;
	return colon_type(&S, st, true);
}

/* sdy.func_data_flow_edge %x attr-dict ':' type */
int
sli_parse_fmt_SDY_FDFE(sli_parser *P, sli_opstate *st)
{
	sdyp S;
	init_state(&S, P, st);
	if (operand(&S, st) < 0 || attr_dict(&S, st) < 0)
		return -1;
	return colon_type(&S, st, true);
}

/* sdy.propagation_barrier %x allowed_direction '=' DIR attr-dict ':' type */
int
sli_parse_fmt_SDY_BARRIER(sli_parser *P, sli_opstate *st)
{
	sdyp S;
	init_state(&S, P, st);
	if (operand(&S, st) < 0 || keyword_eq(&S, "allowed_direction") < 0)
		return -1;
	sl_attr *a = new_attr(&S, SL_ATTR_DIRECTION, sli_p_loc(P));
	if (direction_kw(&S, &a->u.direction) < 0)
		return -1;
	add_prop(st, SLS_allowed_direction, a);
	if (attr_dict(&S, st) < 0)
		return -1;
	return colon_type(&S, st, true);
}

/* The axes prop of a collective and its syntax, by op kind. */
static sl_sym
collective_axes(sl_op_kind k, sl_attr_kind *kind)
{
	switch (k) {
	case SL_OP_SDY_ALL_GATHER:
		*kind = SL_ATTR_AXIS_REF_LISTS;
		return SLS_gathering_axes;
	case SL_OP_SDY_ALL_SLICE:
		*kind = SL_ATTR_AXIS_REF_LISTS;
		return SLS_slicing_axes;
	case SL_OP_SDY_REDUCE_SCATTER:
		*kind = SL_ATTR_AXIS_REF_LISTS;
		return SLS_scatter_axes;
	case SL_OP_SDY_SHARDED_TO_UNREDUCED:
		*kind = SL_ATTR_AXIS_REF_LISTS;
		return SLS_axes;
	case SL_OP_SDY_ALL_TO_ALL:
		*kind = SL_ATTR_ALL_TO_ALL_PARAMS;
		return SLS_params;
	case SL_OP_SDY_ALL_REDUCE:
		*kind = SL_ATTR_AXIS_REF_LIST;
		return SLS_reduction_axes;
	case SL_OP_SDY_REPLICATED_TO_UNREDUCED:
		*kind = SL_ATTR_AXIS_REF_LIST;
		return SLS_axes;
	default:
		*kind = SL_ATTR_UNIT;
		return 0;
	}
}

static bool
has_reduction_op(sl_op_kind k)
{
	return k == SL_OP_SDY_ALL_REDUCE || k == SL_OP_SDY_REDUCE_SCATTER;
}

/*
 * collective -> reduction-op? axes? %x out_sharding '=' sharding attr-dict ':' type
 * reduction-op -> 'sum' | 'max' | 'min'   (all_reduce, reduce_scatter)
 */
int
sli_parse_fmt_SDY_COLLECTIVE(sli_parser *P, sli_opstate *st)
{
	sdyp S;
	sl_attr_kind kind;
	sl_sym axes = collective_axes(st->kind, &kind);
	sl_attr *a;
	init_state(&S, P, st);
	if (has_reduction_op(st->kind) && is(&S, SL_TOK_IDENT)) {
		sl_loc loc = sli_p_loc(P);
		int64_t red = accept_kw(&S, "max") ? SL_RED_MAX :
		              accept_kw(&S, "min") ? SL_RED_MIN :
		              accept_kw(&S, "sum") ? SL_RED_SUM : -1;
		if (red < 0)
			return err(&S, "expected ::mlir::sdy::ReductionOp to be one of: "
			           "sum, max, min");
		if (red != SL_RED_SUM) {
			a = sli_attr_int(P->m, red, NULL);
			a->loc = loc;
			add_prop(st, SLS_reduction_op, a);
		}
	}
	if (axes) {
		int r = kind == SL_ATTR_AXIS_REF_LISTS ? axis_lists_attr(&S, &a) :
		        kind == SL_ATTR_ALL_TO_ALL_PARAMS ? a2a_attr(&S, &a) :
		        axis_list_attr(&S, SL_ATTR_AXIS_REF_LIST, &a);
		if (r < 0)
			return -1;
		add_prop(st, axes, a);
	}
	if (operand(&S, st) < 0 || keyword_eq(&S, "out_sharding") < 0 ||
	    sharding_attr(&S, &a) < 0)
		return -1;
	add_prop(st, SLS_out_sharding, a);
	if (attr_dict(&S, st) < 0)
		return -1;
	return colon_type(&S, st, true);
}

/* ====================================================================
 * Printing: attributes
 * ==================================================================== */

static void
put_sym_string(sli_buf *b, const sl_context *ctx, sl_sym s)
{
	sli_print_string(b, sl_sym_str(ctx, s), sli_sym_len(ctx, s));
}

static bool
is_bare_ident(const char *s, size_t n)
{
	if (!n || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') || s[0] == '_'))
		return false;
	for (size_t i = 1; i < n; i++) {
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '$' || c == '.'))
			return false;
	}
	return true;
}

/* @name, quoted when it is not a bare identifier. */
static void
put_symref(sli_buf *b, const char *s, size_t n)
{
	sli_buf_putc(b, '@');
	if (is_bare_ident(s, n))
		sli_buf_put(b, s, n);
	else
		sli_print_string(b, s, n);
}

void
sli_print_axis_ref(sli_buf *b, const sl_context *ctx, const sl_axis_ref *r)
{
	put_sym_string(b, ctx, r->name);
	if (r->sub)
		sli_buf_printf(b, ":(%" PRId64 ")%" PRId64, r->pre, r->size);
}

static void
axis_refs(sli_buf *b, const sl_context *ctx, const sl_axis_list *l)
{
	for (uint32_t i = 0; i < l->n; i++) {
		if (i)
			sli_buf_puts(b, ", ");
		sli_print_axis_ref(b, ctx, &l->v[i]);
	}
}

void
sli_print_axis_list(sli_buf *b, const sl_context *ctx, const sl_axis_list *l)
{
	sli_buf_putc(b, '{');
	axis_refs(b, ctx, l);
	sli_buf_putc(b, '}');
}

void
sli_print_mesh_body(sli_buf *b, const sl_context *ctx, const sl_mesh *mesh)
{
	sli_buf_puts(b, "<[");
	for (uint32_t i = 0; i < mesh->naxes; i++) {
		if (i)
			sli_buf_puts(b, ", ");
		put_sym_string(b, ctx, mesh->axes[i].name);
		sli_buf_printf(b, "=%" PRId64, mesh->axes[i].size);
	}
	sli_buf_putc(b, ']');
	if (mesh->ids) {
		sli_buf_puts(b, ", device_ids=[");
		for (uint32_t i = 0; i < mesh->nids; i++)
			sli_buf_printf(b, "%s%" PRId64, i ? ", " : "", mesh->ids[i]);
		sli_buf_putc(b, ']');
	}
	sli_buf_putc(b, '>');
}

static void
dim_sharding_print(sli_buf *b, const sl_context *ctx, const sl_dim_sharding *d)
{
	sli_buf_putc(b, '{');
	axis_refs(b, ctx, &d->axes);
	if (d->open)
		sli_buf_puts(b, d->axes.n ? ", ?" : "?");
	sli_buf_putc(b, '}');
	if (d->priority != SL_NO_PRIORITY)
		sli_buf_printf(b, "p%" PRId64, d->priority);
}

void
sli_print_sharding(sli_buf *b, const sl_context *ctx, const sl_sharding *s, bool full)
{
	if (full)
		sli_buf_puts(b, "#sdy.sharding");
	sli_buf_putc(b, '<');
	if (s->mesh) {
		sli_buf_puts(b, "mesh");
		sli_print_mesh_body(b, ctx, s->mesh);
	} else {
		put_symref(b, sl_sym_str(ctx, s->mesh_name), sli_sym_len(ctx, s->mesh_name));
	}
	sli_buf_puts(b, ", [");
	for (uint32_t i = 0; i < s->rank; i++) {
		if (i)
			sli_buf_puts(b, ", ");
		dim_sharding_print(b, ctx, &s->dims[i]);
	}
	sli_buf_putc(b, ']');
	if (s->replicated.n) {
		sli_buf_puts(b, ", replicated=");
		sli_print_axis_list(b, ctx, &s->replicated);
	}
	if (s->unreduced.n) {
		sli_buf_puts(b, ", unreduced=");
		if (s->reduction == SL_RED_MAX)
			sli_buf_puts(b, "max");
		else if (s->reduction == SL_RED_MIN)
			sli_buf_puts(b, "min");
		sli_print_axis_list(b, ctx, &s->unreduced);
	}
	sli_buf_putc(b, '>');
}

static void
factor_set(sli_buf *b, const char *kw, const sl_factor_list *l)
{
	if (!l->n)
		return;
	sli_buf_printf(b, " %s={", kw);
	for (uint32_t i = 0; i < l->n; i++) {
		if (i)
			sli_buf_puts(b, ", ");
		factor_name(b, l->v[i]);
	}
	sli_buf_putc(b, '}');
}

static void
tensor_mappings_print(sli_buf *b, const sl_tensor_mapping *v, uint32_t n)
{
	sli_buf_putc(b, '(');
	for (uint32_t i = 0; i < n; i++) {
		if (i)
			sli_buf_puts(b, ", ");
		sli_buf_putc(b, '[');
		for (uint32_t d = 0; d < v[i].rank; d++) {
			if (d)
				sli_buf_puts(b, ", ");
			for (uint32_t f = 0; f < v[i].dims[d].n; f++)
				factor_name(b, v[i].dims[d].factors[f]);
		}
		sli_buf_putc(b, ']');
	}
	sli_buf_putc(b, ')');
}

static void
rule_print(sli_buf *b, const sl_rule *r)
{
	sli_buf_putc(b, '<');
	tensor_mappings_print(b, r->operands, r->noperands);
	sli_buf_puts(b, "->");
	tensor_mappings_print(b, r->results, r->nresults);
	if (r->nfactors) {
		sli_buf_puts(b, " {");
		for (uint32_t k = 0; k < r->nfactors; k++) {
			if (k)
				sli_buf_puts(b, ", ");
			factor_name(b, k);
			sli_buf_printf(b, "=%" PRId64, r->factor_sizes[k]);
		}
		sli_buf_putc(b, '}');
	}
	factor_set(b, "reduction", &r->reduction);
	factor_set(b, "need_replication", &r->need_replication);
	factor_set(b, "permutation", &r->permutation);
	factor_set(b, "blocked_propagation", &r->blocked);
	if (r->custom)
		sli_buf_puts(b, ", custom");
	sli_buf_putc(b, '>');
}

static void
edge_ref_print(sli_buf *b, const sl_edge_ref *r)
{
	sli_buf_printf(b, "%s-%" PRId64, r->result ? "result" : "operand", r->index);
}

static void
edges_print(sli_buf *b, const sl_context *ctx, const sl_attr *a)
{
	sli_buf_puts(b, "<[");
	for (uint32_t i = 0; i < a->u.edges.n; i++) {
		const sl_edge_step *st = &a->u.edges.v[i];
		if (i)
			sli_buf_puts(b, ", ");
		sli_buf_printf(b, "{step-%" PRId64 " = [", st->step);
		for (uint32_t j = 0; j < st->n; j++) {
			const sl_edge_entry *e = &st->entries[j];
			if (j)
				sli_buf_puts(b, ", ");
			sli_buf_putc(b, '{');
			sli_print_axis_ref(b, ctx, &e->axis);
			sli_buf_puts(b, " = ");
			edge_ref_print(b, &e->source);
			sli_buf_puts(b, " -> [");
			for (uint32_t t = 0; t < e->ntargets; t++) {
				if (t)
					sli_buf_puts(b, ", ");
				edge_ref_print(b, &e->targets[t]);
			}
			sli_buf_puts(b, "]}");
		}
		sli_buf_puts(b, "]}");
	}
	sli_buf_puts(b, "]>");
}

static const char *
direction_name(int d)
{
	switch (d) {
	case SL_DIR_NONE: return "NONE";
	case SL_DIR_FORWARD: return "FORWARD";
	case SL_DIR_BACKWARD: return "BACKWARD";
	default: return "BOTH";
	}
}

void
sli_print_sdy_attr(sli_buf *b, const sl_context *ctx, const sl_attr *a, bool full)
{
	switch (a->kind) {
	case SL_ATTR_MESH:
		if (full)
			sli_buf_puts(b, "#sdy.mesh");
		sli_print_mesh_body(b, ctx, &a->u.mesh);
		break;
	case SL_ATTR_SHARDING:
		sli_print_sharding(b, ctx, &a->u.sharding, full);
		break;
	case SL_ATTR_SHARDING_PER_VALUE:
		if (full)
			sli_buf_puts(b, "#sdy.sharding_per_value<");
		sli_buf_putc(b, '[');
		for (uint32_t i = 0; i < a->u.spv.n; i++) {
			if (i)
				sli_buf_puts(b, ", ");
			sli_print_sharding(b, ctx, a->u.spv.v[i], false);
		}
		sli_buf_putc(b, ']');
		if (full)
			sli_buf_putc(b, '>');
		break;
	case SL_ATTR_AXIS_REF_LIST:
	case SL_ATTR_MANUAL_AXES:
		if (full)
			sli_buf_puts(b, a->kind == SL_ATTR_MANUAL_AXES ? "#sdy<manual_axes" :
			             "#sdy.axis_ref_list<");
		sli_print_axis_list(b, ctx, &a->u.axes);
		if (full)
			sli_buf_putc(b, '>');
		break;
	case SL_ATTR_AXIS_REF_LISTS:
		if (full)
			sli_buf_puts(b, "#sdy.list_of_axis_ref_lists<");
		sli_buf_putc(b, '[');
		for (uint32_t i = 0; i < a->u.lists.n; i++) {
			if (i)
				sli_buf_puts(b, ", ");
			sli_print_axis_list(b, ctx, &a->u.lists.v[i]);
		}
		sli_buf_putc(b, ']');
		if (full)
			sli_buf_putc(b, '>');
		break;
	case SL_ATTR_ALL_TO_ALL_PARAMS:
		if (full)
			sli_buf_puts(b, "#sdy.all_to_all_param_list<");
		sli_buf_putc(b, '[');
		for (uint32_t i = 0; i < a->u.a2a.n; i++) {
			const sl_a2a_param *p = &a->u.a2a.v[i];
			if (i)
				sli_buf_puts(b, ", ");
			sli_print_axis_list(b, ctx, &p->axes);
			sli_buf_printf(b, ": %" PRId64 "->%" PRId64, p->src, p->tgt);
		}
		sli_buf_putc(b, ']');
		if (full)
			sli_buf_putc(b, '>');
		break;
	case SL_ATTR_RULE:
		if (full)
			sli_buf_puts(b, "#sdy.op_sharding_rule");
		rule_print(b, &a->u.rule);
		break;
	case SL_ATTR_PROP_EDGES:
		if (full)
			sli_buf_puts(b, "#sdy.propagation_edges");
		edges_print(b, ctx, a);
		break;
	case SL_ATTR_DIRECTION:
		if (full)
			sli_buf_printf(b, "#sdy<propagation_direction %s>", direction_name(a->u.direction));
		else
			sli_buf_puts(b, direction_name(a->u.direction));
		break;
	default:
		SL_UNREACHABLE();
	}
}

/* ====================================================================
 * Printing: custom syntax of the sdy ops
 * ==================================================================== */

static void
pr_stripped(sli_printer *pr, const sl_attr *a)
{
	if (a)
		sli_print_sdy_attr(pr->b, pr->ctx, a, false);
}

/* " %x" of operand i. */
static void
pr_operand(sli_printer *pr, const sl_op *op, uint32_t i)
{
	if (i < op->noperands) {
		sli_pr_putc(pr, ' ');
		sli_pr_value(pr, op->operands[i]);
	}
}

/* " : type" of the first result, else of the first operand. */
static void
pr_colon_type(sli_printer *pr, const sl_op *op)
{
	sli_pr_puts(pr, " : ");
	if (op->nresults)
		sli_pr_type(pr, op->results[0].type);
	else if (op->noperands)
		sli_pr_type(pr, op->operands[0]->type);
}

static void
pr_region_with_args(sli_printer *pr, const sl_op *op)
{
	if (!op->nregions)
		return;
	const sl_region *r = &op->regions[0];
	const sl_block *entry = sli_region_entry(r);
	sli_pr_puts(pr, " (");
	if (entry)
		sli_pr_block_arg_list(pr, entry, true);
	sli_pr_puts(pr, ") ");
	sli_pr_region(pr, r, false);
}

void
sli_print_fmt_SDY_MESH(sli_printer *pr, const sl_op *op)
{
	static const sl_sym elide[] = {SLS_sym_name, SLS_mesh, 0};
	const sl_attr *name = sli_op_get(op, SLS_sym_name);
	const sl_attr *mesh = sli_op_get(op, SLS_mesh);
	sli_pr_putc(pr, ' ');
	if (name && name->kind == SL_ATTR_STRING)
		put_symref(pr->b, name->u.s.p, name->u.s.n);
	sli_pr_puts(pr, " = ");
	pr_stripped(pr, mesh);
	sli_pr_attr_dict(pr, op, elide);
}

void
sli_print_fmt_SDY_SHARDING_OP(sli_printer *pr, const sl_op *op)
{
	static const sl_sym elide[] = {SLS_sharding, 0};
	pr_operand(pr, op, 0);
	sli_pr_putc(pr, ' ');
	pr_stripped(pr, sli_op_get(op, SLS_sharding));
	sli_pr_attr_dict(pr, op, elide);
	pr_colon_type(pr, op);
}

void
sli_print_fmt_SDY_RETURN(sli_printer *pr, const sl_op *op)
{
	sli_pr_attr_dict(pr, op, NULL);
	if (!op->noperands)
		return;
	sli_pr_putc(pr, ' ');
	sli_pr_operands(pr, op, 0, op->noperands);
	sli_pr_puts(pr, " : ");
	sli_pr_operand_types(pr, op);
}

void
sli_print_fmt_SDY_MANUAL(sli_printer *pr, const sl_op *op)
{
	static const sl_sym elide[] = {SLS_in_shardings, SLS_out_shardings, SLS_manual_axes, 0};
	sli_pr_putc(pr, '(');
	sli_pr_operands(pr, op, 0, op->noperands);
	sli_pr_puts(pr, ") in_shardings=");
	pr_stripped(pr, sli_op_get(op, SLS_in_shardings));
	sli_pr_puts(pr, " out_shardings=");
	pr_stripped(pr, sli_op_get(op, SLS_out_shardings));
	sli_pr_puts(pr, " manual_axes=");
	pr_stripped(pr, sli_op_get(op, SLS_manual_axes));
	pr_region_with_args(pr, op);
	sli_pr_attr_dict(pr, op, elide);
	sli_pr_puts(pr, " : ");
	sli_pr_functional_type(pr, op);
}

void
sli_print_fmt_SDY_NAMED(sli_printer *pr, const sl_op *op)
{
	static const sl_sym elide[] = {SLS_name, SLS_in_shardings, SLS_out_shardings, 0};
	const sl_attr *name = sli_op_get(op, SLS_name);
	const sl_attr *in = sli_op_get(op, SLS_in_shardings);
	const sl_attr *out = sli_op_get(op, SLS_out_shardings);
	sli_pr_putc(pr, '<');
	if (name && name->kind == SL_ATTR_STRING)
		sli_print_string(pr->b, name->u.s.p, name->u.s.n);
	sli_pr_puts(pr, ">(");
	sli_pr_operands(pr, op, 0, op->noperands);
	sli_pr_putc(pr, ')');
	if (in) {
		sli_pr_puts(pr, " in_shardings=");
		pr_stripped(pr, in);
	}
	if (out) {
		sli_pr_puts(pr, " out_shardings=");
		pr_stripped(pr, out);
	}
	pr_region_with_args(pr, op);
	sli_pr_attr_dict(pr, op, elide);
	sli_pr_puts(pr, " : ");
	sli_pr_functional_type(pr, op);
}

void
sli_print_fmt_SDY_GROUP(sli_printer *pr, const sl_op *op)
{
	static const sl_sym elide[] = {SLS_group_id, 0};
	const sl_attr *id = sli_op_get(op, SLS_group_id);
	pr_operand(pr, op, 0);
	sli_pr_puts(pr, " group_id=");
	if (id && id->kind == SL_ATTR_INT)
		sli_pr_i64(pr, id->u.i.v);
	sli_pr_attr_dict(pr, op, elide);
	pr_colon_type(pr, op);
}

void
sli_print_fmt_SDY_CONSTANT(sli_printer *pr, const sl_op *op)
{
	static const sl_sym elide[] = {SLS_value, 0};
	const sl_attr *v = sli_op_get(op, SLS_value);
	sli_pr_attr_dict(pr, op, elide);
	sli_pr_putc(pr, ' ');
	if (v)
		sli_pr_attr(pr, v);
	if (!v || v->kind != SL_ATTR_DENSE || !v->u.dense.type)
		pr_colon_type(pr, op);
}

void
sli_print_fmt_SDY_DFE(sli_printer *pr, const sl_op *op)
{
	static const sl_sym elide[] = {SLS_sharding, 0};
	const sl_attr *s = sli_op_get(op, SLS_sharding);
	pr_operand(pr, op, 0);
	if (s) {
		sli_pr_puts(pr, " sharding=");
		pr_stripped(pr, s);
	}
	sli_pr_attr_dict(pr, op, elide);
	pr_colon_type(pr, op);
}

void
sli_print_fmt_SDY_FDFE(sli_printer *pr, const sl_op *op)
{
	pr_operand(pr, op, 0);
	sli_pr_attr_dict(pr, op, NULL);
	pr_colon_type(pr, op);
}

void
sli_print_fmt_SDY_BARRIER(sli_printer *pr, const sl_op *op)
{
	static const sl_sym elide[] = {SLS_allowed_direction, 0};
	pr_operand(pr, op, 0);
	sli_pr_puts(pr, " allowed_direction=");
	pr_stripped(pr, sli_op_get(op, SLS_allowed_direction));
	sli_pr_attr_dict(pr, op, elide);
	pr_colon_type(pr, op);
}

void
sli_print_fmt_SDY_COLLECTIVE(sli_printer *pr, const sl_op *op)
{
	sl_attr_kind kind;
	sl_sym axes = collective_axes(op->kind, &kind);
	sl_sym elide[] = {SLS_out_sharding, SLS_reduction_op, axes, 0};
	const sl_attr *red = sli_op_get(op, SLS_reduction_op);
	if (has_reduction_op(op->kind) && red && red->kind == SL_ATTR_INT &&
	    red->u.i.v != SL_RED_SUM)
		sli_pr_puts(pr, red->u.i.v == SL_RED_MAX ? " max" : " min");
	if (axes) {
		sli_pr_putc(pr, ' ');
		pr_stripped(pr, sli_op_get(op, axes));
	}
	pr_operand(pr, op, 0);
	sli_pr_puts(pr, " out_sharding=");
	pr_stripped(pr, sli_op_get(op, SLS_out_sharding));
	sli_pr_attr_dict(pr, op, elide);
	pr_colon_type(pr, op);
}
