#ifndef XSTITCH_BACKENDS_AMDGPU_AMDGPULANEOPS_H
#define XSTITCH_BACKENDS_AMDGPU_AMDGPULANEOPS_H

// The encodings of the AMDGPU lane exchanges the butterflies use
// (AmdgpuTarget.h), from the AMDGPU ISA manuals: what the target emits and
// what the AMDGPU simulation decodes.

#include <cstdint>

namespace xs::amdgpu {

/// DPP controls (DPP_CTRL): quad_perm [1,0,3,2] and [2,3,0,1] (two bits per
/// lane of the quad: the source lane, 0x00-0xFF), row_mirror (lane 15 - i of
/// its row of 16), row_half_mirror (lane 7 - i of its half-row).
inline constexpr int kDppQuadPermLast = 0xFF;
inline constexpr int kDppQuadPermXor1 = 1 | 0 << 2 | 3 << 4 | 2 << 6;
inline constexpr int kDppQuadPermXor2 = 2 | 3 << 2 | 0 << 4 | 1 << 6;
inline constexpr int kDppRowMirror = 0x140;
inline constexpr int kDppRowHalfMirror = 0x141;
/// row_mask and bank_mask that write every row and bank.
inline constexpr int kDppAllRows = 0xF;
inline constexpr int kDppAllBanks = 0xF;

/// ds_swizzle's offset: bit 15 set is quad-permute mode; clear, bit mode
/// with an and-mask (bits 0-4), an or-mask (5-9) and a xor-mask (10-14)
/// applied to the lane's index within its 32.
inline constexpr int kSwizzleQuadMode = 0x8000;
inline constexpr int kSwizzleXor16 = 0x1F | 16 << 10;

/// v_permlanex16's lane selects of lanes 0-7 and 8-15 of a row: each lane
/// its own index (so lane i reads lane i ^ 16).
inline constexpr int32_t kPermlaneIdentityLow = 0x76543210;
inline constexpr int32_t kPermlaneIdentityHigh = static_cast<int32_t>(0xFEDCBA98u);

} // namespace xs::amdgpu

#endif // XSTITCH_BACKENDS_AMDGPU_AMDGPULANEOPS_H
