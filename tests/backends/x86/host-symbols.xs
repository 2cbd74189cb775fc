// Host symbols: dims computed at each call from the inputs, where no dim
// expression can say what they are (a shape held in a tensor, a dim scaled by
// a float and floored). The compiled function and the reference interpreter
// agree at several inputs, one compile serves them all, and a computed shape
// that breaks a constraint or is negative is an error naming it.
// RUN: %python %src_root/tests/tools/write_npy.py %t.6x2.npy 6 2
// RUN: %python %src_root/tests/tools/write_npy.py %t.1x28.npy 1 28
// RUN: %python %src_root/tests/tools/write_npy.py %t.5x5.npy 5 5
// RUN: %python %src_root/tests/tools/write_npy.py %t.neg.npy -6 -2
// RUN: %xstitch-run --random-inputs %s --dim N=3 --input shape=%t.6x2.npy --check | FileCheck %s --check-prefix=N3
// RUN: %xstitch-run --random-inputs %s --dim N=7 --input shape=%t.1x28.npy --check | FileCheck %s --check-prefix=N7
// RUN: %expect-exit 2 %xstitch-run --random-inputs %s --dim N=3 --input shape=%t.5x5.npy 2>&1 | FileCheck %s --check-prefix=CONSTRAINT
// RUN: %expect-exit 2 %xstitch-run --random-inputs %s --dim N=3 --input shape=%t.neg.npy 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: %expect-exit 2 %xstitch-run --random-inputs %s --device=ref --dim N=3 --input shape=%t.neg.npy 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: %xstitch-opt %s --passes=shape-inference,kernel-plan | FileCheck %s --check-prefix=PLAN
// RUN: %xstitch-opt %s > %t.xs && %xstitch-opt %t.xs | diff %t.xs -

func @f(%x: f32[N, 4], %shape: i64[2]) -> (y: f32[R0, R1], h: f32[H])
    host_symbols R0, R1, H {
      %s0 = slice %shape {limit = [1], start = [0]} : i64[1]
      %r0 = reshape %s0 : i64[]
      %s1 = slice %shape {limit = [2], start = [1]} : i64[1]
      %r1 = reshape %s1 : i64[]
      %n = dim_value {dims = [N]} : f32[]
      %k = constant {value = 1.5} : f32[]
      %m = mul %n, %k : f32[]
      %fl = floor %m : f32[]
      %h = cast %fl {to = i64} : i64[]
      return %r0, %r1, %h
    } {
  %y = reshape %x : f32[R0, R1]
  %e = exp %y
  %i = iota {dim = 0} : f32[H]
  return %e, %i
}

// N3: result y: f32[6, 2]
// N3: result h: f32[4]  min 0 max 3 mean 1.5 [0, 1, 2, 3]
// N3: check y: pass
// N3: check h: pass
// N7: result y: f32[1, 28]
// N7: result h: f32[10]
// N7: check y: pass
// N7: check h: pass
// CONSTRAINT: error: the inputs of @f violate a shape constraint: 4*N == R0*R1 does not hold: N = 3, R0 = 5, R1 = 5
// NEGATIVE: error: {{.*}}host symbol R0 of @f is -6 at these inputs; a dim cannot be negative

// PLAN-LABEL: host @f {
// PLAN-NEXT: symbols: [N, R0, R1, H]
// PLAN-NEXT: host symbols: [R0, R1, H] from the dims and the values of %shape
// PLAN-NEXT: constraints: 4*N == R0*R1
