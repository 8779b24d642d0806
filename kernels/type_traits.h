// Type traits for kernel code in the portable subset (DESIGN.md §4): the standard library's
// <type_traits> is not available under NVRTC, so kernels use these. Half and BFloat16 count as
// floating point here, unlike std::is_floating_point.
#pragma once

#include "ingot/half.h"
#include "ingot/portable.h"

namespace ingot {

template <typename T, T v>
struct integral_constant {
  static constexpr T value = v;
};
using true_type = integral_constant<bool, true>;
using false_type = integral_constant<bool, false>;

template <bool B, typename T = void>
struct enable_if {};
template <typename T>
struct enable_if<true, T> {
  using type = T;
};
template <bool B, typename T = void>
using enable_if_t = typename enable_if<B, T>::type;

template <bool B, typename T, typename F>
struct conditional {
  using type = T;
};
template <typename T, typename F>
struct conditional<false, T, F> {
  using type = F;
};
template <bool B, typename T, typename F>
using conditional_t = typename conditional<B, T, F>::type;

template <typename A, typename B>
struct is_same : false_type {};
template <typename A>
struct is_same<A, A> : true_type {};
template <typename A, typename B>
inline constexpr bool is_same_v = is_same<A, B>::value;

template <typename T>
struct remove_cv {
  using type = T;
};
template <typename T>
struct remove_cv<const T> {
  using type = T;
};
template <typename T>
struct remove_cv<volatile T> {
  using type = T;
};
template <typename T>
struct remove_cv<const volatile T> {
  using type = T;
};
template <typename T>
using remove_cv_t = typename remove_cv<T>::type;

template <typename T>
struct remove_reference {
  using type = T;
};
template <typename T>
struct remove_reference<T&> {
  using type = T;
};
template <typename T>
struct remove_reference<T&&> {
  using type = T;
};
template <typename T>
using decay_t = remove_cv_t<typename remove_reference<T>::type>;

template <typename T, typename... Ts>
inline constexpr bool is_any_of_v = (is_same_v<remove_cv_t<T>, Ts> || ...);

template <typename T>
inline constexpr bool is_reduced_float_v = is_any_of_v<T, Half, BFloat16>;
template <typename T>
inline constexpr bool is_floating_point_v = is_any_of_v<T, float, double, Half, BFloat16>;
template <typename T>
inline constexpr bool is_integral_v =
    is_any_of_v<T, bool, char, signed char, unsigned char, short, unsigned short, int, unsigned int,
                long, unsigned long, long long, unsigned long long>;
template <typename T>
inline constexpr bool is_arithmetic_v = is_integral_v<T> || is_floating_point_v<T>;
template <typename T>
inline constexpr bool is_signed_v = is_floating_point_v<T> || (is_integral_v<T> && T(-1) < T(0));
template <typename T>
inline constexpr bool is_unsigned_v = is_integral_v<T> && !is_signed_v<T>;

// The unsigned type of the same width, for integer arithmetic that wraps instead of overflowing.
template <typename T>
struct make_unsigned;
template <>
struct make_unsigned<bool> {
  using type = bool;
};
template <>
struct make_unsigned<int8_t> {
  using type = uint8_t;
};
template <>
struct make_unsigned<uint8_t> {
  using type = uint8_t;
};
template <>
struct make_unsigned<int16_t> {
  using type = uint16_t;
};
template <>
struct make_unsigned<int32_t> {
  using type = uint32_t;
};
template <>
struct make_unsigned<int64_t> {
  using type = uint64_t;
};
template <typename T>
using make_unsigned_t = typename make_unsigned<T>::type;

// The unsigned type of `Bytes` bytes: for code that only moves elements (index kernels, CPU
// tiles), instantiated per element size rather than per dtype.
template <int Bytes>
struct uint_of_size;
template <>
struct uint_of_size<1> {
  using type = uint8_t;
};
template <>
struct uint_of_size<2> {
  using type = uint16_t;
};
template <>
struct uint_of_size<4> {
  using type = uint32_t;
};
template <>
struct uint_of_size<8> {
  using type = uint64_t;
};
template <int Bytes>
using uint_of_size_t = typename uint_of_size<Bytes>::type;

template <typename T>
INGOT_HOST_DEVICE T&& declval() noexcept;

template <typename...>
struct make_void {
  using type = void;
};
template <typename... T>
using void_t = typename make_void<T...>::type;

// A compile-time list of indices (std::integer_sequence is not portable to NVRTC).
template <int... I>
struct int_seq {};
template <int N, int... I>
struct make_int_seq_impl : make_int_seq_impl<N - 1, N - 1, I...> {};
template <int... I>
struct make_int_seq_impl<0, I...> {
  using type = int_seq<I...>;
};
template <int N>
using make_int_seq = typename make_int_seq_impl<N>::type;

}  // namespace ingot
