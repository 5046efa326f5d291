// The cluster's messages between ranks (cluster.cpp): MPI point to point, non-blocking sends; a
// rank's messages to itself go through a local queue. Every MPI call is made on the thread that
// called cubex::mpi::run.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <deque>
#include <iterator>
#include <list>
#include <utility>

#include "wire.hpp"

namespace cubex::mpi::detail {

// Messages between ranks; a rank's messages to itself go through a queue.
class Net {
 public:
  explicit Net(int rank) : rank_(rank) {}
  ~Net() { finish(); }

  void send(int to, int tag, Words w) {
    if (to == rank_) {
      local_.push_back({tag, std::move(w)});
      return;
    }
    out_.push_back(Out{std::move(w), MPI_REQUEST_NULL});
    Out& o = out_.back();
    MPI_Isend(o.w.data(), static_cast<int>(o.w.size()), MPI_UINT64_T, to, tag, MPI_COMM_WORLD,
              &o.req);
  }
  void send(int to, int tag, Writer&& m) { send(to, tag, std::move(m.w)); }

  bool receive(int& from, int& tag, Words& w) {
    if (!local_.empty()) {
      from = rank_;
      tag = local_.front().first;
      w = std::move(local_.front().second);
      local_.pop_front();
      return true;
    }
    int flag = 0;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
    if (!flag) return false;
    int n = 0;
    MPI_Get_count(&st, MPI_UINT64_T, &n);
    w.assign(static_cast<std::size_t>(std::max(n, 0)), 0);
    MPI_Recv(w.data(), n, MPI_UINT64_T, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    from = st.MPI_SOURCE;
    tag = st.MPI_TAG;
    check_magic(from, w);
    return true;
  }

  void progress() {  // frees the buffers of the sends that are done
    for (auto it = out_.begin(); it != out_.end();) {
      int flag = 0;
      MPI_Test(&it->req, &flag, MPI_STATUS_IGNORE);
      it = flag ? out_.erase(it) : std::next(it);
    }
  }
  void finish() {
    for (Out& o : out_) MPI_Wait(&o.req, MPI_STATUS_IGNORE);
    out_.clear();
  }

 private:
  struct Out {
    Words w;
    MPI_Request req;
  };
  int rank_;
  std::list<Out> out_;  // (stable addresses while MPI holds them)
  std::deque<std::pair<int, Words>> local_;
};

}  // namespace cubex::mpi::detail
