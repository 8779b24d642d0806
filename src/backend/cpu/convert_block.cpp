#include "backend/cpu/convert_block.h"

#include <cstring>

#include "ingot/dtype.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>
#define INGOT_X86_DISPATCH 1
#endif

namespace ingot::cpu {

namespace {

// Branch-free forms of detail::bfloat16_bits_to_float / float_to_bfloat16_bits, so that the
// compiler vectorizes them (same results, NaN included).
template <int Dummy = 0>
inline void bf16_to_float(float* dst, const BFloat16* src, int64_t n) {
  const uint16_t* s = reinterpret_cast<const uint16_t*>(src);
  uint32_t* d = reinterpret_cast<uint32_t*>(dst);
  for (int64_t j = 0; j < n; ++j) d[j] = static_cast<uint32_t>(s[j]) << 16;
}
template <int Dummy = 0>
inline void float_to_bf16(BFloat16* dst, const float* src, int64_t n) {
  const uint32_t* s = reinterpret_cast<const uint32_t*>(src);
  uint16_t* d = reinterpret_cast<uint16_t*>(dst);
  for (int64_t j = 0; j < n; ++j) {
    const uint32_t f = s[j];
    const uint32_t rounded = (f + 0x7fffu + ((f >> 16) & 1u)) >> 16;
    const uint32_t quiet_nan = (f >> 16) | 0x40u;
    d[j] = static_cast<uint16_t>(static_cast<int32_t>(f & 0x7fffffffu) > 0x7f800000 ? quiet_nan : rounded);
  }
}

// The paired order without vector instructions (convert_block.h), element by element.
inline void bf16_to_float_paired(float* dst, const BFloat16* src, int64_t n) {
  int64_t j = 0;
  for (; j + 16 <= n; j += 16) {
    for (int64_t k = 0; k < 8; ++k) {
      bf16_to_float(dst + j + k, src + j + 2 * k, 1);
      bf16_to_float(dst + j + 8 + k, src + j + 2 * k + 1, 1);
    }
  }
  bf16_to_float(dst + j, src + j, n - j);
}
inline void float_to_bf16_paired(BFloat16* dst, const float* src, int64_t n) {
  int64_t j = 0;
  for (; j + 16 <= n; j += 16) {
    for (int64_t k = 0; k < 8; ++k) {
      float_to_bf16(dst + j + 2 * k, src + j + k, 1);
      float_to_bf16(dst + j + 2 * k + 1, src + j + 8 + k, 1);
    }
  }
  float_to_bf16(dst + j, src + j, n - j);
}

#ifdef INGOT_X86_DISPATCH
__attribute__((target("avx2"))) void bf16_to_float_avx2(float* dst, const BFloat16* src, int64_t n) {
  bf16_to_float(dst, src, n);
}
// The rounding of float_to_bf16 on 8 lanes, NaNs quieted; results in the low 16 bits of each lane.
__attribute__((target("avx2"))) inline __m256i round_to_bf16_avx2(__m256i f) {
  const __m256i one = _mm256_set1_epi32(1), half = _mm256_set1_epi32(0x7fff),
                quiet = _mm256_set1_epi32(0x40);
  const __m256i abs_mask = _mm256_set1_epi32(0x7fffffff), inf = _mm256_set1_epi32(0x7f800000);
  const __m256i high = _mm256_srli_epi32(f, 16);
  const __m256i rounded = _mm256_srli_epi32(
      _mm256_add_epi32(_mm256_add_epi32(f, half), _mm256_and_si256(high, one)), 16);
  const __m256i nan = _mm256_cmpgt_epi32(_mm256_and_si256(f, abs_mask), inf);
  return _mm256_blendv_epi8(rounded, _mm256_or_si256(high, quiet), nan);
}
// 16 lanes a step, narrowed by one unsigned pack (every lane fits 16 bits) and a permute that
// undoes the pack's 128-bit interleave. The compiler's own AVX2 form of float_to_bf16 ran at 0.42
// ns an element, this one at 0.14 (dev box, in cache): it had kept bfloat16 add at ~60% of float32
// add's bytes per second on AVX2-only CPUs.
__attribute__((target("avx2"))) void float_to_bf16_avx2(BFloat16* dst, const float* src, int64_t n) {
  int64_t j = 0;
  for (; j + 16 <= n; j += 16) {
    const __m256i lo =
        round_to_bf16_avx2(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + j)));
    const __m256i hi =
        round_to_bf16_avx2(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + j + 8)));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + j),
                        _mm256_permute4x64_epi64(_mm256_packus_epi32(lo, hi), 0xD8));
  }
  float_to_bf16(dst + j, src + j, n - j);
}
// The paired order (convert_block.h): a 256-bit load of 16 bfloat16 holds value 2i in the low
// half of lane i and value 2i + 1 in the high half, so a shift makes the even values floats and a
// mask the odd ones.
__attribute__((target("avx2"))) void bf16_to_float_paired_avx2(float* dst, const BFloat16* src,
                                                               int64_t n) {
  const __m256i high_half = _mm256_set1_epi32(static_cast<int>(0xffff0000u));
  int64_t j = 0;
  for (; j + 16 <= n; j += 16) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + j));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + j), _mm256_slli_epi32(v, 16));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + j + 8), _mm256_and_si256(v, high_half));
  }
  bf16_to_float(dst + j, src + j, n - j);
}
// The rounding of float_to_bf16 for lanes that are not NaN, the result in the high 16 bits.
__attribute__((target("avx2"))) inline __m256i round_high_bf16_avx2(__m256i f) {
  const __m256i one = _mm256_set1_epi32(1), half = _mm256_set1_epi32(0x7fff);
  return _mm256_add_epi32(_mm256_add_epi32(f, half),
                          _mm256_and_si256(_mm256_srli_epi32(f, 16), one));
}
// Evens to the low halves (a shift), odds to the high halves (a mask). A group holding a NaN goes
// through round_to_bf16_avx2, which quiets it (rounding a NaN's bits can carry into the sign).
__attribute__((target("avx2"))) void float_to_bf16_paired_avx2(BFloat16* dst, const float* src,
                                                               int64_t n) {
  const __m256i high_half = _mm256_set1_epi32(static_cast<int>(0xffff0000u));
  int64_t j = 0;
  for (; j + 16 <= n; j += 16) {
    const __m256 even = _mm256_loadu_ps(src + j), odd = _mm256_loadu_ps(src + j + 8);
    const __m256 nan = _mm256_or_ps(_mm256_cmp_ps(even, even, _CMP_UNORD_Q),
                                    _mm256_cmp_ps(odd, odd, _CMP_UNORD_Q));
    const __m256i e = _mm256_castps_si256(even), o = _mm256_castps_si256(odd);
    const __m256i packed =
        __builtin_expect(_mm256_movemask_ps(nan) != 0, 0)
            ? _mm256_or_si256(round_to_bf16_avx2(e), _mm256_slli_epi32(round_to_bf16_avx2(o), 16))
            : _mm256_or_si256(_mm256_srli_epi32(round_high_bf16_avx2(e), 16),
                              _mm256_and_si256(round_high_bf16_avx2(o), high_half));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + j), packed);
  }
  float_to_bf16(dst + j, src + j, n - j);
}
// AVX-512: 16 lanes a step, and the narrowing to 16 bits is one instruction (vpmovdw), where the
// compiler's AVX2 form needs packs and permutes. Same bit operations as above.
// GCC 12's AVX-512 intrinsics start from _mm512_undefined_*, which -Wmaybe-uninitialized flags.
#if defined(__GNUC__) && !defined(__clang__)  // clang has no such warning group
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
__attribute__((target("avx512f"))) void bf16_to_float_avx512(float* dst, const BFloat16* src, int64_t n) {
  int64_t j = 0;
  for (; j + 16 <= n; j += 16) {
    const __m512i h = _mm512_cvtepu16_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + j)));
    _mm512_storeu_si512(dst + j, _mm512_slli_epi32(h, 16));
  }
  bf16_to_float(dst + j, src + j, n - j);
}
__attribute__((target("avx512f"))) void float_to_bf16_avx512(BFloat16* dst, const float* src, int64_t n) {
  const __m512i one = _mm512_set1_epi32(1), half = _mm512_set1_epi32(0x7fff), quiet = _mm512_set1_epi32(0x40);
  const __m512i abs_mask = _mm512_set1_epi32(0x7fffffff), inf = _mm512_set1_epi32(0x7f800000);
  int64_t j = 0;
  for (; j + 16 <= n; j += 16) {
    const __m512i f = _mm512_loadu_si512(src + j);
    const __m512i high = _mm512_srli_epi32(f, 16);
    const __m512i rounded = _mm512_srli_epi32(_mm512_add_epi32(_mm512_add_epi32(f, half), _mm512_and_si512(high, one)), 16);
    const __mmask16 nan = _mm512_cmpgt_epu32_mask(_mm512_and_si512(f, abs_mask), inf);
    const __m512i r = _mm512_mask_or_epi32(rounded, nan, high, quiet);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + j), _mm512_cvtepi32_epi16(r));
  }
  float_to_bf16(dst + j, src + j, n - j);
}
__attribute__((target("avx512f"))) void half_to_float_avx512(float* dst, const Half* src, int64_t n) {
  int64_t j = 0;
  for (; j + 16 <= n; j += 16) {
    _mm512_storeu_ps(dst + j, _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + j))));
  }
  for (; j < n; ++j) dst[j] = static_cast<float>(src[j]);
}
__attribute__((target("avx512f"))) void float_to_half_avx512(Half* dst, const float* src, int64_t n) {
  int64_t j = 0;
  for (; j + 16 <= n; j += 16) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + j),
                        _mm512_cvtps_ph(_mm512_loadu_ps(src + j), _MM_FROUND_TO_NEAREST_INT));
  }
  for (; j < n; ++j) dst[j] = Half(src[j]);
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
// F16C rounds to nearest even and keeps NaN payloads the way detail::float_to_half_bits does.
__attribute__((target("avx,f16c"))) void half_to_float_f16c(float* dst, const Half* src, int64_t n) {
  int64_t j = 0;
  for (; j + 8 <= n; j += 8) {
    const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + j));
    _mm256_storeu_ps(dst + j, _mm256_cvtph_ps(h));
  }
  for (; j < n; ++j) dst[j] = static_cast<float>(src[j]);
}
__attribute__((target("avx,f16c"))) void float_to_half_f16c(Half* dst, const float* src, int64_t n) {
  int64_t j = 0;
  for (; j + 8 <= n; j += 8) {
    const __m128i h = _mm256_cvtps_ph(_mm256_loadu_ps(src + j), _MM_FROUND_TO_NEAREST_INT);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + j), h);
  }
  for (; j < n; ++j) dst[j] = Half(src[j]);
}

// Static initializers may run before the compiler runtime's own CPU detection: initialize it first.
bool cpu_has_avx2() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2");
}
const bool has_avx2 = cpu_has_avx2();
bool cpu_has_avx512f() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f");
}
const bool has_avx512f = cpu_has_avx512f();
// F16C is CPUID.1:ECX bit 29 (clang's __builtin_cpu_supports has no "f16c"); the 256-bit forms
// also need the OS to save AVX state, which __builtin_cpu_supports("avx") checks.
bool cpu_has_f16c() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid(1, &eax, &ebx, &ecx, &edx) == 0) return false;
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx") && (ecx & (1u << 29)) != 0;
}
const bool has_f16c = cpu_has_f16c();
#endif

}  // namespace

void convert_block(float* dst, const BFloat16* src, int64_t n) {
#ifdef INGOT_X86_DISPATCH
  if (has_avx512f) return bf16_to_float_avx512(dst, src, n);
  if (has_avx2) return bf16_to_float_avx2(dst, src, n);
#endif
  bf16_to_float(dst, src, n);
}

void convert_block(BFloat16* dst, const float* src, int64_t n) {
#ifdef INGOT_X86_DISPATCH
  if (has_avx512f) return float_to_bf16_avx512(dst, src, n);
  if (has_avx2) return float_to_bf16_avx2(dst, src, n);
#endif
  float_to_bf16(dst, src, n);
}

void convert_block(float* dst, const Half* src, int64_t n) {
#ifdef INGOT_X86_DISPATCH
  if (has_avx512f) return half_to_float_avx512(dst, src, n);
  if (has_f16c) return half_to_float_f16c(dst, src, n);
#endif
  for (int64_t j = 0; j < n; ++j) dst[j] = static_cast<float>(src[j]);
}

void convert_block(Half* dst, const float* src, int64_t n) {
#ifdef INGOT_X86_DISPATCH
  if (has_avx512f) return float_to_half_avx512(dst, src, n);
  if (has_f16c) return float_to_half_f16c(dst, src, n);
#endif
  for (int64_t j = 0; j < n; ++j) dst[j] = Half(src[j]);
}

// On every x86-64 CPU with AVX2 (AVX-512 ones included: the paired order is the one that
// needs no shuffles at 256 bits), otherwise element by element; the same choice for both
// directions, so a block widened here narrows back in order.
void widen_bf16_paired(float* dst, const BFloat16* src, int64_t n) {
#ifdef INGOT_X86_DISPATCH
  if (has_avx2) return bf16_to_float_paired_avx2(dst, src, n);
#endif
  bf16_to_float_paired(dst, src, n);
}
void narrow_bf16_paired(BFloat16* dst, const float* src, int64_t n) {
#ifdef INGOT_X86_DISPATCH
  if (has_avx2) return float_to_bf16_paired_avx2(dst, src, n);
#endif
  float_to_bf16_paired(dst, src, n);
}

template <typename T>
void load_converted(T* dst, const char* src, int64_t stride, ScalarType from, int64_t n) {
  visit_dtype(from, [&](auto tag) {
    using S = typename decltype(tag)::type;
    if (stride == 0) {
      const T v = convert<T>(*reinterpret_cast<const S*>(src));
      for (int64_t j = 0; j < n; ++j) dst[j] = v;
    } else if (stride == static_cast<int64_t>(sizeof(S))) {
      convert_block(dst, reinterpret_cast<const S*>(src), n);
    } else {
      for (int64_t j = 0; j < n; ++j) dst[j] = convert<T>(*reinterpret_cast<const S*>(src + j * stride));
    }
  });
}

template <typename T>
void store_converted(char* dst, int64_t stride, ScalarType to, const T* src, int64_t n) {
  visit_dtype(to, [&](auto tag) {
    using D = typename decltype(tag)::type;
    if (stride == static_cast<int64_t>(sizeof(D))) {
      convert_block(reinterpret_cast<D*>(dst), src, n);
    } else {
      for (int64_t j = 0; j < n; ++j) *reinterpret_cast<D*>(dst + j * stride) = convert<D>(src[j]);
    }
  });
}

#define INGOT_DEFINE_CONVERTED(cpp, code, name)                                         \
  template void load_converted<cpp>(cpp*, const char*, int64_t, ScalarType, int64_t); \
  template void store_converted<cpp>(char*, int64_t, ScalarType, const cpp*, int64_t);
INGOT_FORALL_SCALAR_TYPES(INGOT_DEFINE_CONVERTED)
#undef INGOT_DEFINE_CONVERTED

}  // namespace ingot::cpu
