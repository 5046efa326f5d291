// cubex/core/bigcount.hpp - an unsigned integer of any size, for counts that pass 2^64.
//
// Counting by memo (core/memo.hpp) reaches counts no 64-bit word holds: the domino tilings of
// 16x16 are about 2.4 * 10^33. BigCount holds them exactly; it adds, multiplies and divides by
// machine words, subtracts, compares, prints with << in decimal and converts to and from decimal text.
// It is not for hot loops: the search counts in 64-bit words and only the totals are BigCounts.
//
//   BigCount n = 12988816;      // from any unsigned or non-negative integer
//   n *= 1000000007u;           // exact
//   std::cout << n;             // 12988816090921712
//   n.fits_u64()                // true: n.to_u64() gives it back
#pragma once

#include <compare>
#include <concepts>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace cubex {

class BigCount {
 public:
  BigCount() = default;
  template <std::integral T>
  BigCount(T v) {  // NOLINT(google-explicit-constructor): counts convert from integers
    if constexpr (std::is_signed_v<T>) {
      if (v < 0) v = 0;  // counts are never negative
    }
    if (v != 0) limbs_.push_back(static_cast<std::uint64_t>(v));
  }
  // From little-endian 64-bit words (any number, trailing zeros allowed).
  static BigCount from_words(const std::uint64_t* words, std::size_t n) {
    BigCount r;
    r.limbs_.assign(words, words + n);
    r.trim();
    return r;
  }
  // From decimal digits only (no sign, no spaces); nullopt for anything else or "".
  static std::optional<BigCount> parse(std::string_view text) {
    if (text.empty()) return std::nullopt;
    BigCount r;
    for (char ch : text) {
      if (ch < '0' || ch > '9') return std::nullopt;
      r *= 10u;
      r += static_cast<std::uint64_t>(ch - '0');
    }
    return r;
  }

  bool is_zero() const { return limbs_.empty(); }
  bool fits_u64() const { return limbs_.size() <= 1; }
  // The value when fits_u64(), else the low 64 bits.
  std::uint64_t to_u64() const { return limbs_.empty() ? 0 : limbs_[0]; }
  // The value when fits_u64(), else 2^64 - 1 (for tables of 64-bit counts).
  std::uint64_t saturated() const { return fits_u64() ? to_u64() : ~std::uint64_t{0}; }
  // The number of bits (0 for zero).
  std::size_t bit_width() const {
    if (limbs_.empty()) return 0;
    std::size_t top = 64;
    while (top > 0 && !(limbs_.back() >> (top - 1) & 1)) --top;
    return (limbs_.size() - 1) * 64 + top;
  }
  double to_double() const {
    double d = 0;
    for (std::size_t i = limbs_.size(); i-- > 0;) d = d * 18446744073709551616.0 + double(limbs_[i]);
    return d;
  }

  BigCount& operator+=(const BigCount& o) {
    if (o.limbs_.size() > limbs_.size()) limbs_.resize(o.limbs_.size(), 0);
    unsigned carry = 0;
    for (std::size_t i = 0; i < limbs_.size(); ++i) {
      const std::uint64_t b = i < o.limbs_.size() ? o.limbs_[i] : 0;
      if (b == 0 && carry == 0 && i >= o.limbs_.size()) break;
      const std::uint64_t s = limbs_[i] + b;
      const unsigned c1 = s < b;
      limbs_[i] = s + carry;
      carry = c1 | (limbs_[i] < s);
    }
    if (carry) limbs_.push_back(1);
    return *this;
  }
  BigCount& operator++() { return *this += BigCount(1u); }
  BigCount operator++(int) {
    BigCount before = *this;
    ++*this;
    return before;
  }
  BigCount& operator*=(std::uint64_t m) {
    if (m == 0) {
      limbs_.clear();
      return *this;
    }
    std::uint64_t carry = 0;
    for (std::uint64_t& l : limbs_) {
      const unsigned __int128 p = static_cast<unsigned __int128>(l) * m + carry;
      l = static_cast<std::uint64_t>(p);
      carry = static_cast<std::uint64_t>(p >> 64);
    }
    if (carry) limbs_.push_back(carry);
    return *this;
  }
  // Subtracts o and returns true when o <= *this; otherwise returns false and leaves *this as it
  // was (counts are never negative).
  bool subtract(const BigCount& o) {
    if (*this < o) return false;
    unsigned borrow = 0;
    for (std::size_t i = 0; i < limbs_.size(); ++i) {
      const std::uint64_t b = i < o.limbs_.size() ? o.limbs_[i] : 0;
      const std::uint64_t d = limbs_[i] - b;
      const unsigned b1 = limbs_[i] < b;
      limbs_[i] = d - borrow;
      borrow = b1 | (d < borrow);
    }
    trim();
    return true;
  }
  // Divides by d (> 0) and returns the remainder.
  std::uint64_t divide(std::uint64_t d) {
    unsigned __int128 rem = 0;
    for (std::size_t i = limbs_.size(); i-- > 0;) {
      const unsigned __int128 cur = (rem << 64) | limbs_[i];
      limbs_[i] = static_cast<std::uint64_t>(cur / d);
      rem = cur % d;
    }
    trim();
    return static_cast<std::uint64_t>(rem);
  }
  friend BigCount operator+(BigCount a, const BigCount& b) { return a += b; }
  friend BigCount operator*(BigCount a, std::uint64_t m) { return a *= m; }

  friend bool operator==(const BigCount&, const BigCount&) = default;
  friend std::strong_ordering operator<=>(const BigCount& a, const BigCount& b) {
    if (a.limbs_.size() != b.limbs_.size()) return a.limbs_.size() <=> b.limbs_.size();
    for (std::size_t i = a.limbs_.size(); i-- > 0;) {
      if (a.limbs_[i] != b.limbs_[i]) return a.limbs_[i] <=> b.limbs_[i];
    }
    return std::strong_ordering::equal;
  }
  template <std::integral T>
  friend bool operator==(const BigCount& a, T b) {
    return a == BigCount(b) && !(std::is_signed_v<T> && b < 0);
  }
  template <std::integral T>
  friend std::strong_ordering operator<=>(const BigCount& a, T b) {
    if constexpr (std::is_signed_v<T>) {
      if (b < 0) return std::strong_ordering::greater;
    }
    return a <=> BigCount(b);
  }

  // Decimal digits.
  std::string to_string() const {
    if (limbs_.empty()) return "0";
    BigCount t = *this;
    std::string out;
    while (!t.is_zero()) {
      std::uint64_t chunk = t.divide(10000000000000000000ULL);  // 10^19
      const bool last = t.is_zero();
      for (int k = 0; k < 19 && (!last || chunk != 0); ++k) {
        out.push_back(static_cast<char>('0' + chunk % 10));
        chunk /= 10;
      }
    }
    return std::string(out.rbegin(), out.rend());
  }
  friend std::ostream& operator<<(std::ostream& os, const BigCount& n) { return os << n.to_string(); }

 private:
  void trim() {
    while (!limbs_.empty() && limbs_.back() == 0) limbs_.pop_back();
  }
  std::vector<std::uint64_t> limbs_;  // little-endian, no leading zero word
};

inline std::string to_string(const BigCount& n) {
  return n.to_string();
}

}  // namespace cubex
