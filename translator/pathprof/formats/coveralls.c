/* pathprof coverage --format coveralls: a Coveralls job (the JSON POSTed to /api/v1/jobs):
   source_files with name, source_digest, coverage and branches, and the job's CI details
   from the environment. */
#include "formats.h"
#include <inttypes.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- MD5 (RFC 1321): Coveralls identifies a file's version by the digest of its text ---- */

typedef struct { uint32_t h[4]; uint64_t len; unsigned char buf[64]; size_t n; } Md5;

static uint32_t rol(uint32_t x, int s) { return (x << s) | (x >> (32 - s)); }

static void md5_block(Md5 *m, const unsigned char *p) {
  static const uint32_t K[64] = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391 };
  static const int S[16] = { 7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21 };
  uint32_t w[16], a = m->h[0], b = m->h[1], c = m->h[2], d = m->h[3];
  for (int i = 0; i < 16; i++)
    w[i] = (uint32_t)p[4 * i] | (uint32_t)p[4 * i + 1] << 8 | (uint32_t)p[4 * i + 2] << 16 | (uint32_t)p[4 * i + 3] << 24;
  for (int i = 0; i < 64; i++) {
    uint32_t f;
    int g, r = i / 16;
    if (r == 0) { f = (b & c) | (~b & d); g = i; }
    else if (r == 1) { f = (d & b) | (~d & c); g = (5 * i + 1) % 16; }
    else if (r == 2) { f = b ^ c ^ d; g = (3 * i + 5) % 16; }
    else { f = c ^ (b | ~d); g = (7 * i) % 16; }
    uint32_t t = d;
    d = c;
    c = b;
    b = b + rol(a + f + K[i] + w[g], S[r * 4 + i % 4]);
    a = t;
  }
  m->h[0] += a; m->h[1] += b; m->h[2] += c; m->h[3] += d;
}

static void md5_init(Md5 *m) {
  memset(m, 0, sizeof *m);
  m->h[0] = 0x67452301; m->h[1] = 0xefcdab89; m->h[2] = 0x98badcfe; m->h[3] = 0x10325476;
}

static void md5_add(Md5 *m, const void *data, size_t n) {
  const unsigned char *p = data;
  m->len += n;
  while (n) {
    size_t k = 64 - m->n < n ? 64 - m->n : n;
    memcpy(m->buf + m->n, p, k);
    m->n += k; p += k; n -= k;
    if (m->n == 64) { md5_block(m, m->buf); m->n = 0; }
  }
}

static void md5_hex(Md5 *m, char out[33]) {
  uint64_t bits = m->len * 8;
  unsigned char pad[72] = { 0x80 }, lenb[8];
  size_t padn = (m->n < 56 ? 56 : 120) - m->n;
  for (int i = 0; i < 8; i++) lenb[i] = (unsigned char)(bits >> (8 * i));
  md5_add(m, pad, padn);
  md5_add(m, lenb, 8);
  for (int i = 0; i < 16; i++) sprintf(out + 2 * i, "%02x", (m->h[i / 4] >> (8 * (i % 4))) & 0xff);
}

/* The digest of the file as it is on disk (Coveralls compares it with the repository's). */
static bool file_digest(const char *path, char out[33]) {
  size_t len;
  char *text = path ? pp_read_file(path, &len) : NULL;
  if (!text) return false;
  Md5 m;
  md5_init(&m);
  md5_add(&m, text, len);
  md5_hex(&m, out);
  free(text);
  return true;
}

/* ---- the job ---- */


/* coverage: one entry per source line, null where there is no code; branches: flat quadruples
   [line, block, branch, hits], a block being one decision as in lcov. */
static json_t *source_file(const PPCovFile *f, const char *digest) {
  json_t *cov = json_array(), *br = json_array();
  unsigned n = f->nsrc;
  for (unsigned ln = 1; ln <= n; ln++)
    json_array_append_new(cov, ln <= f->nlines && pp_line_counted(f, ln) ? pp_json_count(f->lines[ln].count) : json_null());
  unsigned block = 0;
  for (size_t k = 0; k < f->branches.n; k++) {
    const PPCovBranch *b = &f->branches.v[k];
    if (k && b->arm == 0) block++;
    if (b->line > n || b->excluded) continue;
    json_array_append_new(br, json_integer(b->line));
    json_array_append_new(br, json_integer(block));
    json_array_append_new(br, json_integer(b->arm));
    json_array_append_new(br, pp_json_count(b->count));
  }
  return json_pack("{s:s, s:s, s:o, s:o}", "name", pp_report_path(f), "source_digest", digest, "coverage", cov,
                   "branches", br);
}

/* Sets key from the first of the environment variables named (NULL-terminated) that is set. */
static void from_env(json_t *job, const char *key, ...) {
  va_list ap;
  va_start(ap, key);
  for (const char *var; (var = va_arg(ap, const char *));) {
    const char *v = getenv(var);
    if (v && *v) { json_object_set_new(job, key, json_string(v)); break; }
  }
  va_end(ap);
}

/* The job's CI details: COVERALLS_* variables first, else what GitHub Actions and GitLab CI set. */
static void ci_details(json_t *job) {
  const char *service = getenv("COVERALLS_SERVICE_NAME");
  if (!service || !*service) service = getenv("GITHUB_ACTIONS") ? "github" : getenv("GITLAB_CI") ? "gitlab-ci" : NULL;
  if (service) json_object_set_new(job, "service_name", json_string(service));
  from_env(job, "repo_token", "COVERALLS_REPO_TOKEN", (char *)NULL);
  from_env(job, "service_job_id", "COVERALLS_SERVICE_JOB_ID", "CI_JOB_ID", "GITHUB_JOB", (char *)NULL);
  from_env(job, "service_number", "COVERALLS_SERVICE_NUMBER", "CI_PIPELINE_IID", "GITHUB_RUN_ID", (char *)NULL);
  from_env(job, "service_pull_request", "COVERALLS_PULL_REQUEST", "CI_MERGE_REQUEST_IID", (char *)NULL);
  from_env(job, "commit_sha", "COVERALLS_GIT_COMMIT", "CI_COMMIT_SHA", "GITHUB_SHA", (char *)NULL);
  from_env(job, "flag_name", "COVERALLS_FLAG_NAME", (char *)NULL);
  const char *par = getenv("COVERALLS_PARALLEL");
  if (par && *par && strcmp(par, "0") && strcmp(par, "false")) json_object_set_new(job, "parallel", json_true());
  const char *sde = getenv("SOURCE_DATE_EPOCH");
  time_t t = sde && *sde ? (time_t)atoll(sde) : time(NULL);
  struct tm tm;
  char when[40];
  gmtime_r(&t, &tm);
  strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S +0000", &tm);
  json_object_set_new(job, "run_at", json_string(when));
}

void pp_format_coveralls(FILE *o, const PPCoverage *c, const char *profile) {
  json_t *job = json_object(), *files = json_array();
  size_t missing = 0;
  ci_details(job);
  for (size_t i = 0; i < c->files.n; i++) {
    const PPCovFile *f = &c->files.v[i];
    char digest[33];
    if (!f->src || !file_digest(f->path, digest)) { missing++; continue; }
    json_array_append_new(files, source_file(f, digest));
  }
  json_object_set_new(job, "source_files", files);
  json_dumpf(job, o, JSON_COMPACT | JSON_PRESERVE_ORDER);
  fputc('\n', o);
  json_decref(job);
  if (missing)
    fprintf(stderr, "pathprof coverage: %s: %zu source files were not found and are left out (Coveralls needs each "
                    "file's digest)\n", profile, missing);
}
