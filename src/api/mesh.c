/*
 * mesh.c - auto-sharding (shardlp.h): a mesh given on the command line
 * for a program that has none ("x=2,y=4"), pins on the main function's
 * arguments ("*:0=x"), and the count of the shardings a program carries,
 * so that a tool can say when greedy propagation has nothing to start
 * from.
 */
#include "shardlp.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ir/access.h"
#include "ir/rewrite.h"
#include "passes/callgraph.h"
#include "passes/symtab.h"

/* The largest mesh: as many devices as an int32 device id can number. */
#define MAX_DEVICES ((int64_t)1 << 31)

static int
fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (errlen)
		vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* An axis name as sdy writes it unquoted: [A-Za-z_][A-Za-z0-9_]*. */
static size_t
name_len(const char *s)
{
	size_t n = 0;
	if (!isalpha((unsigned char)*s) && *s != '_')
		return 0;
	while (isalnum((unsigned char)s[n]) || s[n] == '_')
		n++;
	return n;
}

/* A decimal integer in [lo, hi] at *p, advancing *p; -1 when none. */
static int64_t
number(const char **p, int64_t lo, int64_t hi)
{
	if (!isdigit((unsigned char)**p))
		return -1;
	errno = 0;
	char *end;
	long long v = strtoll(*p, &end, 10);
	if (errno || v < lo || v > hi)
		return -1;
	*p = end;
	return v;
}

/* "x=2,y=4" into *mesh (axes in m's arena); 0 or -1 with err. */
static int
parse_mesh(sl_module *m, const char *spec, sl_mesh *mesh, char *err, size_t errlen)
{
	SL_VEC(sl_mesh_axis) axes = {0};
	int64_t devices = 1;
	const char *p = spec;
	memset(mesh, 0, sizeof *mesh);
	for (;;) {
		size_t n = name_len(p);
		if (!n) {
			SL_VEC_FREE(axes);
			return fail(err, errlen, "mesh '%s': expected an axis name at '%s'", spec, p);
		}
		sl_mesh_axis a = {sl_sym_intern(m->ctx, p, n), 0};
		p += n;
		if (*p++ != '=' || (a.size = number(&p, 1, MAX_DEVICES)) < 0) {
			SL_VEC_FREE(axes);
			return fail(err, errlen, "mesh '%s': axis '%.*s' needs a size "
			            "from 1 to %" PRId64 " ('%.*s=SIZE')", spec, (int)n, p - n - 1,
			            MAX_DEVICES, (int)n, p - n - 1);
		}
		for (size_t i = 0; i < axes.n; i++)
			if (axes.v[i].name == a.name) {
				SL_VEC_FREE(axes);
				return fail(err, errlen, "mesh '%s': axis '%s' named twice", spec,
				            sl_sym_str(m->ctx, a.name));
			}
		devices *= a.size;
		if (devices > MAX_DEVICES) {
			SL_VEC_FREE(axes);
			return fail(err, errlen, "mesh '%s': more than %" PRId64 " devices", spec,
			            MAX_DEVICES);
		}
		SL_VEC_PUSH(axes, a);
		if (*p == 0)
			break;
		if (*p++ != ',') {
			SL_VEC_FREE(axes);
			return fail(err, errlen, "mesh '%s': expected ',' or the end at '%s'", spec,
			            p - 1);
		}
	}
	mesh->naxes = (uint32_t)axes.n;
	mesh->axes = SL_NEWN(&m->arena, sl_mesh_axis, axes.n);
	memcpy(mesh->axes, axes.v, axes.n * sizeof *axes.v);
	SL_VEC_FREE(axes);
	return 0;
}

/* The module's mesh ops: how many, and the first. */
static size_t
mesh_ops(sl_module *m, sl_op **first)
{
	size_t n = 0;
	*first = NULL;
	sl_block *body = sli_module_body(m);
	for (sl_op *op = body ? body->first : NULL; op; op = op->next)
		if (op->kind == SL_OP_SDY_MESH && n++ == 0)
			*first = op;
	return n;
}

int
sl_module_set_mesh(sl_module *m, const char *spec, bool replace, char *err, size_t errlen)
{
	sl_mesh mesh;
	if (parse_mesh(m, spec, &mesh, err, errlen))
		return -1;
	sl_op *old;
	size_t n = mesh_ops(m, &old);
	sl_attr *a = sli_attr_new(m, SL_ATTR_MESH);
	a->u.mesh = mesh;
	if (n && !replace) {
		sli_diag(m->ctx, SL_DIAG_WARNING, old->loc, "the module has its own mesh "
		         "@%s: --mesh %s not applied (--replace-mesh replaces it)",
		         sl_sym_str(m->ctx, sli_op_sym_name(m, old)), spec);
		return 0;
	}
	if (n > 1)
		return fail(err, errlen, "--replace-mesh: the module has %zu meshes; "
		            "it replaces a single one", n);
	if (n == 1) {
		sli_op_set_prop(m, old, SLS_mesh, a);
		return 1;
	}
	sl_op *op = sli_op_create(m, SL_OP_SDY_MESH, NULL, 0, NULL, 0, 0);
	sli_set_sym_name(m, op, sli_sym(m, "mesh"));
	sli_op_set_prop(m, op, SLS_mesh, a);
	sli_symtab syms;
	sli_symtab_init(&syms, m);
	sli_symtab_insert(&syms, op, sli_module_body(m)->first);
	sli_symtab_fini(&syms);
	return 1;
}

/* A pin: arguments [lo, hi] of main, dimension dim, on the named axes. */
typedef struct pin {
	int64_t lo, hi, dim;
	sl_axis_ref *axes;
	uint32_t naxes;
	int64_t size;		/* product of the axes' sizes */
} pin;

/* "ARGS:DIM=AXIS[,AXIS...]" on mesh (named mesh_name) into *p. */
static int
parse_pin(sl_module *m, const char *spec, const sl_mesh *mesh, pin *p, char *err,
          size_t errlen)
{
	const char *s = spec;
	memset(p, 0, sizeof *p);
	if (*s == '*') {
		s++;
		p->lo = 0;
		p->hi = INT64_MAX;
	} else if ((p->lo = number(&s, 0, INT32_MAX)) >= 0) {
		p->hi = p->lo;
		if (*s == '-' && (s++, (p->hi = number(&s, p->lo, INT32_MAX)) < 0))
			return fail(err, errlen, "pin '%s': bad argument range", spec);
	} else {
		return fail(err, errlen, "pin '%s': expected an argument number, a range "
		            "N-M or '*' first", spec);
	}
	if (*s++ != ':' || (p->dim = number(&s, 0, 63)) < 0 || *s++ != '=')
		return fail(err, errlen, "pin '%s': expected ARGS:DIM=AXIS[,AXIS...]", spec);
	p->axes = SL_NEWN(&m->arena, sl_axis_ref, mesh->naxes + 1);
	p->size = 1;
	for (;;) {
		size_t n = name_len(s);
		sl_sym name = n ? sl_sym_intern(m->ctx, s, n) : 0;
		const sl_mesh_axis *ax = NULL;
		for (uint32_t i = 0; name && i < mesh->naxes; i++)
			if (mesh->axes[i].name == name)
				ax = &mesh->axes[i];
		if (!ax)
			return fail(err, errlen, "pin '%s': '%.*s' is not an axis of the mesh",
			            spec, (int)(n ? n : strcspn(s, ",")), s);
		for (uint32_t i = 0; i < p->naxes; i++)
			if (p->axes[i].name == name)
				return fail(err, errlen, "pin '%s': axis '%.*s' named twice", spec,
				            (int)n, s);
		memset(&p->axes[p->naxes], 0, sizeof p->axes[p->naxes]);
		p->axes[p->naxes++].name = name;
		p->size *= ax->size;
		s += n;
		if (*s == 0)
			return 0;
		if (*s++ != ',')
			return fail(err, errlen, "pin '%s': expected ',' or the end at '%s'", spec,
			            s - 1);
	}
}

int
sl_module_pin_args(sl_module *m, const char *spec, char *err, size_t errlen)
{
	sl_op *mop;
	if (mesh_ops(m, &mop) != 1)
		return fail(err, errlen, "--pin needs a module with exactly one mesh "
		            "(--mesh gives one)");
	const sl_mesh *mesh = sli_mesh_op_mesh(mop);
	sl_op *main = sli_main_func(m);
	sl_block *e = main ? sli_func_body(main) : NULL;
	if (!mesh || !e)
		return fail(err, errlen, "--pin: the module has no main function");
	pin p;
	if (parse_pin(m, spec, mesh, &p, err, errlen))
		return -1;
	sl_sym mesh_name = sli_op_sym_name(m, mop);
	int pinned = 0;
	for (uint32_t i = 0; i < e->nargs; i++) {
		sl_value *v = &e->args[i];
		if (i < p.lo || i > p.hi)
			continue;
		uint32_t rank = sli_value_rank(v);
		const sl_type *t = v->type;
		const char *why = NULL;
		if (sli_value_sharding(v))
			why = "it has a sharding of its own";
		else if (p.dim >= rank)
			why = "it has no such dimension";
		else if (t->dims[p.dim] < 0 || t->dims[p.dim] % p.size)
			why = "the dimension does not divide by the axes' size";
		if (why) {
			/* a named argument is the user's mistake; one of many, a note */
			sli_diag(m->ctx, p.lo == p.hi ? SL_DIAG_WARNING : SL_DIAG_REMARK, sli_value_loc(v),
			         "--pin %s: argument %u not pinned: %s", spec, i, why);
			continue;
		}
		sl_sharding *s = sli_sharding_open(m, mesh_name, NULL, rank);
		s->dims[p.dim].open = false;
		s->dims[p.dim].axes.v = p.axes;
		s->dims[p.dim].axes.n = p.naxes;
		sli_value_set_sharding(m, v, s);
		pinned++;
	}
	return pinned;
}

static int
count_op(sl_op *op, void *ud)
{
	size_t *n = ud;
	if (op->kind == SL_OP_FUNC) {
		sl_block *e = sli_func_body(op);
		for (uint32_t i = 0; e && i < e->nargs; i++)
			*n += sli_value_sharding(&e->args[i]) != NULL;
		for (uint32_t i = 0; i < sli_func_nresults(op); i++)
			*n += sli_func_res_sharding(op, i) != NULL;
		return 0;
	}
	for (uint32_t i = 0; i < op->nresults; i++)
		*n += sli_value_sharding(&op->results[i]) != NULL;
	return 0;
}

size_t
sl_module_sharding_count(sl_module *m)
{
	size_t n = 0;
	if (m->top)
		sli_walk(m->top, count_op, &n);
	return n;
}
