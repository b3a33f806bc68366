// Times ada (github.com/ada-url/ada) on the job of
// uri.BenchmarkParseResolveOneBase (issue 18): parse each reference of
// a file against one base, and take the result's href. The file is
// uri/testdata/resolve-refs.txt: the base on its first line, then one
// reference per line (an empty line is the empty reference).
//
// Usage: driver FILE [SECONDS]. Prints one line in the format of a Go
// benchmark, with ns/op (wall) and cpu-ns/op (process CPU time), so that
// scripts/bench-ada.sh reads it with the Go lines.
//
// With --parse NAME FILE [SECONDS] it times instead the job of
// whatwg.BenchmarkParse (issue 21): parse each line of a corpus file with
// no base and take the href, the lines read as testshared.ReadLines reads
// them (a leading byte order mark dropped, so are a final "\r" and empty
// lines). The line is named BenchmarkParse/NAME/ada for
// scripts/bench-ada-parse.sh.
#include <ctime>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "ada.h"

static double now(clockid_t c) {
  timespec ts;
  clock_gettime(c, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

// parse_corpus times ada::parse with no base over the lines of path.
static int parse_corpus(const char* name, const char* path, double seconds) {
  std::ifstream in(path, std::ios::binary);
  std::string line;
  std::vector<std::string> lines;
  for (bool first = true; std::getline(in, line); first = false) {
    if (first && line.compare(0, 3, "\xEF\xBB\xBF") == 0) line.erase(0, 3);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty()) lines.push_back(line);
  }
  if (lines.empty()) {
    std::fprintf(stderr, "no lines in %s\n", path);
    return 2;
  }
  size_t sink = 0, n = 0, j = 0;
  double w0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID);
  for (;;) {
    for (int k = 0; k < 10000; k++) {
      auto u = ada::parse<ada::url_aggregator>(lines[j]);
      if (u) sink += u->get_href().size();
      if (++j == lines.size()) j = 0;
    }
    n += 10000;
    if (now(CLOCK_PROCESS_CPUTIME_ID) - c0 >= seconds * 1e9) break;
  }
  double w = now(CLOCK_MONOTONIC) - w0, c = now(CLOCK_PROCESS_CPUTIME_ID) - c0;
  std::printf("BenchmarkParse/%s/ada \t%zu\t%.1f ns/op\t%.2f cpu-ns/op\t(%zu bytes)\n", name, n, w / n, c / n, sink);
  return 0;
}

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "--parse") {
    if (argc < 4) {
      std::fprintf(stderr, "usage: %s --parse NAME FILE [SECONDS]\n", argv[0]);
      return 2;
    }
    return parse_corpus(argv[2], argv[3], argc > 4 ? std::stod(argv[4]) : 1.0);
  }
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE [SECONDS]\n", argv[0]);
    return 2;
  }
  double seconds = argc > 2 ? std::stod(argv[2]) : 1.0;
  std::ifstream in(argv[1]);
  std::string line, base_text;
  std::vector<std::string> refs;
  if (!std::getline(in, base_text)) return 2;
  while (std::getline(in, line)) refs.push_back(line);
  auto base = ada::parse<ada::url_aggregator>(base_text);
  if (!base) {
    std::fprintf(stderr, "ada rejects the base %s\n", base_text.c_str());
    return 1;
  }
  size_t sink = 0, n = 0, j = 0;
  double w0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID);
  for (;;) {
    for (int k = 0; k < 10000; k++) {
      auto u = ada::parse<ada::url_aggregator>(refs[j], &*base);
      if (u) sink += u->get_href().size();
      if (++j == refs.size()) j = 0;
    }
    n += 10000;
    if (now(CLOCK_PROCESS_CPUTIME_ID) - c0 >= seconds * 1e9) break;
  }
  double w = now(CLOCK_MONOTONIC) - w0, c = now(CLOCK_PROCESS_CPUTIME_ID) - c0;
  std::printf("BenchmarkParseResolveOneBase/ada \t%zu\t%.1f ns/op\t%.2f cpu-ns/op\t(%zu bytes)\n", n, w / n, c / n, sink);
  return 0;
}
