/*
 * checked.h - integer arithmetic that cannot overflow silently.  Every
 * size, product of sizes and sub-axis pre-size x size goes through these:
 * the *_ok forms say whether the exact result fits (the caller reports
 * the value as out of range), the *_sat forms clamp to the int64 range
 * for code that runs only on verified input, where an overflow is a bug
 * that must not turn into a wrapped, plausible number.
 */
#ifndef SL_UTIL_CHECKED_H
#define SL_UTIL_CHECKED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* *out = a * b; false (and *out unspecified) when it does not fit. */
static inline bool
sli_mul_i64_ok(int64_t a, int64_t b, int64_t *out)
{
	return !__builtin_mul_overflow(a, b, out);
}

/* *out = a + b; false when it does not fit. */
static inline bool
sli_add_i64_ok(int64_t a, int64_t b, int64_t *out)
{
	return !__builtin_add_overflow(a, b, out);
}

/* *out = a * b for sizes in bytes or counts; false when it does not fit. */
static inline bool
sli_mul_size_ok(size_t a, size_t b, size_t *out)
{
	return !__builtin_mul_overflow(a, b, out);
}

/* a * b, clamped to INT64_MIN..INT64_MAX. */
static inline int64_t
sli_mul_i64_sat(int64_t a, int64_t b)
{
	int64_t r;

	if (!__builtin_mul_overflow(a, b, &r))
		return r;
	return (a < 0) != (b < 0) ? INT64_MIN : INT64_MAX;
}

/* a + b, clamped to INT64_MIN..INT64_MAX. */
static inline int64_t
sli_add_i64_sat(int64_t a, int64_t b)
{
	int64_t r;

	if (!__builtin_add_overflow(a, b, &r))
		return r;
	return a < 0 ? INT64_MIN : INT64_MAX;
}

#endif
