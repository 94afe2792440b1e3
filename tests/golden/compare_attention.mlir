// shardlp compare --csv on data/attention.mlir, single-head self-attention;
// pins the cost of the ILP and of each greedy strategy, and its parts.
// Checked: the same output as the build before the cost.c split
// (3e0c00a) and as --no-decompose (the whole model) for the ILP row; in
// every row cost = memory + communication + compute, and the ILP's cost
// is at most each greedy strategy's.  Wall-clock seconds read "*".
// SHARDLP: compare --csv
// INPUT: data/attention.mlir
// EXPECT:
// file,method,status,cost,memory,communication,compute,bound,gap,seconds
// attention.mlir,ilp,optimal,0.0091512,0.0034952,0.003072,0.002584,0.0091512,0,*
// attention.mlir,basic,ok,0.0128744,0.0041224,0.006144,0.002608,,,*
// attention.mlir,aggressive,ok,0.0128744,0.0041224,0.006144,0.002608,,,*
// attention.mlir,op-priority,ok,0.0128744,0.0041224,0.006144,0.002608,,,*
// attention.mlir,user-priority,ok,0.0128744,0.0041224,0.006144,0.002608,,,*
