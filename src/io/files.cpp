// Whole-file reading and atomic writing.
#include "cubex/io/files.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "cubex/error.hpp"
#include "cubex/limits.hpp"

namespace cubex {
namespace {

std::string size_text(std::uint64_t bytes) {
  if (bytes >= (std::uint64_t(1) << 30) && bytes % (std::uint64_t(1) << 30) == 0)
    return std::to_string(bytes >> 30) + " GiB";
  if (bytes >= (std::uint64_t(1) << 20) && bytes % (std::uint64_t(1) << 20) == 0)
    return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes) + " bytes";
}

[[noreturn]] void write_error(const std::string& path, int e) {
  throw std::runtime_error("cannot write " + path + ": " + std::strerror(e));
}

// Writes all of `content` to `fd`; returns 0 or the errno of the failure.
int write_all(int fd, std::string_view content) {
  const char* p = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    const ssize_t w = ::write(fd, p, left);
    if (w < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    p += w;
    left -= static_cast<std::size_t>(w);
  }
  return 0;
}

}  // namespace

namespace {

std::string read_whole(const std::string& path, bool text) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw InputError(path, std::string("cannot open file: ") + std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    throw InputError(path, std::string("cannot read file: ") + std::strerror(errno));
  }
  if (S_ISDIR(st.st_mode)) throw InputError(path, "expected a file, found a directory");
  const std::uint64_t max = limits().max_file_bytes;
  auto too_big = [&](const std::string& found) {
    throw InputError(path, "expected a file of at most " + size_text(max) + ", found " + found);
  };
  if (S_ISREG(st.st_mode) && std::uint64_t(st.st_size) > max) {
    too_big(size_text(std::uint64_t(st.st_size)));
  }
  // Read in chunks up to the limit: a pipe or a device has no size to check in advance.
  std::string out;
  if (S_ISREG(st.st_mode)) out.reserve(static_cast<std::size_t>(st.st_size));
  char buf[65536];
  while (true) {
    const ssize_t r = ::read(fd, buf, sizeof buf);
    if (r < 0) {
      if (errno == EINTR) continue;
      throw InputError(path, std::string("cannot read file: ") + std::strerror(errno));
    }
    if (r == 0) break;
    if (out.size() + std::size_t(r) > max) too_big("more");
    const std::size_t before = out.size();
    out.append(buf, static_cast<std::size_t>(r));
    // A text format never holds a NUL byte: stop at the first one (/dev/zero, an image, a
    // compressed file), before reading the rest.
    if (text && std::memchr(buf, 0, static_cast<std::size_t>(r)) != nullptr) {
      const std::size_t at = out.find('\0', before);
      int line = 1, col = 1;
      for (std::size_t i = 0; i < at; ++i) {
        if (out[i] == '\n') {
          ++line;
          col = 1;
        } else {
          ++col;
        }
      }
      throw InputError(path, line, col, "expected text, found a NUL byte (is it a binary file?)");
    }
  }
  return out;
}

// Temporary files of write_file_atomic: ".NAME.cubex-tmp.PID.XXXXXX" beside NAME.
const char kTmpTag[] = ".cubex-tmp.";

// Removes the temporaries for `target` left by cubex processes that no longer run (killed while
// writing: SIGKILL, a power cut). Those of running processes are left alone.
void remove_stale_temporaries(const std::string& dir, const std::string& base) {
  DIR* d = ::opendir(dir.c_str());
  if (!d) return;
  const std::string prefix = "." + base + kTmpTag;
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    char* end = nullptr;
    const long pid = std::strtol(name.c_str() + prefix.size(), &end, 10);
    if (pid <= 0 || !end || *end != '.') continue;
    if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;  // still running
    const std::string path = dir + "/" + name;
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) ::unlink(path.c_str());
  }
  ::closedir(d);
}

}  // namespace

std::string_view unix_newlines(std::string_view text, std::string& storage) {
  if (text.find('\r') == std::string_view::npos) return text;
  storage.clear();
  storage.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\r') {
      storage += text[i];
    } else if (i + 1 >= text.size() || text[i + 1] != '\n') {
      storage += '\n';  // a lone CR ends a line; the CR of a CRLF goes
    }
  }
  return storage;
}

std::string read_file(const std::string& path) {
  return read_whole(path, false);
}

std::string read_text_file(const std::string& path) {
  return read_whole(path, true);
}

void write_file_atomic(const std::string& path, std::string_view content) {
  if (path.empty()) throw std::runtime_error("cannot write to an empty file name");
  // Write through a symbolic link to the file it names, rather than replacing the link.
  std::string target = path;
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
    if (char* real = ::realpath(path.c_str(), nullptr)) {
      target = real;
      std::free(real);
    }
  }
  if (::stat(target.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) write_error(path, EISDIR);
    if (!S_ISREG(st.st_mode)) {
      // A device or a pipe (/dev/stdout, /dev/null, /dev/full, a FIFO): write to it in place. It
      // cannot be replaced by a rename, and it must not be (as root, /dev would get a file).
      const int fd = ::open(target.c_str(), O_WRONLY | O_CLOEXEC);
      if (fd < 0) write_error(path, errno);
      int e = write_all(fd, content);
      if (::close(fd) != 0 && e == 0) e = errno;
      if (e != 0) write_error(path, e);
      return;
    }
  }
  const std::size_t slash = target.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : target.substr(0, slash + (slash == 0));
  const std::string base = slash == std::string::npos ? target : target.substr(slash + 1);
  remove_stale_temporaries(dir, base);
  std::string tmpl = (slash == std::string::npos ? "" : target.substr(0, slash + 1)) + "." + base +
                     kTmpTag + std::to_string(::getpid()) + ".XXXXXX";
  const int fd = ::mkstemp(tmpl.data());
  if (fd < 0) write_error(path, errno);
  ::fchmod(fd, 0644);
  int e = write_all(fd, content);
  if (e == 0 && ::fsync(fd) != 0) e = errno;
  if (::close(fd) != 0 && e == 0) e = errno;
  if (e == 0 && ::rename(tmpl.c_str(), target.c_str()) != 0) e = errno;
  if (e != 0) {
    ::unlink(tmpl.c_str());
    write_error(path, e);
  }
}

AtomicFile::AtomicFile(const std::string& path) : path_(path) {
  if (path.empty()) throw std::runtime_error("cannot write to an empty file name");
  if (path == "-") {
    fd_ = STDOUT_FILENO;
    own_fd_ = false;
    return;
  }
  target_ = path;
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
    if (char* real = ::realpath(path.c_str(), nullptr)) {
      target_ = real;
      std::free(real);
    }
  }
  if (::stat(target_.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) write_error(path, EISDIR);
    if (!S_ISREG(st.st_mode)) {  // a device or a pipe: in place (see write_file_atomic)
      fd_ = ::open(target_.c_str(), O_WRONLY | O_CLOEXEC);
      if (fd_ < 0) write_error(path, errno);
      return;
    }
  }
  temp_ = target_ + ".tmp.XXXXXX";
  fd_ = ::mkstemp(temp_.data());
  if (fd_ < 0) write_error(path, errno);
  ::fchmod(fd_, 0644);
  buf_.reserve(1 << 16);
}

AtomicFile::~AtomicFile() {
  if (committed_) return;
  if (own_fd_ && fd_ >= 0) ::close(fd_);
  if (!temp_.empty()) ::unlink(temp_.c_str());
}

bool AtomicFile::flush() {
  if (error_ == 0) error_ = write_all(fd_, buf_);
  buf_.clear();
  return error_ == 0;
}

bool AtomicFile::write(std::string_view text) {
  if (error_ != 0) return false;
  buf_.append(text);
  if (buf_.size() >= (1 << 16)) return flush();
  return true;
}

void AtomicFile::commit() {
  if (committed_) return;
  int e = flush() ? 0 : error_;
  if (own_fd_) {
    if (e == 0 && !temp_.empty() && ::fsync(fd_) != 0) e = errno;
    if (::close(fd_) != 0 && e == 0) e = errno;
    fd_ = -1;
    if (e == 0 && !temp_.empty() && ::rename(temp_.c_str(), target_.c_str()) != 0) e = errno;
  }
  if (e != 0) {
    if (!temp_.empty()) ::unlink(temp_.c_str());
    committed_ = true;
    error_ = e;
    write_error(path_, e);
  }
  committed_ = true;
}

}  // namespace cubex
