// SmallVector: a vector that keeps its first N elements inline and goes to the heap only beyond
// them. Shapes, strides and iterator operands use it, so an op on tensors of up to N dims makes no
// heap allocation for its metadata.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include "ingot/array_ref.h"

namespace ingot {

template <typename T, size_t N>
class SmallVector {
 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;
  using size_type = size_t;

  SmallVector() = default;
  explicit SmallVector(size_t n) { resize(n); }
  SmallVector(size_t n, const T& value) { resize(n, value); }
  template <typename It, typename = decltype(*std::declval<It&>()), typename = decltype(++std::declval<It&>())>
  SmallVector(It first, It last) {
    append(first, last);
  }
  SmallVector(std::initializer_list<T> list) { append(list.begin(), list.end()); }
  SmallVector(ArrayRef<T> ref) { append(ref.begin(), ref.end()); }
  SmallVector(const std::vector<T>& v) { append(v.begin(), v.end()); }
  SmallVector(const SmallVector& other) { append(other.begin(), other.end()); }
  SmallVector(SmallVector&& other) noexcept { take(std::move(other)); }
  SmallVector& operator=(const SmallVector& other) {
    if (this != &other) assign(other.begin(), other.end());
    return *this;
  }
  SmallVector& operator=(SmallVector&& other) noexcept {
    if (this != &other) {
      clear();
      release();
      take(std::move(other));
    }
    return *this;
  }
  SmallVector& operator=(ArrayRef<T> ref) {
    assign(ref.begin(), ref.end());
    return *this;
  }
  SmallVector& operator=(const std::vector<T>& v) {
    assign(v.begin(), v.end());
    return *this;
  }
  ~SmallVector() {
    clear();
    release();
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t capacity() const { return capacity_; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  std::reverse_iterator<T*> rbegin() { return std::reverse_iterator<T*>(end()); }
  std::reverse_iterator<T*> rend() { return std::reverse_iterator<T*>(begin()); }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T& front() { return data_[0]; }
  const T& front() const { return data_[0]; }
  T& back() { return data_[size_ - 1]; }
  const T& back() const { return data_[size_ - 1]; }

  operator ArrayRef<T>() const { return ArrayRef<T>(data_, size_); }
  operator std::vector<T>() const { return std::vector<T>(begin(), end()); }
  std::vector<T> vec() const { return std::vector<T>(begin(), end()); }

  void reserve(size_t n) {
    if (n <= capacity_) return;
    T* fresh = static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t{alignof(T)}));
    for (size_t i = 0; i < size_; ++i) {
      new (fresh + i) T(std::move(data_[i]));
      data_[i].~T();
    }
    release();
    data_ = fresh;
    capacity_ = n;
  }
  template <typename... A>
  T& emplace_back(A&&... args) {
    if (size_ == capacity_) reserve(capacity_ * 2 + 1);
    new (data_ + size_) T(std::forward<A>(args)...);
    return data_[size_++];
  }
  void push_back(const T& v) { emplace_back(v); }
  void push_back(T&& v) { emplace_back(std::move(v)); }
  void pop_back() { data_[--size_].~T(); }
  void clear() {
    for (size_t i = 0; i < size_; ++i) data_[i].~T();
    size_ = 0;
  }
  void resize(size_t n) {
    reserve(n);
    while (size_ > n) pop_back();
    while (size_ < n) emplace_back();
  }
  void resize(size_t n, const T& value) {
    reserve(n);
    while (size_ > n) pop_back();
    while (size_ < n) emplace_back(value);
  }
  template <typename It>
  void assign(It first, It last) {
    clear();
    append(first, last);
  }
  void assign(size_t n, const T& value) {
    clear();
    resize(n, value);
  }
  template <typename It>
  void append(It first, It last) {
    reserve(size_ + static_cast<size_t>(std::distance(first, last)));
    for (; first != last; ++first) emplace_back(*first);
  }
  T* insert(const T* pos, const T& value) {
    const size_t at = static_cast<size_t>(pos - data_);
    T copy = value;  // value may live in this vector
    emplace_back(std::move(copy));
    std::rotate(data_ + at, data_ + size_ - 1, data_ + size_);
    return data_ + at;
  }
  T* erase(const T* pos) {
    const size_t at = static_cast<size_t>(pos - data_);
    std::move(data_ + at + 1, data_ + size_, data_ + at);
    pop_back();
    return data_ + at;
  }

  friend bool operator==(const SmallVector& a, const SmallVector& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }
  friend bool operator!=(const SmallVector& a, const SmallVector& b) { return !(a == b); }

 private:
  T* inline_data() { return reinterpret_cast<T*>(inline_); }
  void release() {
    if (data_ != inline_data()) ::operator delete(data_, std::align_val_t{alignof(T)});
    data_ = inline_data();
    capacity_ = N;
  }
  void take(SmallVector&& other) {  // this is empty and inline
    if (other.data_ != other.inline_data()) {
      data_ = other.data_;
      capacity_ = other.capacity_;
      size_ = other.size_;
      other.data_ = other.inline_data();
      other.capacity_ = N;
      other.size_ = 0;
      return;
    }
    for (size_t i = 0; i < other.size_; ++i) new (data_ + i) T(std::move(other.data_[i]));
    size_ = other.size_;
    other.clear();
  }

  T* data_ = inline_data();
  size_t size_ = 0;
  size_t capacity_ = N;
  alignas(T) unsigned char inline_[N * sizeof(T)];
};

}  // namespace ingot
