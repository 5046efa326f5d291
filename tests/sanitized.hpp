// kSanitized: true in a build under AddressSanitizer or ThreadSanitizer, where everything runs
// 5-20x slower (tests that loop over many cases or large sizes shrink there; .ci/run's budget).
#pragma once

namespace cubex::test {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif
#else
inline constexpr bool kSanitized = false;
#endif

}  // namespace cubex::test
