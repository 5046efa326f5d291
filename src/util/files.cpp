// Whole-file reading and atomic writing.
#include "cubex/util/files.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
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

std::string read_whole(const std::string& path, bool text, const Limits& limits) {
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
  const std::uint64_t max = limits.max_file_bytes;
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

// Temporary files of write_file_atomic and AtomicFile: ".NAME.cubex-tmp.PID.XXXXXX" beside NAME.
// A NAME too long for that to fit in a file name (255 bytes) is cut to its first 200 bytes and a
// hash of the whole NAME, so that a long output name never fails for its temporary's sake.
const char kTmpTag[] = ".cubex-tmp.";

std::string temp_prefix(const std::string& base) {
  constexpr std::size_t kRoom = 255 - 1 - (sizeof kTmpTag - 1) - 10 - 1 - 6;  // dot, pid, XXXXXX
  if (base.size() <= kRoom) return "." + base + kTmpTag;
  std::uint64_t h = 1469598103934665603ULL;  // FNV-1a
  for (unsigned char c : base) h = (h ^ c) * 1099511628211ULL;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return "." + base.substr(0, 200) + "~" + hex + kTmpTag;
}

// Removes the temporaries for `base` left by cubex processes that no longer run (killed while
// writing: SIGKILL, a power cut): only regular files named with our prefix, the pid of a process
// that is gone, and no lock held. Those of running processes are left alone.
void remove_stale_temporaries(const std::string& dir, const std::string& base) {
  DIR* d = ::opendir(dir.c_str());
  if (!d) return;
  const std::string prefix = temp_prefix(base);
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    char* end = nullptr;
    const long pid = std::strtol(name.c_str() + prefix.size(), &end, 10);
    if (pid <= 0 || !end || *end != '.' || std::strlen(end) != 7) continue;
    if (pid == ::getpid()) continue;                                          // ours, in use
    if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;  // still running
    // The writer holds an flock on its temporary while it runs: a lock we can take is a writer
    // that is gone (also where the pid could belong to another machine sharing the folder).
    const std::string path = dir + "/" + name;
    const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) continue;
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && ::flock(fd, LOCK_EX | LOCK_NB) == 0)
      ::unlink(path.c_str());
    ::close(fd);
  }
  ::closedir(d);
}

// The folder and the name of `target`, and a fresh temporary beside it (stale ones removed first).
std::string make_temporary(const std::string& target, int& fd) {
  const std::size_t slash = target.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : target.substr(0, slash + (slash == 0));
  const std::string base = slash == std::string::npos ? target : target.substr(slash + 1);
  remove_stale_temporaries(dir, base);
  std::string tmpl = (slash == std::string::npos ? "" : target.substr(0, slash + 1)) +
                     temp_prefix(base) + std::to_string(::getpid()) + ".XXXXXX";
  fd = ::mkstemp(tmpl.data());
  if (fd >= 0) ::flock(fd, LOCK_EX | LOCK_NB);  // held until the file is closed (see above)
  return tmpl;
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

std::string read_file(const std::string& path, const Limits& limits) {
  return read_whole(path, false, limits);
}

std::string read_text_file(const std::string& path, const Limits& limits) {
  return read_whole(path, true, limits);
}

std::string output_path_problem(const std::string& out, const std::vector<std::string>& inputs) {
  if (out == "-") return "";
  if (out.empty()) return "the file name is empty";
  struct stat so {};
  const bool exists = ::stat(out.c_str(), &so) == 0;  // through symbolic links
  for (const std::string& in : inputs) {
    if (in.empty() || in == "-") continue;
    struct stat si {};
    // The same file however it is named: a path written differently ("./a"), a symbolic link,
    // a hard link; for a file that does not exist yet (two outputs of one run), the same path
    // once folders and links are resolved. A device or pipe is written in place, never
    // replaced: the same terminal may be read and written.
    bool same = false;
    if (exists) {
      same = S_ISREG(so.st_mode) && ::stat(in.c_str(), &si) == 0 && si.st_dev == so.st_dev &&
             si.st_ino == so.st_ino;
    } else {
      std::error_code e1, e2;
      const std::filesystem::path a = std::filesystem::weakly_canonical(out, e1),
                                  b = std::filesystem::weakly_canonical(in, e2);
      same = !e1 && !e2 && a == b;
    }
    if (same) {
      std::string how;
      struct stat lo {};
      if (::lstat(out.c_str(), &lo) == 0 && S_ISLNK(lo.st_mode)) {
        how = " (through a symbolic link)";
      } else if (out != in && so.st_nlink > 1) {
        how = " (a hard link to it)";
      }
      return "names the input file " + in + how + ": choose another file to write";  // (see .hpp)
    }
  }
  const std::string cannot = "cannot write " + out + ": ";
  if (exists) {
    if (S_ISDIR(so.st_mode)) return cannot + std::strerror(EISDIR);
    if (!S_ISREG(so.st_mode)) {
      if (::access(out.c_str(), W_OK) != 0) return cannot + std::strerror(errno);
      return "";
    }
  }
  // A regular file (or none yet): the folder it is in must take a new file.
  std::string target = out;
  struct stat lo {};
  if (::lstat(out.c_str(), &lo) == 0 && S_ISLNK(lo.st_mode)) {
    if (char* real = ::realpath(out.c_str(), nullptr)) {
      target = real;
      std::free(real);
    }
  }
  const std::size_t slash = target.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : target.substr(0, slash + (slash == 0));
  struct stat sd {};
  if (::stat(dir.c_str(), &sd) != 0)
    return cannot + std::strerror(errno) + " (the folder " + dir + " does not exist)";
  if (!S_ISDIR(sd.st_mode)) return cannot + std::strerror(ENOTDIR) + " (" + dir + " is a file)";
  if (::access(dir.c_str(), W_OK | X_OK) != 0) {
    return cannot + std::strerror(errno) + " (the folder " + dir + " does not take new files)";
  }
  return "";
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
  int fd = -1;
  const std::string tmpl = make_temporary(target, fd);
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
  temp_ = make_temporary(target_, fd_);
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
