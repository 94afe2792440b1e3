/* attr.c - structural equality of attributes. */
#include "ir/attr.h"

#include "ir/stablehlo_attrs.h"

#include <string.h>

bool
sli_axis_ref_equal(const sl_axis_ref *a, const sl_axis_ref *b)
{
	if (a->name != b->name || a->sub != b->sub)
		return false;
	return !a->sub || (a->pre == b->pre && a->size == b->size);
}

static bool
axis_list_equal(const sl_axis_list *a, const sl_axis_list *b)
{
	if (a->n != b->n)
		return false;
	for (uint32_t i = 0; i < a->n; i++)
		if (!sli_axis_ref_equal(&a->v[i], &b->v[i]))
			return false;
	return true;
}

bool
sli_mesh_equal(const sl_mesh *a, const sl_mesh *b)
{
	if (a->naxes != b->naxes || a->nids != b->nids || !a->ids != !b->ids)
		return false;
	for (uint32_t i = 0; i < a->naxes; i++)
		if (a->axes[i].name != b->axes[i].name || a->axes[i].size != b->axes[i].size)
			return false;
	for (uint32_t i = 0; i < a->nids; i++)
		if (a->ids[i] != b->ids[i])
			return false;
	return true;
}

static bool
sharding_equal(const sl_sharding *a, const sl_sharding *b)
{
	if (a->mesh_name != b->mesh_name || !a->mesh != !b->mesh)
		return false;
	if (a->mesh && !sli_mesh_equal(a->mesh, b->mesh))
		return false;
	if (a->rank != b->rank || a->reduction != b->reduction)
		return false;
	for (uint32_t i = 0; i < a->rank; i++) {
		const sl_dim_sharding *x = &a->dims[i], *y = &b->dims[i];
		if (x->open != y->open || x->priority != y->priority ||
		    !axis_list_equal(&x->axes, &y->axes))
			return false;
	}
	return axis_list_equal(&a->replicated, &b->replicated) &&
	       axis_list_equal(&a->unreduced, &b->unreduced);
}

static bool
text_equal(const char *a, size_t an, const char *b, size_t bn)
{
	return an == bn && memcmp(a, b, an) == 0;
}

bool
sli_attr_equal(const sl_attr *a, const sl_attr *b)
{
	if (a == b)
		return true;
	if (!a || !b || a->kind != b->kind)
		return false;
	switch (a->kind) {
	case SL_ATTR_UNIT:
		return true;
	case SL_ATTR_BOOL:
		return a->u.b == b->u.b;
	case SL_ATTR_INT:
		return a->u.i.v == b->u.i.v && a->u.i.type == b->u.i.type &&
		       a->u.i.big == b->u.i.big && (!a->u.i.big || a->u.i.text == b->u.i.text);
	case SL_ATTR_FLOAT:
		return a->u.f.text == b->u.f.text && a->u.f.type == b->u.f.type;
	case SL_ATTR_STRING:
		return text_equal(a->u.s.p, a->u.s.n, b->u.s.p, b->u.s.n);
	case SL_ATTR_ARRAY:
		if (a->u.arr.n != b->u.arr.n)
			return false;
		for (uint32_t i = 0; i < a->u.arr.n; i++)
			if (!sli_attr_equal(a->u.arr.v[i], b->u.arr.v[i]))
				return false;
		return true;
	case SL_ATTR_DICT:
		if (a->u.dict.n != b->u.dict.n)
			return false;
		for (uint32_t i = 0; i < a->u.dict.n; i++)
			if (a->u.dict.v[i].name != b->u.dict.v[i].name ||
			    !sli_attr_equal(a->u.dict.v[i].attr, b->u.dict.v[i].attr))
				return false;
		return true;
	case SL_ATTR_DENSE_ARRAY:
		if (a->u.darr.elem != b->u.darr.elem || a->u.darr.n != b->u.darr.n ||
		    a->u.darr.text != b->u.darr.text)
			return false;
		return a->u.darr.n == 0 || !a->u.darr.v ||
		       memcmp(a->u.darr.v, b->u.darr.v, sizeof *a->u.darr.v * a->u.darr.n) == 0;
	case SL_ATTR_DENSE:
		return a->u.dense.type == b->u.dense.type &&
		       text_equal(a->u.dense.body, a->u.dense.n, b->u.dense.body, b->u.dense.n);
	case SL_ATTR_TYPE:
		return a->u.type == b->u.type;
	case SL_ATTR_SYMREF:
	case SL_ATTR_OPAQUE:
	case SL_ATTR_LOC:
		return text_equal(a->u.text.p, a->u.text.n, b->u.text.p, b->u.text.n);
	case SL_ATTR_MESH:
		return sli_mesh_equal(&a->u.mesh, &b->u.mesh);
	case SL_ATTR_SHARDING:
		return sharding_equal(&a->u.sharding, &b->u.sharding);
	case SL_ATTR_SHARDING_PER_VALUE:
		if (a->u.spv.n != b->u.spv.n)
			return false;
		for (uint32_t i = 0; i < a->u.spv.n; i++)
			if (!sharding_equal(a->u.spv.v[i], b->u.spv.v[i]))
				return false;
		return true;
	case SL_ATTR_AXIS_REF_LIST:
	case SL_ATTR_MANUAL_AXES:
		return axis_list_equal(&a->u.axes, &b->u.axes);
	case SL_ATTR_AXIS_REF_LISTS:
		if (a->u.lists.n != b->u.lists.n)
			return false;
		for (uint32_t i = 0; i < a->u.lists.n; i++)
			if (!axis_list_equal(&a->u.lists.v[i], &b->u.lists.v[i]))
				return false;
		return true;
	case SL_ATTR_ALL_TO_ALL_PARAMS:
		if (a->u.a2a.n != b->u.a2a.n)
			return false;
		for (uint32_t i = 0; i < a->u.a2a.n; i++)
			if (a->u.a2a.v[i].src != b->u.a2a.v[i].src ||
			    a->u.a2a.v[i].tgt != b->u.a2a.v[i].tgt ||
			    !axis_list_equal(&a->u.a2a.v[i].axes, &b->u.a2a.v[i].axes))
				return false;
		return true;
	case SL_ATTR_DIRECTION:
		return a->u.direction == b->u.direction;
	case SL_ATTR_DOT_DIMS:
	case SL_ATTR_CONV_DIMS:
	case SL_ATTR_GATHER_DIMS:
	case SL_ATTR_SCATTER_DIMS:
	case SL_ATTR_STABLEHLO_ENUM:
	case SL_ATTR_REPLICA_MESH_AXES:
		return sli_stablehlo_attr_equal(a, b);
	case SL_ATTR_RULE:
	case SL_ATTR_PROP_EDGES:
		/* Compared through their printed form by callers that need it. */
		return false;
	}
	return false;
}

static bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

bool
sli_scan_ints(const char *p, const char *e, sli_i64vec *out)
{
	while (p < e) {
		char c = *p;
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == '[' ||
		    c == ']') {
			p++;
		} else if (c == '-' || c == '+' || is_digit(c)) {
			bool neg = c == '-';
			if (c == '-' || c == '+')
				p++;
			if (p >= e || !is_digit(*p))
				return false;
			uint64_t v = 0;
			for (; p < e && is_digit(*p); p++) {
				if (v > (UINT64_MAX - 9) / 10)
					return false;
				v = v * 10 + (uint64_t)(*p - '0');
			}
			if (v > (uint64_t)INT64_MAX + neg)
				return false;
			SL_VEC_PUSH(*out, neg ? (int64_t)(0 - v) : (int64_t)v);
		} else if (e - p >= 4 && memcmp(p, "true", 4) == 0) {
			SL_VEC_PUSH(*out, 1);
			p += 4;
		} else if (e - p >= 5 && memcmp(p, "false", 5) == 0) {
			SL_VEC_PUSH(*out, 0);
			p += 5;
		} else {
			return false;
		}
	}
	return true;
}

bool
sli_attr_ints(const sl_context *ctx, const sl_attr *a, sli_i64vec *out)
{
	out->n = 0;
	if (!a)
		return false;
	switch (a->kind) {
	case SL_ATTR_DENSE_ARRAY:
		if (a->u.darr.v || a->u.darr.n == 0) {
			for (uint32_t i = 0; i < a->u.darr.n; i++)
				SL_VEC_PUSH(*out, a->u.darr.v[i]);
			return true;
		} else {
			/* non-integer elements keep their text: "1, 2" or "i1: true" */
			const char *s = sl_sym_str(ctx, a->u.darr.text);
			const char *e = s + sli_sym_len(ctx, a->u.darr.text);
			const char *colon = memchr(s, ':', (size_t)(e - s));
			if (colon)
				s = colon + 1;
			if (e > s && e[-1] == '>')
				e--;
			return sli_scan_ints(s, e, out) && out->n == a->u.darr.n;
		}
	case SL_ATTR_DENSE: {
		if (!sli_scan_ints(a->u.dense.body, a->u.dense.body + a->u.dense.n, out))
			return false;
		const sl_type *t = a->u.dense.type;
		if (!t || !sli_type_is_static(t))
			return true;
		int64_t count = sli_type_num_elements(t);
		if (out->n == 1 && count != 1) {
			if (count < 0 || count > (1 << 24))
				return false;
			int64_t v = out->v[0];
			out->n = 0;
			for (int64_t i = 0; i < count; i++)
				SL_VEC_PUSH(*out, v);
		}
		return (int64_t)out->n == count;
	}
	case SL_ATTR_ARRAY:
		for (uint32_t i = 0; i < a->u.arr.n; i++) {
			const sl_attr *x = a->u.arr.v[i];
			if (x && x->kind == SL_ATTR_INT && !x->u.i.big)
				SL_VEC_PUSH(*out, x->u.i.v);
			else if (x && x->kind == SL_ATTR_BOOL)
				SL_VEC_PUSH(*out, x->u.b);
			else
				return false;
		}
		return true;
	default:
		return false;
	}
}
