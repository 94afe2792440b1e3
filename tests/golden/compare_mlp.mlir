// shardlp compare --csv on data/mlp.mlir: the default example; pins the
// cost of the ILP and of each greedy strategy, and its parts.
// Checked: the same output as the build before the cost.c split
// (3e0c00a) and as --no-decompose (the whole model) for the ILP row; in
// every row cost = memory + communication + compute, and the ILP's cost
// is at most each greedy strategy's.  Wall-clock seconds read "*".
// By hand (shardlp-cost(7)), the ILP row: the solution holds
// 2048 + 32768 + 512 + 32768 + 128 (arguments) + 4 (%cst) + 5 * 4096
// (32x256 on x, y) + 3 * 1024 (32x64 on x, y) = 91780 bytes per device,
// memory 0.1 * 91780 / 1e6 = 0.009178; flops 2*8*64*128 + 1024 + 1024 +
// 2*8*128*64 + 256 = 264448, compute 264448 / 64 / 1e6 = 0.004132; the
// second dot_general contracts on y, one all-reduce of its 8x64 f32
// result: 2 * 2048e-6 * (2 - 1) / 2 = 0.002048.
// SHARDLP: compare --csv
// INPUT: data/mlp.mlir
// EXPECT:
// file,method,status,cost,memory,communication,compute,bound,gap,seconds
// mlp.mlir,ilp,optimal,0.015358,0.009178,0.002048,0.004132,0.015358,0,*
// mlp.mlir,basic,ok,0.015682,0.009498,0.002048,0.004136,,,*
// mlp.mlir,aggressive,ok,0.015682,0.009498,0.002048,0.004136,,,*
// mlp.mlir,op-priority,ok,0.015682,0.009498,0.002048,0.004136,,,*
// mlp.mlir,user-priority,ok,0.015682,0.009498,0.002048,0.004136,,,*
