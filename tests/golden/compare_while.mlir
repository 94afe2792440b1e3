// shardlp compare --csv on data/while.mlir: a while loop; pins the cost of
// the ILP and of each greedy strategy, and its parts.
// Checked: the same output as --no-decompose (the whole model) for the
// ILP row.  Each method now runs between the pipeline's import and export
// steps, and the loop's operand and body result are priced as reshards
// into its carried value (not tied to it), so costs differ from 3e0c00a
// (ILP 0.00807 there, greedy 0.01354: the loop was tied and an edge's
// result priced as a tensor of its own); each row's score of the
// module before the export steps equals that after them (checked through
// the public API, sl_run_import/sl_run_export).  In
// every row cost = memory + communication + compute, and the ILP's cost
// is at most each greedy strategy's.  Wall-clock seconds read "*".
// SHARDLP: compare --csv
// INPUT: data/while.mlir
// EXPECT:
// file,method,status,cost,memory,communication,compute,bound,gap,seconds
// while.mlir,ilp,optimal,0.00745853125,0.0047645,0.001536,0.00115803125,0.00745853125,0,*
// while.mlir,basic,ok,0.00791933125,0.0052253,0.001536,0.00115803125,,,*
// while.mlir,aggressive,ok,0.00745853125,0.0047645,0.001536,0.00115803125,,,*
// while.mlir,op-priority,ok,0.00745853125,0.0047645,0.001536,0.00115803125,,,*
// while.mlir,user-priority,ok,0.00745853125,0.0047645,0.001536,0.00115803125,,,*
