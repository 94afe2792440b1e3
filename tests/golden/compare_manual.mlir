// shardlp compare --csv on data/manual.mlir: a manual computation; pins the
// cost of the ILP and of each greedy strategy, and its parts.
// Checked: the same output as the build before the cost.c split
// (3e0c00a) and as --no-decompose (the whole model) for the ILP row; in
// every row cost = memory + communication + compute, and the ILP's cost
// is at most each greedy strategy's.  Wall-clock seconds read "*".
// By hand, the ILP row: memory 0.1 * 4352 / 1e6 with 512 (%arg0) + 1024
// (%arg1, replicated as in_shardings asks) + 512 + 1024 (the body's local
// arguments, fixed) + 2 * 256 (%1, %2 on y) + 512 (%0) + 256 (%3 on x,
// y) bytes; flops 2*8*16*8 + 64 + 64 = 2176, compute 2176 / 64 / 1e6 =
// 3.4e-05; no communication.
// SHARDLP: compare --csv
// INPUT: data/manual.mlir
// EXPECT:
// file,method,status,cost,memory,communication,compute,bound,gap,seconds
// manual.mlir,ilp,optimal,0.0004692,0.0004352,0,3.4e-05,0.0004692,0,*
// manual.mlir,basic,ok,0.00058,0.000512,0,6.8e-05,,,*
// manual.mlir,aggressive,ok,0.00058,0.000512,0,6.8e-05,,,*
// manual.mlir,op-priority,ok,0.00058,0.000512,0,6.8e-05,,,*
// manual.mlir,user-priority,ok,0.00058,0.000512,0,6.8e-05,,,*
