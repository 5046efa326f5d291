// cubex/util/files.hpp - reading whole files and writing them atomically.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "cubex/limits.hpp"

namespace cubex {

// Reads a whole file (or a pipe, to its end); throws InputError("cannot open ...") when it
// cannot, and when it holds more than limits.max_file_bytes (cubex/limits.hpp).
std::string read_file(const std::string& path, const Limits& limits = {});
// read_file for the text formats: also throws InputError ("FILE:LINE:COL: expected text, found a
// NUL byte") at the first NUL byte, as soon as the block holding it is read.
std::string read_text_file(const std::string& path, const Limits& limits = {});

// The text formats accept LF, CRLF and CR-only (old Mac) line endings alike: returns `text` when
// it holds no CR, else a copy in `storage` with each CRLF and each lone CR turned into LF.
std::string_view unix_newlines(std::string_view text, std::string& storage);

// Why a command that reads `inputs` may not write `out`, found before any work is done; "" when
// it may. Refused: `out` is one of the inputs (a regular file with the same device and inode:
// the same path however written, a symbolic link to it, or a hard link; a file that does not
// exist yet: the same path once resolved, as two outputs of one run), a folder, or a file in a
// folder that does not exist or that cannot be written to (the temporary file and the rename need
// the folder), or a device or pipe that cannot be opened for writing. "-" (standard output) is
// always accepted. The reason reads "names the input file IN: ..." (for the caller to prefix with
// the flag and `out`) or "cannot write OUT: <strerror> (...)".
std::string output_path_problem(const std::string& out, const std::vector<std::string>& inputs);

// Writes `content` to `path` through a temporary file in the same folder that is renamed into
// place, so `path` is either untouched or complete. The temporary is ".NAME.cubex-tmp.PID.XXXXXX"
// (PID: this process, which holds an flock on it while it writes); one left by a process that no
// longer runs (killed by SIGKILL while writing) is removed by the next write to the same NAME
// (by write_file_atomic or AtomicFile). A NAME too long for the suffix is shortened in the
// temporary's name (its first 200 bytes and a hash). A symbolic link is written through (the
// file it names is replaced); a device or pipe (/dev/stdout, /dev/full, a FIFO) is written
// directly. Throws std::runtime_error with the reason ("cannot write PATH: No space left on
// device").
void write_file_atomic(const std::string& path, std::string_view content);

// The same, written piece by piece (a long stream of solutions): open() picks the target as
// write_file_atomic does (a temporary file beside it, or a device or pipe written in place; "-"
// is standard output), write() buffers, commit() flushes and renames into place. Destroyed
// without commit(), it removes the temporary file: `path` keeps its old content. write() and
// commit() throw std::runtime_error like write_file_atomic; ok() is false after a failed write
// (on standard output: the reader went away), and `error()` its errno.
class AtomicFile {
 public:
  explicit AtomicFile(const std::string& path);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  // Appends to the buffer, writing it out when it is full. Returns false (and drops the data)
  // once a write failed.
  bool write(std::string_view text);
  // Flushes, and for a regular file syncs and renames it into place. Throws on failure.
  void commit();
  bool ok() const { return error_ == 0; }
  int error() const { return error_; }
  const std::string& path() const { return path_; }

 private:
  bool flush();

  std::string path_, target_, temp_;  // temp_ empty: written in place
  int fd_ = -1;
  bool own_fd_ = true, committed_ = false;
  int error_ = 0;
  std::string buf_;
};

}  // namespace cubex
