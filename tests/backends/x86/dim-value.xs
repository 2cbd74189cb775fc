// dim_value: a symbolic dim's value at run time as data (what the ONNX
// frontend makes of Shape -> Cast -> arithmetic). One dim fills any shape;
// several give a vector. Compiled and interpreted alike at several dims, the
// kernel reads the dim from its dims argument, and wrong types are errors.
// RUN: %xstitch-run --random-inputs %s --dim B=3 --dim S=7 --check | FileCheck %s --check-prefix=RUN37
// RUN: %xstitch-run --random-inputs %s --dim B=1 --dim S=1 --check | FileCheck %s --check-prefix=RUN11
// RUN: %xstitch-run %s --emit=llvm-unopt --cpu=x86-64-v3 | FileCheck %s --check-prefix=IR
// RUN: %xstitch-opt %s --passes=shape-inference | FileCheck %s --check-prefix=PRINT
// RUN: printf 'func @f() -> (v) {\n  %%%%v = dim_value {dims = [B, S]} : i64[3]\n  return %%%%v\n}\n' > %t.bad.xs
// RUN: %expect-exit 2 %xstitch-opt %t.bad.xs --passes=shape-inference | FileCheck %s --check-prefix=BAD

func @f(%x: f32[B, S]) -> (y, v, i) {
  %n = dim_value {dims = [S]} : f32[B, S]
  %y = div %x, %n
  %v = dim_value {dims = [B, S, B*S - 1]} : i64[3]
  %i = dim_value {dims = [S]} : i32[]
  return %y, %v, %i
}

// RUN37: result v: i64[3]  min 3 max 20 mean 10 [3, 7, 20]
// RUN37: result i: i32[]  min 7 max 7 mean 7 [7]
// RUN37: check y: pass
// RUN37: check v: pass
// RUN37: check i: pass
// RUN11: result v: i64[3]  min 0 max 1 mean {{.*}} [1, 1, 0]
// RUN11: check y: pass

// IR-LABEL: define void @k0_dim_value.v0(
// IR: getelementptr inbounds i64, ptr %dims

// PRINT: %n = dim_value {dims = [S]} : f32[B, S]
// PRINT: %v = dim_value {dims = [B, S, B*S - 1]} : i64[3]

// BAD: error: dim_value: 2 dims make a vector of 2 elements, but the result type is i64[3]
