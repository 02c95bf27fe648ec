#pragma once
// MT19937-64 (T. Nishimura, "Tables of 64-bit Mersenne Twisters", ACM TOMACS 10(4), 2000; the
// generator std::mt19937_64 specifies): the same output sequence as std::mt19937_64 for the same
// seed, but produced 312 tempered words at a time, so that a draw is an inline array read instead
// of a call that twists and tempers one word. Meant for the hot loops that draw a number per node
// and cycle (synthetic NoC traffic); a drop-in uniform random bit generator (result_type, min, max),
// so standard distributions give what they give with std::mt19937_64.
// tests/unit/common/test_mt19937_64.cpp checks the sequence against std::mt19937_64.
#include <cstdint>

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define VP_MT_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define VP_MT_CLONES
#endif

namespace vp {

class Mt19937_64 {
public:
    using result_type = std::uint64_t;
    static constexpr result_type default_seed = 5489u;

    explicit Mt19937_64(result_type s = default_seed) { seed(s); }

    void seed(result_type s) {
        m_state[0] = s;
        for (unsigned i = 1; i < kN; ++i)
            m_state[i] = 6364136223846793005ULL * (m_state[i - 1] ^ (m_state[i - 1] >> 62)) + i;
        m_next = kN;
    }
    static constexpr result_type min() { return 0; }
    static constexpr result_type max() { return ~result_type(0); }

    result_type operator()() {
        if (m_next == kN) refill();
        return m_out[m_next++];
    }

    // Draws at most n numbers, stopping at the first one below `bound`: returns how many numbers
    // not below it were drawn (< n: one more, the number below, was drawn too). The numbers drawn
    // are those n calls of operator() would return, so callers can mix both; a search over the
    // tempered block instead of a call per number (a Bernoulli draw per node and cycle).
    unsigned skip_not_below(std::uint64_t bound, unsigned n) {
        unsigned skipped = 0;
        while (skipped < n) {
            if (m_next == kN) refill();
            const unsigned avail = kN - m_next < n - skipped ? kN - m_next : n - skipped;
            const std::uint64_t* p = m_out + m_next;
            for (unsigned i = 0; i < avail; ++i)
                if (p[i] < bound) {
                    m_next += i + 1;
                    return skipped + i;
                }
            m_next += avail;
            skipped += avail;
        }
        return n;
    }

private:
    static constexpr unsigned kN = 312, kM = 156;
    static constexpr std::uint64_t kMatrixA = 0xB5026F5AA96619E9ULL;
    static constexpr std::uint64_t kUpper = 0xFFFFFFFF80000000ULL;  // the upper w - r = 33 bits
    static constexpr std::uint64_t kLower = 0x000000007FFFFFFFULL;
    static std::uint64_t twist(std::uint64_t upper_of, std::uint64_t lower_of, std::uint64_t far) {
        const std::uint64_t y = (upper_of & kUpper) | (lower_of & kLower);
        return far ^ (y >> 1) ^ ((0 - (y & 1)) & kMatrixA);
    }
    static std::uint64_t temper(std::uint64_t z) {
        z ^= (z >> 29) & 0x5555555555555555ULL;
        z ^= (z << 17) & 0x71D67FFFEDA60000ULL;
        z ^= (z << 37) & 0xFFF7EEE000000000ULL;
        return z ^ (z >> 43);
    }
    // The next kN words of the state (the recurrence of std::mersenne_twister_engine), tempered
    // into m_out. Out of line: once per kN draws. With GCC on x86-64 also built for AVX2 (4 words
    // per vector instead of SSE2's 2), chosen at load time on processors that have it.
    VP_MT_CLONES [[gnu::noinline]] void refill() {
        unsigned k = 0;
        for (; k < kN - kM; ++k) m_state[k] = twist(m_state[k], m_state[k + 1], m_state[k + kM]);
        for (; k < kN - 1; ++k) m_state[k] = twist(m_state[k], m_state[k + 1], m_state[k - (kN - kM)]);
        m_state[kN - 1] = twist(m_state[kN - 1], m_state[0], m_state[kM - 1]);
        for (unsigned i = 0; i < kN; ++i) m_out[i] = temper(m_state[i]);
        m_next = 0;
    }

    std::uint64_t m_state[kN];
    std::uint64_t m_out[kN];
    unsigned m_next = kN;
};

}  // namespace vp
