// shardlp solve --format xml on data/mlp.mlir: the result record (the
// step time and its parts in seconds, the peak live bytes per device
// against the default budget, the HBM, model size) and each tensor's
// sharding.
// Checked: the costs are those checked by hand in compare_mlp.mlir, the
// shardings those of solve_mlp.mlir, seconds masked.
// SHARDLP: solve -q --format xml
// INPUT: data/mlp.mlir
// EXPECT:
// <?xml version="1.0" encoding="UTF-8"?>
// <shardlp-solve file="mlp.mlir">
//  <result status="optimal" cost="5.02312448e-06" compute="2.64448e-09" communication="5.02048e-06" peak-bytes="113924" memory-budget="1.6e+10" bound="5.02312448e-06" gap="0" seconds="*" binaries="170" rows="272"/>
//  <tensor line="5" col="17" argument="0" type="tensor&lt;32x64xf32&gt;" sharding="#sdy.sharding&lt;@mesh, [{&quot;x&quot;}, {}]&gt;"/>
//  <tensor line="6" col="17" argument="1" type="tensor&lt;64x256xf32&gt;" sharding="#sdy.sharding&lt;@mesh, [{}, {&quot;y&quot;}]&gt;"/>
//  <tensor line="7" col="17" argument="2" type="tensor&lt;256xf32&gt;" sharding="#sdy.sharding&lt;@mesh, [{}]&gt;"/>
//  <tensor line="8" col="17" argument="3" type="tensor&lt;256x64xf32&gt;" sharding="#sdy.sharding&lt;@mesh, [{}, {}]&gt;"/>
//  <tensor line="9" col="17" argument="4" type="tensor&lt;64xf32&gt;" sharding="#sdy.sharding&lt;@mesh, [{}]&gt;"/>
//  <tensor line="10" col="3" result="0" type="tensor&lt;f32&gt;"/>
//  <tensor line="11" col="3" result="0" type="tensor&lt;32x256xf32&gt;" sharding="#sdy.sharding&lt;@mesh, [{&quot;x&quot;}, {&quot;y&quot;}]&gt;"/>
//  <tensor line="12" col="3" result="0" type="tensor&lt;32x256xf32&gt;" sharding="#sdy.sharding&lt;@mesh, [{&quot;x&quot;}, {&quot;y&quot;}]&gt;"/>
//  <tensor line="13" col="3" result="0" type="tensor&lt;32x256xf32&gt;" sharding="#sdy.sharding&lt;@mesh, [{&quot;x&quot;}, {&quot;y&quot;}]&gt;"/>
//  <tensor line="14" col="3" result="0" type="tensor&lt;32x256xf32&gt;" sharding="#sdy.sharding&lt;@mesh, [{&quot;x&quot;}, {&quot;y&quot;}]&gt;"/>
//  <tensor line="15" col="3" result="0" type="tensor&lt;32x256xf32&gt;" sharding="#sdy.sharding&lt;@mesh, [{&quot;x&quot;, &quot;y&quot;}, {}]&gt;"/>
//  <tensor line="16" col="3" result="0" type="tensor&lt;32x64xf32&gt;" sharding="#sdy.sharding&lt;@mesh, [{&quot;x&quot;, &quot;y&quot;}, {}]&gt;"/>
//  <tensor line="17" col="3" result="0" type="tensor&lt;32x64xf32&gt;" sharding="#sdy.sharding&lt;@mesh, [{&quot;x&quot;, &quot;y&quot;}, {}]&gt;"/>
//  <tensor line="18" col="3" result="0" type="tensor&lt;32x64xf32&gt;" sharding="#sdy.sharding&lt;@mesh, [{&quot;x&quot;, &quot;y&quot;}, {}]&gt;"/>
// </shardlp-solve>
