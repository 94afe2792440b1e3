#!/bin/bash
# bench_solver.sh - the ILP on generated transformers (shardlp-cost(7)):
# GLPK time per model size and per layer, the same model exported as MPS
# and solved by CBC (bench-only dependency coinor-cbc), and the cost ratio
# of every greedy strategy to the optimum (`shardlp compare`).
#
# Environment: SHARDLP (the program), BENCH_LAYERS (default "1 2 4 8 12"),
# BENCH_MESHES (default "4x2 2x2x2"), BENCH_TIME_LIMIT (seconds per solve,
# default 600).  Not part of `make check`.
set -u
LC_ALL=C
export LC_ALL
SHARDLP=${SHARDLP:-./shardlp}
layers=${BENCH_LAYERS:-1 2 4 8 12}
meshes=${BENCH_MESHES:-4x2 2x2x2}
limit=${BENCH_TIME_LIMIT:-600}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! command -v cbc >/dev/null 2>&1 && [ "$(id -u)" = 0 ] &&
   command -v apt-get >/dev/null 2>&1; then
	apt-get install -y -qq coinor-cbc >/dev/null 2>&1 || :
fi
have_cbc=0
command -v cbc >/dev/null 2>&1 && have_cbc=1

printf '%-7s %6s %6s %-10s %12s %9s %9s %9s  %s\n' mesh layers ops status \
	cost glpk_s s/layer cbc_s "greedy/optimal"
for mesh in $meshes; do
	for L in $layers; do
		f=$tmp/t$L-$mesh.mlir
		"$SHARDLP" gen transformer --layers "$L" --mesh "$mesh" -o "$f" || exit 1
		ops=$(grep -c ' = stablehlo\.' "$f")
		start=$(date +%s.%N)
		"$SHARDLP" solve --time-limit "$limit" --write-mps "$tmp/m.mps" \
			-o /dev/null "$f" 2>"$tmp/err"
		rc=$?
		end=$(date +%s.%N)
		secs=$(echo "$end - $start" | bc -l)
		line=$(grep -o '^shardlp: .*' "$tmp/err" | tail -1)
		status=$(echo "$line" | sed -n 's/^shardlp: [^:]*: \([a-z]*\),.*/\1/p')
		cost=$(echo "$line" | sed -n 's/.* cost \([0-9.e+-]*\) .*/\1/p')
		[ $rc -eq 0 ] || status="exit$rc"
		cbc_s=-
		if [ $have_cbc = 1 ] && [ -s "$tmp/m.mps" ]; then
			s0=$(date +%s.%N)
			timeout "$limit" cbc "$tmp/m.mps" threads 1 solve >/dev/null 2>&1 &&
				cbc_s=$(printf '%.2f' "$(echo "$(date +%s.%N) - $s0" | bc -l)")
		fi
		ratios=$("$SHARDLP" compare --csv --time-limit "$limit" "$f" 2>/dev/null |
			awk -F, 'NR > 1 && $2 == "ilp" { opt = $4 }
			         NR > 1 && $2 != "ilp" { m[$2] = $4; s[$2] = $3; k[++n] = $2 }
			         END { for (i = 1; i <= n; i++)
			                 printf "%s=%s ", k[i],
			                   (m[k[i]] != "" && opt > 0) ? sprintf("%.3f", m[k[i]] / opt) : s[k[i]] }')
		printf '%-7s %6s %6s %-10s %12s %9.2f %9.3f %9s  %s\n' "$mesh" "$L" "$ops" \
			"${status:-?}" "${cost:--}" "$secs" "$(echo "$secs / $L" | bc -l)" \
			"$cbc_s" "$ratios"
	done
done
