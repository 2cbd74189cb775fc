// RUN: %xstitch-opt %s --passes=shape-inference,decompose | FileCheck %s

// 0.5 x (1 + erf(x / sqrt(2))), the default form.
// CHECK-LABEL: func @gelu_erf
// CHECK-NEXT: %[[R2:[0-9a-z_.]+]] = constant {value = 1.4142135623730951} : f32[N]
// CHECK-NEXT: %[[S:[0-9a-z_.]+]] = div %x, %[[R2]] : f32[N]
// CHECK-NEXT: %[[E:[0-9a-z_.]+]] = erf %[[S]] : f32[N]
// CHECK-NEXT: %[[HALF:[0-9a-z_.]+]] = constant {value = 0.5} : f32[N]
// CHECK-NEXT: %[[H:[0-9a-z_.]+]] = mul %x, %[[HALF]] : f32[N]
// CHECK-NEXT: %[[ONE:[0-9a-z_.]+]] = constant {value = 1.0} : f32[N]
// CHECK-NEXT: %[[P:[0-9a-z_.]+]] = add %[[E]], %[[ONE]] : f32[N]
// CHECK-NEXT: %[[Y:[0-9a-z_.]+]] = mul %[[H]], %[[P]] : f32[N]
// CHECK-NEXT: return %[[Y]]
func @gelu_erf(%x: f32[N]) -> (y: f32[N]) {
  %y = gelu %x {approximate = none}
  return %y
}

// 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
// CHECK-LABEL: func @gelu_tanh
// CHECK-NEXT: %[[SQ:[0-9a-z_.]+]] = mul %x, %x : bf16[N, 4]
// CHECK-NEXT: %[[CU:[0-9a-z_.]+]] = mul %[[SQ]], %x : bf16[N, 4]
// CHECK-NEXT: %[[K:[0-9a-z_.]+]] = constant {value = 0.044715} : bf16[N, 4]
// CHECK-NEXT: %[[KC:[0-9a-z_.]+]] = mul %[[CU]], %[[K]] : bf16[N, 4]
// CHECK-NEXT: %[[IN:[0-9a-z_.]+]] = add %x, %[[KC]] : bf16[N, 4]
// CHECK-NEXT: %[[C:[0-9a-z_.]+]] = constant {value = 0.7978845608028654} : bf16[N, 4]
// CHECK-NEXT: %[[SC:[0-9a-z_.]+]] = mul %[[IN]], %[[C]] : bf16[N, 4]
// CHECK-NEXT: %[[T:[0-9a-z_.]+]] = tanh %[[SC]] : bf16[N, 4]
// CHECK-NEXT: %[[HALF:[0-9a-z_.]+]] = constant {value = 0.5} : bf16[N, 4]
// CHECK-NEXT: %[[H:[0-9a-z_.]+]] = mul %x, %[[HALF]] : bf16[N, 4]
// CHECK-NEXT: %[[ONE:[0-9a-z_.]+]] = constant {value = 1.0} : bf16[N, 4]
// CHECK-NEXT: %[[P:[0-9a-z_.]+]] = add %[[T]], %[[ONE]] : bf16[N, 4]
// CHECK-NEXT: %[[Y:[0-9a-z_.]+]] = mul %[[H]], %[[P]] : bf16[N, 4]
// CHECK-NEXT: return %[[Y]]
func @gelu_tanh(%x: bf16[N, 4]) -> (y: bf16[N, 4]) {
  %y = gelu %x {approximate = tanh}
  return %y
}

// Ops that are not composites are left alone.
// CHECK-LABEL: func @primitives_untouched
// CHECK-NEXT: %e = exp %x : f32[N]
// CHECK-NEXT: return %e
func @primitives_untouched(%x: f32[N]) -> (y: f32[N]) {
  %e = exp %x
  return %e
}
