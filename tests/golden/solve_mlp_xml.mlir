// shardlp solve --format xml on data/mlp.mlir: the result record (cost, its
// parts, bytes per device, model size) and each tensor's sharding.
// Checked: the shardings of the build before solve ran the pipeline's
// import and export steps (3e0c00a), closed by the export steps, seconds
// masked; the costs and bytes per device are those
// checked by hand in compare_mlp.mlir, the shardings those of
// solve_mlp.mlir.
// SHARDLP: solve -q --format xml
// INPUT: data/mlp.mlir
// EXPECT:
// <?xml version="1.0" encoding="UTF-8"?>
// <shardlp-solve file="mlp.mlir">
//  <result status="optimal" cost="0.015358" memory="0.009178" communication="0.002048" compute="0.004132" bytes-per-device="91780" bound="0.015358" gap="0" seconds="*" binaries="170" rows="272"/>
//  <tensor line="5" col="17" argument="0" type="tensor&lt;32x64xf32&gt;" sharding="#sdy.sharding&lt;@mesh, [{&quot;x&quot;}, {}]&gt;"/>
//  <tensor line="6" col="17" argument="1" type="tensor&lt;64x256xf32&gt;" sharding="#sdy.sharding&lt;@mesh, [{}, {&quot;y&quot;}]&gt;"/>
//  <tensor line="7" col="17" argument="2" type="tensor&lt;256xf32&gt;" sharding="#sdy.sharding&lt;@mesh, [{&quot;y&quot;}]&gt;"/>
//  <tensor line="8" col="17" argument="3" type="tensor&lt;256x64xf32&gt;" sharding="#sdy.sharding&lt;@mesh, [{&quot;y&quot;}, {}]&gt;"/>
//  <tensor line="9" col="17" argument="4" type="tensor&lt;64xf32&gt;" sharding="#sdy.sharding&lt;@mesh, [{&quot;y&quot;}]&gt;"/>
//  <tensor line="10" col="3" result="0" type="tensor&lt;f32&gt;"/>
//  <tensor line="11" col="3" result="0" type="tensor&lt;32x256xf32&gt;" sharding="#sdy.sharding&lt;@mesh, [{&quot;x&quot;}, {&quot;y&quot;}]&gt;"/>
//  <tensor line="12" col="3" result="0" type="tensor&lt;32x256xf32&gt;" sharding="#sdy.sharding&lt;@mesh, [{&quot;x&quot;}, {&quot;y&quot;}]&gt;"/>
//  <tensor line="13" col="3" result="0" type="tensor&lt;32x256xf32&gt;" sharding="#sdy.sharding&lt;@mesh, [{&quot;x&quot;}, {&quot;y&quot;}]&gt;"/>
//  <tensor line="14" col="3" result="0" type="tensor&lt;32x256xf32&gt;" sharding="#sdy.sharding&lt;@mesh, [{&quot;x&quot;}, {&quot;y&quot;}]&gt;"/>
//  <tensor line="15" col="3" result="0" type="tensor&lt;32x256xf32&gt;" sharding="#sdy.sharding&lt;@mesh, [{&quot;x&quot;}, {&quot;y&quot;}]&gt;"/>
//  <tensor line="16" col="3" result="0" type="tensor&lt;32x64xf32&gt;" sharding="#sdy.sharding&lt;@mesh, [{&quot;x&quot;}, {&quot;y&quot;}]&gt;"/>
//  <tensor line="17" col="3" result="0" type="tensor&lt;32x64xf32&gt;" sharding="#sdy.sharding&lt;@mesh, [{&quot;x&quot;}, {&quot;y&quot;}]&gt;"/>
//  <tensor line="18" col="3" result="0" type="tensor&lt;32x64xf32&gt;" sharding="#sdy.sharding&lt;@mesh, [{&quot;x&quot;}, {&quot;y&quot;}]&gt;"/>
// </shardlp-solve>
