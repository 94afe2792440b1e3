// shardlp compare --csv on data/mlp.mlir with a memory weight of 1 and axis
// "x" at half the bandwidth and a latency of 1e-4: the weights and the
// per-axis alpha-beta prices reach both the ILP and the evaluator.
// Checked: the same output as the build before the cost.c split
// (3e0c00a) and as --no-decompose (the whole model) for the ILP row; in
// every row cost = memory + communication + compute, and the ILP's cost
// is at most each greedy strategy's.  Wall-clock seconds read "*".
// SHARDLP: compare --csv --memory-weight 1 --axis x=0.5:0.0001
// INPUT: data/mlp.mlir
// EXPECT:
// file,method,status,cost,memory,communication,compute,bound,gap,seconds
// mlp.mlir,ilp,optimal,0.093584,0.066724,0.022728,0.004132,0.093584,0,*
// mlp.mlir,basic,ok,0.101164,0.09498,0.002048,0.004136,,,*
// mlp.mlir,aggressive,ok,0.101164,0.09498,0.002048,0.004136,,,*
// mlp.mlir,op-priority,ok,0.101164,0.09498,0.002048,0.004136,,,*
// mlp.mlir,user-priority,ok,0.101164,0.09498,0.002048,0.004136,,,*
