// shardlp compare --csv on data/transformer.mlir, a one-layer transformer
// block; pins the cost of the ILP and of each greedy strategy, and its
// parts.
// Checked: the same output as the build before the cost.c split
// (3e0c00a) and as --no-decompose (the whole model) for the ILP row; in
// every row cost = memory + communication + compute, and the ILP's cost
// is at most each greedy strategy's.  Wall-clock seconds read "*".
// SHARDLP: compare --csv
// INPUT: data/transformer.mlir
// EXPECT:
// file,method,status,cost,memory,communication,compute,bound,gap,seconds
// transformer.mlir,ilp,optimal,0.0694573,0.0291848,0.0144,0.0258725,0.0694573,0,*
// transformer.mlir,basic,ok,0.0727602,0.0304392,0.016384,0.025937,,,*
// transformer.mlir,aggressive,ok,0.0727602,0.0304392,0.016384,0.025937,,,*
// transformer.mlir,op-priority,ok,0.0727602,0.0304392,0.016384,0.025937,,,*
// transformer.mlir,user-priority,ok,0.0727602,0.0304392,0.016384,0.025937,,,*
