// RUN: %xstitch-opt %s --passes=shape-inference,stitch-plan | FileCheck %s
// RUN: %xstitch-run --random-inputs %s --function resize --dim N=3 --dim W=13 --dim V=29 --check | FileCheck %s --check-prefix=RESULT
// RUN: %xstitch-run --random-inputs %s --function resize --dim N=2 --dim W=1 --dim V=1 --check | FileCheck %s --check-prefix=RESULT
// RUN: %xstitch-run --random-inputs %s --function shift --dim N=3 --dim W=13 --check | FileCheck %s --check-prefix=RESULT
// RUN: %xstitch-run --random-inputs %s --function rotary --dim B=2 --dim H=3 --dim S=5 --check | FileCheck %s --check-prefix=RESULT
// RUN: %xstitch-run --random-inputs %s --function rows --dim B=2 --dim H=3 --dim S=5 --check | FileCheck %s --check-prefix=RESULT
// RUN: %xstitch-run --random-inputs %s --function buckets --dim B=2 --dim S=37 --check | FileCheck %s --check-prefix=RESULT

// A nearest resize of W columns to V, a size known at run time, as ONNX's
// Resize imports it: each output column's source, floor(j / (V / W)) kept
// below W, is a chain of ops on the column's position that every row reads
// as gather indices. The chain (a division and five light ops) is a group of
// its own, computed once per column into global scratch rather than once
// per element: its round trip, V indices, costs less than recomputing it
// for every row, whatever the bytes alone would say.
func @resize(%x: f32[N, W], %like: f32[N, V]) -> (y) {
  %j = iota {dim = 0} : i64[V]
  %jf = cast %j {to = f64} : f64[V]
  %w = dim_value {dims = [W]} : f64[]
  %v = dim_value {dims = [V]} : f64[]
  %scale = div %v, %w : f64[]
  %sb = broadcast %scale {dims = []} : f64[V]
  %src = div %jf, %sb : f64[V]
  %fl = floor %src : f64[V]
  %i = cast %fl {to = i64} : i64[V]
  %last = dim_value {dims = [W - 1]} : i64[]
  %lb = broadcast %last {dims = []} : i64[V]
  %idx = min %i, %lb : i64[V]
  %g = gather %x, %idx {dim = 1} : f32[N, V]
  %y = add %g, %like : f32[N, V]
  return %y
}

// A short chain (a shift by one, clamped: two light ops) is recomputed
// where it is read, as before.
func @shift(%x: f32[N, W]) -> (y) {
  %j = iota {dim = 0} : i64[W]
  %one = constant {value = 1} : i64[W]
  %next = add %j, %one : i64[W]
  %last = dim_value {dims = [W - 1]} : i64[]
  %lb = broadcast %last {dims = []} : i64[W]
  %idx = min %next, %lb : i64[W]
  %g = gather %x, %idx {dim = 1} : f32[N, W]
  %y = add %g, %x : f32[N, W]
  return %y
}

// Rotary embeddings: the cosine of each position's angles, [S, 8], read for
// every batch and head through a broadcast that varies along the last dim,
// so every element of the product would compute a cosine. One
// transcendental is enough to compute it once per [S, 8] element instead.
func @rotary(%q: f32[B, H, S, 8], %freq: f32[8]) -> (y) {
  %t = iota {dim = 0} : f32[S, 8]
  %f = broadcast %freq {dims = [1]} : f32[S, 8]
  %angle = mul %t, %f : f32[S, 8]
  %c = cos %angle : f32[S, 8]
  %cb = broadcast %c {dims = [2, 3]} : f32[B, H, S, 8]
  %y = mul %q, %cb : f32[B, H, S, 8]
  return %y
}

// A value constant along the rows it scales (a cosine of the position plus
// one, broadcast along the last dim) is computed once per row where it is
// read: it stays in the group.
func @rows(%q: f32[B, H, S, 8]) -> (y) {
  %t = iota {dim = 0} : f32[S]
  %c = cos %t : f32[S]
  %one = constant {value = 1.0} : f32[S]
  %scale = add %c, %one : f32[S]
  %sb = broadcast %scale {dims = [2]} : f32[B, H, S, 8]
  %y = mul %q, %sb : f32[B, H, S, 8]
  return %y
}

// T5's relative position buckets as exporters write them: a chain over the
// [S, S] positions (with a log) whose result indexes an embedding; its rows
// are transposed to [heads, S, S] and broadcast over the batch. The readers
// are followed through the gather, transpose and reshape to the broadcast,
// so the chain is computed once, not once per batch and head; and the
// bias it gathers, in the layout the broadcast reads (the last of the
// moves), once per head, so that the scores read f32 values in order rather
// than i64 buckets and a gather per element.
func @buckets(%scores: f32[B, 4, S, S], %emb: f32[32, 4]) -> (y) {
  %i = iota {dim = 0} : i64[S]
  %r = reshape %i : i64[1, S]
  %c = reshape %i : i64[S, 1]
  %rb = broadcast %r {dims = [0, 1]} : i64[S, S]
  %cb = broadcast %c {dims = [0, 1]} : i64[S, S]
  %rel = sub %rb, %cb
  %a = abs %rel
  %f = cast %a {to = f32}
  %l = log1p %f
  %k = cast %l {to = i64}
  %top = constant {value = 31} : i64[S, S]
  %bucket = min %k, %top
  %g = gather %emb, %bucket {dim = 0} : f32[S, S, 4]
  %t = transpose %g {perm = [2, 0, 1]} : f32[4, S, S]
  %t1 = reshape %t : f32[1, 4, S, S]
  %tb = broadcast %t1 {dims = [0, 1, 2, 3]} : f32[B, 4, S, S]
  %y = add %scores, %tb
  return %y
}

// CHECK-LABEL: kernel @k0_add(%x: f32[N, W], %like: f32[N, V])
// CHECK:         scratch [%idx]
// CHECK:       variant 2 when (none) grid N:
// CHECK-NEXT:    group 0 dominant %idx ops [%j, %jf, %w, %v, %scale, %sb, %src, %fl, %i, %last, %lb, %idx]: elementwise rows 1 cols V
// CHECK-NEXT:    group 1 dominant %y ops [%g, %y]: elementwise rows N cols V
// CHECK-NEXT:    phase 0: stage 0: groups [0]
// CHECK-NEXT:    phase 1: stage 0: groups [1]
// CHECK-NEXT:    buffers: %idx global V
// CHECK-LABEL: kernel @k0_add(%x: f32[N, W]) -> (%y: f32[N, W])
// CHECK-NOT:     scratch
// CHECK:       variant 2 when (none) grid N:
// CHECK-NEXT:    group 0 dominant %y ops [%j, %one, %next, %last, %lb, %idx, %g, %y]: elementwise rows N cols W
// CHECK-NEXT:    phase 0: stage 0: groups [0]
// CHECK-NEXT:    buffers: (none)
// CHECK-LABEL: kernel @k0_mul(%freq: f32[8], %q: f32[B, H, S, 8]) -> (%y: f32[B, H, S, 8])
// CHECK:         scratch [%c]
// CHECK:       variant 0 when (none) grid (B*H*S + 31)/32:
// CHECK-NEXT:    group 0 dominant %c ops [%t, %f, %angle, %c]: elementwise rows S cols 8
// CHECK-NEXT:    group 1 dominant %y ops [%cb, %y]: elementwise rows B*H*S cols 8
// CHECK-NEXT:    phase 0: stage 0: groups [0]
// CHECK-NEXT:    phase 1: stage 0: groups [1]
// CHECK-NEXT:    buffers: %c global 8*S
// CHECK-LABEL: kernel @k0_mul(%q: f32[B, H, S, 8]) -> (%y: f32[B, H, S, 8])
// CHECK-NOT:     scratch
// CHECK:       variant 0 when (none) grid (B*H*S + 31)/32:
// CHECK-NEXT:    group 0 dominant %y ops [%t, %c, %one, %scale, %sb, %y]: elementwise rows B*H*S cols 8
// CHECK-NEXT:    phase 0: stage 0: groups [0]
// CHECK-NEXT:    buffers: (none)
// CHECK-LABEL: kernel @k0_add(%emb: f32[32, 4], %scores: f32[B, 4, S, S])
// CHECK:         scratch [%bucket, %t1]
// CHECK:       variant 0 when S <= 64 grid B*S:
// CHECK-NEXT:    group 0 dominant %bucket ops [%i, %r, %c, %rb, %cb, %rel, %a, %f, %l, %k, %top, %bucket]: elementwise rows S cols S
// CHECK-NEXT:    group 1 dominant %t1 ops [%g, %t, %t1]: elementwise rows 4*S cols S
// CHECK-NEXT:    group 2 dominant %y ops [%tb, %y]: elementwise rows 4*B*S cols S
// CHECK-NEXT:    phase 0: stage 0: groups [0]
// CHECK-NEXT:    phase 1: stage 0: groups [1]
// CHECK-NEXT:    phase 2: stage 0: groups [2]
// CHECK-NEXT:    buffers: %bucket global S*S, %t1 global 4*S*S

// RESULT-NOT: fail
// RESULT: check y: pass
