// Whole-file reading and atomic writing.
#include "cubex/io/files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include "cubex/error.hpp"

namespace cubex {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, std::string("cannot open file: ") + std::strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw InputError(path, "cannot read file");
  return ss.str();
}

void write_file_atomic(const std::string& path, std::string_view content) {
  std::string tmpl = path + ".tmp.XXXXXX";
  int fd = ::mkstemp(tmpl.data());
  if (fd < 0) {
    throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
  }
  ::fchmod(fd, 0644);
  const char* p = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    ssize_t w = ::write(fd, p, left);
    if (w < 0) {
      if (errno == EINTR) continue;
      int e = errno;
      ::close(fd);
      ::unlink(tmpl.c_str());
      throw std::runtime_error("cannot write " + path + ": " + std::strerror(e));
    }
    p += w;
    left -= static_cast<std::size_t>(w);
  }
  bool ok = ::fsync(fd) == 0;
  int e = errno;
  if (::close(fd) != 0 && ok) {
    ok = false;
    e = errno;
  }
  if (!ok) {
    ::unlink(tmpl.c_str());
    throw std::runtime_error("cannot write " + path + ": " + std::strerror(e));
  }
  if (::rename(tmpl.c_str(), path.c_str()) != 0) {
    int e = errno;
    ::unlink(tmpl.c_str());
    throw std::runtime_error("cannot write " + path + ": " + std::strerror(e));
  }
}

}  // namespace cubex
