// Whether this test program is built with a sanitizer, and how much of a long loop it runs then.
//
// AddressSanitizer, UndefinedBehaviorSanitizer and ThreadSanitizer slow a search 5-20 times. The
// Release build runs every test at full size and checks the counts; a sanitizer build runs the
// long loops (random matrices, every library puzzle) over a fraction of their cases: it is there
// to find memory errors, races and undefined behaviour on every code path, which the first cases
// reach as well as the last.
#pragma once

namespace cubex::test {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(undefined_behavior_sanitizer)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif
#else
inline constexpr bool kSanitized = false;
#endif

// `full` in a plain build, `sanitized` (fewer) under a sanitizer.
constexpr int scaled(int full, int sanitized) { return kSanitized ? sanitized : full; }

}  // namespace cubex::test
