// shardlp compare --csv on data/while.mlir: a while loop; pins the cost of
// the ILP and of each greedy strategy, and its parts.
// Checked: the same output as the build before the cost.c split
// (3e0c00a) and as --no-decompose (the whole model) for the ILP row; in
// every row cost = memory + communication + compute, and the ILP's cost
// is at most each greedy strategy's.  Wall-clock seconds read "*".
// SHARDLP: compare --csv
// INPUT: data/while.mlir
// EXPECT:
// file,method,status,cost,memory,communication,compute,bound,gap,seconds
// while.mlir,ilp,optimal,0.00807293125,0.0053789,0.001536,0.00115803125,0.00807293125,0,*
// while.mlir,basic,ok,0.0135437312,0.0089117,0,0.00463203125,,,*
// while.mlir,aggressive,ok,0.0135437312,0.0089117,0,0.00463203125,,,*
// while.mlir,op-priority,ok,0.0135437312,0.0089117,0,0.00463203125,,,*
// while.mlir,user-priority,ok,0.0135437312,0.0089117,0,0.00463203125,,,*
