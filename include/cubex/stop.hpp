// cubex/stop.hpp - stopping the phases that come before the search, and saying what they do.
//
// On a big input the work before the search takes seconds: reading and compiling the placements,
// finding the symmetry group, building the SymmetricSolver. Each of these polls the caller's stop
// flag (a signal sets it) at a bounded interval, a few thousand steps of work, and gives up by
// throwing Interrupted; what it was making is dropped, nothing is half-written. The same polls
// post the phase and how far it has got to a PhaseBoard, which another thread may read (the
// progress line of `cubex solve --progress`). Both are passed down as a value (Watch): nothing
// process-wide.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>

namespace cubex {

// Which phase runs and how far it has got: written by the phase, read by a watcher thread.
struct PhaseBoard {
  std::atomic<const char*> phase{nullptr};  // "compiling the placements"; null: none yet
  std::atomic<std::uint64_t> done{0};       // steps done of `total`
  std::atomic<std::uint64_t> total{0};      // 0: not known
};

// What a phase before the search answers to; either pointer may be null.
struct Watch {
  const std::atomic<bool>* stop = nullptr;  // set from outside (a signal): give up
  PhaseBoard* board = nullptr;              // where to say what runs
};

// Thrown by a phase that saw the stop flag. Not an Error: nothing is wrong with the input.
class Interrupted : public std::exception {
 public:
  explicit Interrupted(const char* phase) noexcept : phase_(phase) {}
  const char* what() const noexcept override { return "interrupted"; }
  // The phase that stopped, as PhasePoll was told ("finding the symmetries").
  const char* phase() const noexcept { return phase_; }

 private:
  const char* phase_;
};

// One phase's poll: call step() for every unit of work (a cell, an option, an item: each a
// bounded amount of work); every kEvery units it posts the count to the board and throws
// Interrupted when the stop flag is set. Construction posts the phase and checks the flag once.
class PhasePoll {
 public:
  static constexpr std::uint64_t kEvery = 4096;

  PhasePoll(const Watch& watch, const char* phase, std::uint64_t total = 0)
      : watch_(watch), phase_(phase), total_(total) {
    if (PhaseBoard* b = watch_.board) {
      b->total.store(total, std::memory_order_relaxed);
      b->done.store(0, std::memory_order_relaxed);
      b->phase.store(phase, std::memory_order_relaxed);
    }
    check();
  }

  void step(std::uint64_t n = 1) {
    done_ += n;
    if (done_ < next_) return;
    next_ = done_ + kEvery;
    if (PhaseBoard* b = watch_.board) {  // (again: a phase called within this one posts its own)
      b->phase.store(phase_, std::memory_order_relaxed);
      b->total.store(total_, std::memory_order_relaxed);
      b->done.store(done_, std::memory_order_relaxed);
    }
    check();
  }

  // Counts the steps done as `done` in all (a phase that skips work it had counted on).
  void step_to(std::uint64_t done) {
    if (done > done_) step(done - done_);
  }

  // Throws Interrupted when the stop flag is set.
  void check() const {
    if (watch_.stop && watch_.stop->load(std::memory_order_relaxed)) throw Interrupted(phase_);
  }

 private:
  Watch watch_;
  const char* phase_;
  std::uint64_t total_;
  std::uint64_t done_ = 0;
  std::uint64_t next_ = kEvery;
};

}  // namespace cubex
