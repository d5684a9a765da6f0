/*
 * floor: the least CPU a client can spend per oltp_point_select transaction.
 *
 * A measurement tool for tests/perf/floor.sh, not part of bench. It does what sysbench
 * 1.0.20's oltp_point_select asks of the server, and nothing else:
 *   - CONNS TCP connections, logged in as a user without a password, each with
 *     `SELECT c FROM sbtestN WHERE id=?` prepared for every table (as sysbench does);
 *   - per transaction: a table drawn uniformly from 1..TABLES and an id from sysbench's
 *     default --rand-type=special over 1..TABLE_SIZE (the same xoroshiro128+, the same
 *     double arithmetic: shared/spec/sysbench.md 1.4), then one COM_STMT_EXECUTE with the
 *     id as a BIGINT (types sent on a statement's first execute only, as libmariadb does)
 *     and its binary result set read to its end;
 *   - the same capabilities as libmariadb where they change what the server sends
 *     (MARIADB_CLIENT_CACHE_METADATA, no CLIENT_DEPRECATE_EOF), so the server sends the
 *     same 150 bytes per statement as to sysbench (floor.sh checks it with the server's
 *     counters).
 * All connections are driven by one thread, with one of two I/O styles:
 *   epoll  edge-triggered epoll; per statement one send() and one recv() (until EAGAIN)
 *   uring  io_uring: a multishot recv per connection into a ring of provided buffers,
 *          every send of a loop turn queued and submitted with the wait in one
 *          io_uring_enter (SINGLE_ISSUER | DEFER_TASKRUN where the kernel has them)
 * It checks every server byte it relies on (the handshake fields it reads, packet
 * lengths and sequence numbers, each packet of a result set, exactly one row) and stops
 * with exit 1 and a one-line reason on anything else: an ERR packet, an auth switch, a
 * short or long packet, bytes after a response, a connection closed, no progress for
 * 10 s. Every blocking wait has a deadline (socket timeouts while logging in).
 *
 * Output (stdout), in sysbench's words so that the scripts that parse sysbench read it:
 *     transactions:                        N (R per sec.)
 * Build: gcc -O2 -std=c11 -o floor tests/perf/floor.c  (Linux UAPI headers >= 6.0)
 * With -q SQL it is mysqlslap's --query floor instead: per transaction one COM_QUERY of SQL
 * (a SELECT of one column and one row, checked as above: column count, definition, EOF, one
 * text row of at most FL_PKT_MAX bytes, EOF), nothing prepared; failures name "query".
 * With -e N the run ends after N / CONNS transactions on each connection (mysqlslap's
 * share of --number-of-queries, the remainder dropped), or at -t if that comes first.
 * Limitations: TCP only, no TLS, no password, MariaDB (CACHE_METADATA is asked for only
 * where the server offers it); CONNS <= 256.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <linux/io_uring.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;

#define FL_MAX_CONNS 256
#define FL_MAX_TABLES 64
#define FL_PKT_MAX 1024          /* the longest packet a result set may have here */
#define FL_IN_CAP 4096           /* per-connection bytes not yet parsed */
#define FL_STALL_NS 10000000000LL /* no response for this long: the run fails */
#define FL_IO_TIMEOUT_S 10       /* socket timeouts while logging in and preparing */
#define FL_SQL_MAX 120           /* -q: the longest statement */

/* capability flags (protocol.md; MySQL's CLIENT_*, MariaDB's extended ones) */
#define FL_CAP_MYSQL 0x1u
#define FL_CAP_CONNECT_WITH_DB 0x8u
#define FL_CAP_PROTOCOL_41 0x200u
#define FL_CAP_TRANSACTIONS 0x2000u
#define FL_CAP_SECURE_CONNECTION 0x8000u
#define FL_XCAP_CACHE_METADATA 0x10u  /* MARIADB_CLIENT_CACHE_METADATA (extended bit 4) */
#define FL_STATUS_MORE_RESULTS 0x0008u

enum fl_mode { FL_EPOLL, FL_URING };

/* where a connection is in the response to its COM_STMT_EXECUTE */
enum fl_rstate {
    FL_R_COUNT,  /* the column count (and, with CACHE_METADATA, metadata-follows) */
    FL_R_COLDEF, /* a column definition (metadata sent again) */
    FL_R_EOF1,   /* the EOF after the columns */
    FL_R_ROWS,   /* binary rows until the closing EOF */
};

struct fl_conn {
    int fd;
    u32 stmt[FL_MAX_TABLES + 1]; /* statement id per table (1-based) */
    bool typed[FL_MAX_TABLES + 1]; /* the parameter types were sent for this statement */
    u8 req[2][FL_SQL_MAX + 8];   /* two request buffers: io_uring may hold the last send */
    int req_cur;                 /* which of req the last request went out from */
    int sends_in_flight;         /* io_uring sends not yet completed */
    u8 in[FL_IN_CAP];            /* response bytes received and not yet parsed */
    size_t in_len;
    enum fl_rstate rstate;
    u8 seq;                      /* sequence number the next packet must carry */
    int cols_left;               /* column definitions still to come */
    int rows;                    /* rows of this response */
    u64 done;                    /* transactions completed */
    u64 limit;                   /* -e: this connection's share (0: no limit) */
    int64_t last_ns;             /* when the last request went out */
};

/* what the run needs; filled from the command line */
struct fl_opts {
    const char *host, *port, *user, *db;
    int conns, tables;
    u32 table_size;
    double secs;
    enum fl_mode mode;
    u64 seed;
    bool no_meta_cache; /* -M: do not ask for CACHE_METADATA (for tests of that path) */
    const char *sql;    /* -q: COM_QUERY of this instead of the prepared point select */
    u64 events;         /* -e: transactions in all (0: until -t) */
};

static struct fl_conn *fl_conns;
static struct fl_opts fl_o;
static bool fl_meta_cache; /* CACHE_METADATA was negotiated (the same on every connection) */
static int fl_left;        /* connections that have not reached their -e share */
#define FL_WHAT (fl_o.sql ? "query" : "execute") /* what a failure line names */

/* fl_fail - the one-line reason, then exit 1: a measurement that went wrong is no result */
__attribute__((noreturn, format(printf, 1, 2))) static void fl_fail(const char *fmt, ...)
{
    va_list ap;
    fflush(stdout); /* what was said before comes first */
    fputs("floor: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(1);
}

static int64_t fl_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static u32 fl_le16(const u8 *p)
{
    return (u32)p[0] | (u32)p[1] << 8;
}

static u32 fl_le24(const u8 *p)
{
    return (u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16;
}

static u32 fl_le32(const u8 *p)
{
    return fl_le24(p) | (u32)p[3] << 24;
}

static void fl_put32(u8 *p, u32 v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (u8)(v >> (8 * i));
}

/*-- sysbench's random numbers (sb_rand.c 1.0.20; bench.c section 6 rnd_) -------------*/

static u64 fl_rnd_s[2];

static u64 fl_rnd_next(void)
{
    u64 s0 = fl_rnd_s[0], s1 = fl_rnd_s[1], res = s0 + s1;
    s1 ^= s0;
    fl_rnd_s[0] = ((s0 << 55) | (s0 >> 9)) ^ s1 ^ (s1 << 14);
    fl_rnd_s[1] = (s1 << 36) | (s1 >> 28);
    return res;
}

/* a uniform double in [0, 1) from the top 52 bits, as sysbench makes it */
static double fl_rnd_double(void)
{
    union {
        u64 u;
        double d;
    } x = {.u = (0x3ffull << 52) | (fl_rnd_next() >> 12)};
    return x.d - 1.0;
}

static void fl_rnd_seed(u64 seed)
{
    /* splitmix64 spreads any seed over both words (sysbench seeds from random()) */
    for (int i = 0; i < 2; i++) {
        u64 z = (seed += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        fl_rnd_s[i] = z ^ (z >> 31);
    }
    if (!fl_rnd_s[0] && !fl_rnd_s[1])
        fl_rnd_s[0] = 1;
}

/* sysbench.rand.uniform(a, b): the table of an event */
static u32 fl_rnd_uniform(u32 a, u32 b)
{
    return (u32)((double)a + fl_rnd_double() * (double)(u32)(b - a + 1));
}

/*
 * sysbench.rand.default(a, b) with --rand-type=special and its defaults (iter 12, pct 1,
 * res 75): 25% of draws the mean of 12 uniforms over the range, 75% a hot window about 1%
 * of the range wide near its middle. The same operations in the same order as sb_rand.c.
 */
static u32 fl_rnd_special(u32 a, u32 b)
{
    const int iter = 12, pct = 1, res = 75;
    double t = (double)(u32)(b - a), sum = 0;
    double res_mult = 100.0 / (100.0 - res), iter_mult = 1.0 / iter;
    double pct_mult = pct / 100.0, pct2_mult = pct / 200.0;
    double u = fl_rnd_double();
    if (u * (t * res_mult) < t) {
        for (int i = 0; i < iter; i++)
            sum += fl_rnd_double();
        return (u32)((double)a + sum * t * iter_mult);
    }
    double d = t * pct_mult, r = u * (d + 1);
    r += t / 2 - t * pct2_mult;
    return a + (u32)r;
}

/*-- blocking packets, for the login and the prepares --------------------------------*/

/* fl_read_full - LEN bytes or a failure naming WHAT (the socket timeout bounds the wait) */
static void fl_read_full(int fd, u8 *buf, size_t len, const char *what)
{
    size_t got = 0;
    while (got < len) {
        ssize_t k = recv(fd, buf + got, len - got, 0);
        if (k == 0)
            fl_fail("%s: the server closed the connection", what);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            fl_fail("%s: recv: %s", what, errno == EAGAIN ? "no answer in 10 s" : strerror(errno));
        }
        got += (size_t)k;
    }
}

/* fl_read_packet - one packet's payload into BUF (at most CAP bytes); its length */
static size_t fl_read_packet(int fd, u8 *seq, u8 *buf, size_t cap, const char *what)
{
    u8 h[4];
    fl_read_full(fd, h, 4, what);
    size_t len = fl_le24(h);
    if (h[3] != *seq)
        fl_fail("%s: packet sequence %u, expected %u", what, h[3], *seq);
    if (len > cap)
        fl_fail("%s: a packet of %zu bytes, more than the %zu expected", what, len, cap);
    fl_read_full(fd, buf, len, what);
    *seq = (u8)(*seq + 1);
    return len;
}

static void fl_write_packet(int fd, u8 seq, const u8 *payload, size_t len, const char *what)
{
    u8 b[512];
    if (len > sizeof b - 4)
        fl_fail("%s: request of %zu bytes too long", what, len);
    b[0] = (u8)len;
    b[1] = (u8)(len >> 8);
    b[2] = (u8)(len >> 16);
    b[3] = seq;
    memcpy(b + 4, payload, len);
    size_t off = 0;
    while (off < len + 4) {
        ssize_t k = send(fd, b + off, len + 4 - off, MSG_NOSIGNAL);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            fl_fail("%s: send: %s", what, k < 0 ? strerror(errno) : "nothing sent");
        off += (size_t)k;
    }
}

/* fl_check_err - fails with the server's words if P is an ERR packet */
static void fl_check_err(const u8 *p, size_t len, const char *what)
{
    if (len == 0)
        fl_fail("%s: an empty packet", what);
    if (p[0] != 0xff)
        return;
    if (len >= 9 && p[3] == '#')
        fl_fail("%s: ERROR %u (%.5s): %.*s", what, fl_le16(p + 1), (const char *)p + 4,
                (int)(len - 9), (const char *)p + 9);
    fl_fail("%s: ERROR %u", what, len >= 3 ? fl_le16(p + 1) : 0);
}

/* fl_check_eof - P must be an EOF packet (0xfe, warnings, status) with no warnings */
static void fl_check_eof(const u8 *p, size_t len, const char *what)
{
    fl_check_err(p, len, what);
    if (len != 5 || p[0] != 0xfe)
        fl_fail("%s: expected an EOF packet, got %zu bytes starting 0x%02x", what, len, p[0]);
    if (fl_le16(p + 1) != 0)
        fl_fail("%s: %u warning(s)", what, fl_le16(p + 1));
    if (fl_le16(p + 3) & FL_STATUS_MORE_RESULTS)
        fl_fail("%s: the server says more results follow", what);
}

/*-- login and prepare ---------------------------------------------------------------*/

static int fl_connect(void)
{
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *ai;
    int rc = getaddrinfo(fl_o.host, fl_o.port, &hints, &ai);
    if (rc)
        fl_fail("connect %s:%s: %s", fl_o.host, fl_o.port, gai_strerror(rc));
    int fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        fl_fail("socket: %s", strerror(errno));
    struct timeval tv = {.tv_sec = FL_IO_TIMEOUT_S};
    int one = 1;
    if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) ||
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv) ||
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one))
        fl_fail("setsockopt: %s", strerror(errno));
    /* SO_SNDTIMEO bounds connect() too */
    if (connect(fd, ai->ai_addr, ai->ai_addrlen))
        fl_fail("connect %s:%s: %s", fl_o.host, fl_o.port, strerror(errno));
    freeaddrinfo(ai);
    return fd;
}

/*
 * fl_login - the handshake as a user without a password. Reads from the server's
 * Handshake v10 only what it needs: protocol 10, CLIENT_PROTOCOL_41, and MariaDB's
 * extended capabilities (in the 4 reserved bytes at offset 14 after the scramble's
 * first part, when CLIENT_MYSQL is off). Sends an empty auth response for
 * mysql_native_password (the server's default for a user IDENTIFIED BY '').
 */
static void fl_login(int fd)
{
    u8 p[FL_PKT_MAX], seq = 0;
    size_t len = fl_read_packet(fd, &seq, p, sizeof p, "login");
    fl_check_err(p, len, "login");
    if (p[0] != 10)
        fl_fail("login: handshake protocol %u, expected 10", p[0]);
    u8 *ver_end = memchr(p + 1, 0, len - 1);
    /* after the version: id 4, scramble 8, filler 1, caps 2, charset 1, status 2,
     * caps 2, scramble length 1, reserved 6, MariaDB extended caps 4 */
    size_t off = ver_end ? (size_t)(ver_end - p) + 1 : len;
    if (off + 4 + 8 + 1 + 2 + 1 + 2 + 2 + 1 + 6 + 4 > len)
        fl_fail("login: handshake of %zu bytes too short", len);
    const u8 *q = p + off + 4 + 8 + 1;
    u32 caps = fl_le16(q) | fl_le16(q + 5) << 16;
    u32 xcaps = fl_le32(q + 2 + 1 + 2 + 2 + 1 + 6);
    if (!(caps & FL_CAP_PROTOCOL_41) || !(caps & FL_CAP_SECURE_CONNECTION))
        fl_fail("login: server capabilities 0x%08x lack PROTOCOL_41/SECURE_CONNECTION", caps);
    bool meta =
        !fl_o.no_meta_cache && !(caps & FL_CAP_MYSQL) && (xcaps & FL_XCAP_CACHE_METADATA);
    if (fl_conns[0].fd != fd && meta != fl_meta_cache)
        fl_fail("login: the server's capabilities changed between connections");
    fl_meta_cache = meta;

    /* HandshakeResponse41: caps, max packet, charset 45 (utf8mb4_general_ci, as
     * libmariadb), 19 zero bytes, extended caps, user, empty auth response, database */
    u8 r[256] = {0};
    u32 mine = FL_CAP_PROTOCOL_41 | FL_CAP_SECURE_CONNECTION | FL_CAP_TRANSACTIONS |
               FL_CAP_CONNECT_WITH_DB;
    size_t ulen = strlen(fl_o.user), dlen = strlen(fl_o.db);
    if (ulen > 64 || dlen > 64)
        fl_fail("login: user or database name too long");
    fl_put32(r, mine);
    fl_put32(r + 4, 1u << 24);
    r[8] = 45;
    fl_put32(r + 28, meta ? FL_XCAP_CACHE_METADATA : 0);
    size_t n = 32;
    memcpy(r + n, fl_o.user, ulen + 1);
    n += ulen + 1;
    r[n++] = 0; /* auth response length: no password */
    memcpy(r + n, fl_o.db, dlen + 1);
    n += dlen + 1;
    fl_write_packet(fd, seq++, r, n, "login");
    len = fl_read_packet(fd, &seq, p, sizeof p, "login");
    fl_check_err(p, len, "login");
    if (p[0] == 0xfe)
        fl_fail("login: the server asks for another auth method (%.*s); the floor logs in only "
                "as a user IDENTIFIED BY ''", (int)strnlen((const char *)p + 1, len - 1),
                (const char *)p + 1);
    if (p[0] != 0)
        fl_fail("login: expected OK, got a packet starting 0x%02x", p[0]);
}

/* fl_prepare - sysbench's point select on sbtestT; the statement id */
static u32 fl_prepare(int fd, int table)
{
    u8 q[128], p[FL_PKT_MAX], seq = 0;
    int qlen = snprintf((char *)q, sizeof q, "%cSELECT c FROM sbtest%d WHERE id=?", 0x16, table);
    fl_write_packet(fd, seq++, q, (size_t)qlen, "prepare");
    /* COM_STMT_PREPARE_OK: 0, id 4, columns 2, params 2, filler 1, warnings 2 */
    size_t len = fl_read_packet(fd, &seq, p, sizeof p, "prepare");
    fl_check_err(p, len, "prepare");
    if (len < 12 || p[0] != 0)
        fl_fail("prepare sbtest%d: expected PREPARE_OK, got %zu bytes starting 0x%02x", table,
                len, p[0]);
    u32 id = fl_le32(p + 1), cols = fl_le16(p + 5), params = fl_le16(p + 7);
    if (cols != 1 || params != 1)
        fl_fail("prepare sbtest%d: %u column(s), %u parameter(s); expected 1 and 1", table, cols,
                params);
    /* the parameter's definition, EOF, the column's definition, EOF */
    for (int i = 0; i < 4; i++) {
        len = fl_read_packet(fd, &seq, p, sizeof p, "prepare");
        if (i % 2)
            fl_check_eof(p, len, "prepare");
        else {
            fl_check_err(p, len, "prepare");
            if (p[0] == 0xfe || len < 4 || memcmp(p, "\x03" "def", 4))
                fl_fail("prepare sbtest%d: expected a definition (catalog 'def')", table);
        }
    }
    return id;
}

/*-- the transaction: request and response -------------------------------------------*/

/*
 * fl_request - the next transaction's COM_STMT_EXECUTE into C's free request buffer:
 * 0x17, statement id, no cursor, iteration count 1, null bitmap 0, new-params-bound (1 with
 * the type BIGINT on a statement's first execute, then 0), the id as 8 bytes. Returns the
 * buffer and its length in *LEN.
 */
static const u8 *fl_request(struct fl_conn *c, size_t *len)
{
    c->req_cur ^= 1;
    u8 *r = c->req[c->req_cur], *p = r + 4;
    size_t n = 0;
    if (fl_o.sql) { /* -q: COM_QUERY, the statement's text */
        p[n++] = 0x03;
        memcpy(p + n, fl_o.sql, strlen(fl_o.sql));
        n += strlen(fl_o.sql);
        goto framed;
    }
    u32 table = fl_rnd_uniform(1, (u32)fl_o.tables);
    u32 id = fl_rnd_special(1, fl_o.table_size);
    p[n++] = 0x17;
    fl_put32(p + n, c->stmt[table]);
    n += 4;
    p[n++] = 0;
    fl_put32(p + n, 1);
    n += 4;
    p[n++] = 0;
    if (!c->typed[table]) {
        p[n++] = 1;
        p[n++] = 0x08; /* MYSQL_TYPE_LONGLONG */
        p[n++] = 0x00; /* signed */
        c->typed[table] = true;
    } else
        p[n++] = 0;
    fl_put32(p + n, id);
    fl_put32(p + n + 4, 0);
    n += 8;
framed:
    r[0] = (u8)n;
    r[1] = 0;
    r[2] = 0;
    r[3] = 0;
    c->rstate = FL_R_COUNT;
    c->seq = 1;
    c->rows = 0;
    c->in_len = 0;
    c->last_ns = fl_now_ns();
    *len = n + 4;
    return r;
}

/*
 * fl_packet - one whole packet of the response; true when it was the last. The binary
 * result set of one column: the column count (with CACHE_METADATA a second byte, whether
 * the column definition follows), the definition when it does, EOF, rows (0x00, null
 * bitmap, the length-prefixed value), EOF. Exactly one row: the ids exist.
 */
static bool fl_packet(struct fl_conn *c, const u8 *p, size_t len)
{
    fl_check_err(p, len, "execute");
    switch (c->rstate) {
    case FL_R_COUNT:
        /* (text results too: MariaDB adds the metadata flag wherever CACHE_METADATA is on) */
        if (len != (fl_meta_cache ? 2u : 1u) || p[0] != 1 || (fl_meta_cache && p[1] > 1))
            fl_fail("%s: expected a column count of 1, got %zu bytes starting 0x%02x", FL_WHAT, len,
                    p[0]);
        c->cols_left = !fl_meta_cache || p[1] ? 1 : 0;
        c->rstate = c->cols_left ? FL_R_COLDEF : FL_R_EOF1;
        return false;
    case FL_R_COLDEF:
        if (len < 4 || memcmp(p, "\x03" "def", 4))
            fl_fail("%s: expected a column definition (catalog 'def')", FL_WHAT);
        c->rstate = FL_R_EOF1;
        return false;
    case FL_R_EOF1:
        fl_check_eof(p, len, "execute");
        c->rstate = FL_R_ROWS;
        return false;
    case FL_R_ROWS:
        if (p[0] == 0xfe) {
            fl_check_eof(p, len, "execute");
            if (c->rows != 1)
                fl_fail(fl_o.sql ? "%s: %d rows, expected 1 (-q: a statement of one row)"
                                 : "%s: %d rows, expected 1 (ids 1..%u must exist in every table)",
                        FL_WHAT, c->rows, fl_o.table_size);
            return true;
        }
        if (fl_o.sql) { /* a text row: NULL (0xfb), or a length-encoded value, all of it */
            size_t vl = p[0] < 251 ? 1u + p[0] : p[0] == 0xfc && len >= 3 ? 3u + fl_le16(p + 1)
                      : p[0] == 0xfd && len >= 4 ? 4u + fl_le24(p + 1) : 0;
            if (!(len == 1 && p[0] == 0xfb) && vl != len)
                fl_fail("query: a malformed row of %zu bytes", len);
            c->rows++;
            return false;
        }
        /* 0x00, null bitmap (offset 2: bit 2 is the column) 0, value length < 251 */
        if (len < 3 || p[0] != 0 || p[1] != 0 || p[2] >= 251 || len != 3u + p[2])
            fl_fail("%s: a malformed row of %zu bytes", FL_WHAT, len);
        c->rows++;
        return false;
    }
    fl_fail("%s: bad state", FL_WHAT);
}

/*
 * fl_feed - bytes of C's response as they came; true when the response ended (then
 * nothing may follow it). Packets may arrive split: what is not whole waits in c->in.
 */
static bool fl_feed(struct fl_conn *c, const u8 *buf, size_t len)
{
    if (len > sizeof c->in - c->in_len)
        fl_fail("%s: a response of more than %zu bytes", FL_WHAT, sizeof c->in);
    memcpy(c->in + c->in_len, buf, len);
    c->in_len += len;
    size_t off = 0;
    bool end = false;
    while (c->in_len - off >= 4) {
        if (end)
            fl_fail("%s: %zu byte(s) after the end of the response", FL_WHAT, c->in_len - off);
        const u8 *h = c->in + off;
        size_t plen = fl_le24(h);
        if (plen > FL_PKT_MAX)
            fl_fail("%s: a packet of %zu bytes, more than %d", FL_WHAT, plen, FL_PKT_MAX);
        if (h[3] != c->seq)
            fl_fail("%s: packet sequence %u, expected %u", FL_WHAT, h[3], c->seq);
        if (c->in_len - off < 4 + plen)
            break;
        c->seq = (u8)(c->seq + 1);
        end = fl_packet(c, h + 4, plen);
        off += 4 + plen;
    }
    if (end && off != c->in_len)
        fl_fail("%s: %zu byte(s) after the end of the response", FL_WHAT, c->in_len - off);
    memmove(c->in, c->in + off, c->in_len - off);
    c->in_len -= off;
    return end;
}

/* fl_check_stall - fails when a connection has waited FL_STALL_NS for its response
 * (called about once a second) */
static void fl_check_stall(int64_t now)
{
    for (int i = 0; i < fl_o.conns; i++)
        if ((!fl_conns[i].limit || fl_conns[i].done < fl_conns[i].limit) && now - fl_conns[i].last_ns > FL_STALL_NS)
            fl_fail("connection %d: no response for %lld s", i, FL_STALL_NS / 1000000000LL);
}

/*-- epoll ---------------------------------------------------------------------------*/

static void fl_send_now(struct fl_conn *c)
{
    size_t len;
    const u8 *r = fl_request(c, &len);
    ssize_t k = send(c->fd, r, len, MSG_DONTWAIT | MSG_NOSIGNAL);
    if (k != (ssize_t)len) /* 30 bytes into an empty socket buffer: all or an error */
        fl_fail("send: %s", k < 0 ? strerror(errno) : "short send");
}

static void fl_run_epoll(int64_t end_ns)
{
    int ep = epoll_create1(EPOLL_CLOEXEC);
    if (ep < 0)
        fl_fail("epoll_create1: %s", strerror(errno));
    for (int i = 0; i < fl_o.conns; i++) {
        struct epoll_event ev = {.events = EPOLLIN | EPOLLET | EPOLLRDHUP, .data.u32 = (u32)i};
        if (epoll_ctl(ep, EPOLL_CTL_ADD, fl_conns[i].fd, &ev))
            fl_fail("epoll_ctl: %s", strerror(errno));
        fl_send_now(&fl_conns[i]);
    }
    u8 buf[16384];
    struct epoll_event evs[FL_MAX_CONNS];
    int64_t now, check_ns = 0;
    while ((now = fl_now_ns()) < end_ns && fl_left > 0) {
        if (now >= check_ns) {
            fl_check_stall(now);
            check_ns = now + 1000000000LL;
        }
        int n = epoll_wait(ep, evs, FL_MAX_CONNS, 100);
        if (n < 0 && errno != EINTR)
            fl_fail("epoll_wait: %s", strerror(errno));
        for (int k = 0; k < n; k++) {
            struct fl_conn *c = &fl_conns[evs[k].data.u32];
            /* edge-triggered: read until EAGAIN or the end of the response */
            for (;;) {
                ssize_t r = recv(c->fd, buf, sizeof buf, MSG_DONTWAIT);
                if (r < 0 && (errno == EAGAIN || errno == EINTR))
                    break;
                if (r <= 0)
                    fl_fail("recv: %s",
                            r < 0 ? strerror(errno) : "the server closed the connection");
                if (fl_feed(c, buf, (size_t)r)) {
                    if (++c->done < c->limit || !c->limit)
                        fl_send_now(c);
                    else
                        fl_left--;
                    break;
                }
            }
        }
    }
    close(ep);
}

/*-- io_uring ------------------------------------------------------------------------*/

#define FL_SQ_ENTRIES 1024u
#define FL_NBUF 1024u  /* provided buffers (a power of 2) */
#define FL_BUF_LEN 2048u

/* the ring, mapped; one per process */
static struct {
    int fd;
    struct io_uring_sqe *sqes;
    u32 *sq_head, *sq_tail, *sq_array, sq_mask, sq_entries, sq_local; /* local: our tail */
    u32 *cq_head, *cq_tail, cq_mask;
    struct io_uring_cqe *cqes;
    struct io_uring_buf_ring *br; /* provided buffers, group 0 */
    u8 *bufs;
    u32 br_tail;
} fl_ring;

static struct io_uring_sqe *fl_sqe(void)
{
    u32 head = __atomic_load_n(fl_ring.sq_head, __ATOMIC_ACQUIRE);
    if (fl_ring.sq_local - head >= fl_ring.sq_entries)
        fl_fail("io_uring: submission queue full");
    u32 i = fl_ring.sq_local++ & fl_ring.sq_mask;
    struct io_uring_sqe *s = &fl_ring.sqes[i];
    memset(s, 0, sizeof *s);
    fl_ring.sq_array[i] = i;
    return s;
}

static void fl_buf_give(u32 bid)
{
    struct io_uring_buf *b = &fl_ring.br->bufs[fl_ring.br_tail & (FL_NBUF - 1)];
    b->addr = (u64)(uintptr_t)(fl_ring.bufs + (size_t)bid * FL_BUF_LEN);
    b->len = FL_BUF_LEN;
    b->bid = (u16)bid;
    fl_ring.br_tail++;
}

/* user_data: connection index << 1, low bit 1 for a send */
static void fl_arm_recv(int i)
{
    struct io_uring_sqe *s = fl_sqe();
    s->opcode = IORING_OP_RECV;
    s->fd = fl_conns[i].fd;
    s->ioprio = IORING_RECV_MULTISHOT;
    s->flags = IOSQE_BUFFER_SELECT;
    s->buf_group = 0;
    s->user_data = (u64)i << 1;
}

static void fl_queue_send(int i)
{
    struct fl_conn *c = &fl_conns[i];
    if (c->sends_in_flight > 1) /* the buffer we would reuse may still be read */
        fl_fail("io_uring: a send still pending two requests later");
    size_t len;
    const u8 *r = fl_request(c, &len);
    struct io_uring_sqe *s = fl_sqe();
    s->opcode = IORING_OP_SEND;
    s->fd = c->fd;
    s->addr = (u64)(uintptr_t)r;
    s->len = (u32)len;
    s->msg_flags = MSG_NOSIGNAL | MSG_WAITALL;
    s->user_data = (u64)i << 1 | 1;
    c->sends_in_flight++;
}

static void *fl_map(size_t len, u64 off)
{
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fl_ring.fd,
                   (off_t)off);
    if (p == MAP_FAILED)
        fl_fail("io_uring: mmap: %s", strerror(errno));
    return p;
}

/* fl_ring_setup - the ring and the provided buffers; the setup flags it got, for the log */
static const char *fl_ring_setup(void)
{
    struct io_uring_params p = {0};
    const char *how = "SINGLE_ISSUER|DEFER_TASKRUN";
    p.flags = IORING_SETUP_CQSIZE | IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
    p.cq_entries = 4 * FL_SQ_ENTRIES;
    long fd = syscall(__NR_io_uring_setup, FL_SQ_ENTRIES, &p);
    if (fd < 0 && errno == EINVAL) { /* before Linux 6.1 */
        memset(&p, 0, sizeof p);
        p.flags = IORING_SETUP_CQSIZE | IORING_SETUP_COOP_TASKRUN;
        p.cq_entries = 4 * FL_SQ_ENTRIES;
        how = "COOP_TASKRUN";
        fd = syscall(__NR_io_uring_setup, FL_SQ_ENTRIES, &p);
    }
    if (fd < 0)
        fl_fail("io_uring_setup: %s", strerror(errno));
    if (!(p.features & IORING_FEAT_EXT_ARG))
        fl_fail("io_uring: the kernel lacks IORING_FEAT_EXT_ARG (Linux 5.11)");
    fl_ring.fd = (int)fd;
    u8 *sq = fl_map(p.sq_off.array + p.sq_entries * sizeof(u32), IORING_OFF_SQ_RING);
    u8 *cq = fl_map(p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe),
                    IORING_OFF_CQ_RING);
    fl_ring.sqes = fl_map(p.sq_entries * sizeof(struct io_uring_sqe), IORING_OFF_SQES);
    fl_ring.sq_head = (u32 *)(void *)(sq + p.sq_off.head);
    fl_ring.sq_tail = (u32 *)(void *)(sq + p.sq_off.tail);
    fl_ring.sq_array = (u32 *)(void *)(sq + p.sq_off.array);
    fl_ring.sq_mask = *(u32 *)(void *)(sq + p.sq_off.ring_mask);
    fl_ring.sq_entries = p.sq_entries;
    fl_ring.sq_local = *fl_ring.sq_tail;
    fl_ring.cq_head = (u32 *)(void *)(cq + p.cq_off.head);
    fl_ring.cq_tail = (u32 *)(void *)(cq + p.cq_off.tail);
    fl_ring.cq_mask = *(u32 *)(void *)(cq + p.cq_off.ring_mask);
    fl_ring.cqes = (struct io_uring_cqe *)(void *)(cq + p.cq_off.cqes);

    fl_ring.br = mmap(NULL, FL_NBUF * sizeof(struct io_uring_buf), PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    fl_ring.bufs = malloc((size_t)FL_NBUF * FL_BUF_LEN);
    if (fl_ring.br == MAP_FAILED || !fl_ring.bufs)
        fl_fail("io_uring: out of memory for the buffers");
    struct io_uring_buf_reg reg = {
        .ring_addr = (u64)(uintptr_t)fl_ring.br, .ring_entries = FL_NBUF, .bgid = 0};
    if (syscall(__NR_io_uring_register, fl_ring.fd, IORING_REGISTER_PBUF_RING, &reg, 1))
        fl_fail("io_uring: register the buffer ring: %s (Linux 5.19)", strerror(errno));
    for (u32 b = 0; b < FL_NBUF; b++)
        fl_buf_give(b);
    __atomic_store_n(&fl_ring.br->tail, (u16)fl_ring.br_tail, __ATOMIC_RELEASE);
    return how;
}

/* fl_cqe - one completion: a send's (checked, nothing to do) or a recv's bytes */
static void fl_cqe(const struct io_uring_cqe *e)
{
    int i = (int)(e->user_data >> 1);
    if (i < 0 || i >= fl_o.conns)
        fl_fail("io_uring: a completion for no connection");
    struct fl_conn *c = &fl_conns[i];
    if (e->user_data & 1) {
        c->sends_in_flight--;
        if (e->res < 0)
            fl_fail("send: %s", strerror(-e->res));
        return;
    }
    if (e->res == -ENOBUFS) { /* the buffers ran out: the multishot recv ended; again */
        fl_arm_recv(i);
        return;
    }
    if (e->res <= 0)
        fl_fail("recv: %s", e->res < 0 ? strerror(-e->res) : "the server closed the connection");
    if (!(e->flags & IORING_CQE_F_BUFFER))
        fl_fail("io_uring: a recv completion without a buffer");
    u32 bid = e->flags >> IORING_CQE_BUFFER_SHIFT;
    if (bid >= FL_NBUF || (u32)e->res > FL_BUF_LEN)
        fl_fail("io_uring: buffer %u, %d bytes: out of range", bid, e->res);
    if (fl_feed(c, fl_ring.bufs + (size_t)bid * FL_BUF_LEN, (size_t)e->res)) {
        if (++c->done < c->limit || !c->limit)
            fl_queue_send(i);
        else
            fl_left--;
    }
    fl_buf_give(bid);
    if (!(e->flags & IORING_CQE_F_MORE))
        fl_arm_recv(i);
}

static void fl_run_uring(int64_t end_ns)
{
    printf("io_uring setup: %s\n", fl_ring_setup());
    for (int i = 0; i < fl_o.conns; i++) {
        fl_arm_recv(i);
        fl_queue_send(i);
    }
    int64_t now, check_ns = 0;
    u32 submitted = *fl_ring.sq_tail;
    while ((now = fl_now_ns()) < end_ns && fl_left > 0) {
        if (now >= check_ns) {
            fl_check_stall(now);
            check_ns = now + 1000000000LL;
        }
        u32 n = fl_ring.sq_local - submitted;
        __atomic_store_n(fl_ring.sq_tail, fl_ring.sq_local, __ATOMIC_RELEASE);
        struct __kernel_timespec ts = {.tv_nsec = 100000000};
        struct io_uring_getevents_arg ga = {.ts = (u64)(uintptr_t)&ts};
        long r = syscall(__NR_io_uring_enter, fl_ring.fd, n, 1,
                         IORING_ENTER_GETEVENTS | IORING_ENTER_EXT_ARG, &ga, sizeof ga);
        if (r < 0 && errno != ETIME && errno != EINTR && errno != EBUSY)
            fl_fail("io_uring_enter: %s", strerror(errno));
        if (r >= 0 && (u32)r != n)
            fl_fail("io_uring_enter: %ld of %u submitted", r, n);
        if (r >= 0)
            submitted = fl_ring.sq_local;
        u32 head = *fl_ring.cq_head, tail = __atomic_load_n(fl_ring.cq_tail, __ATOMIC_ACQUIRE);
        for (; head != tail; head++)
            fl_cqe(&fl_ring.cqes[head & fl_ring.cq_mask]);
        __atomic_store_n(fl_ring.cq_head, head, __ATOMIC_RELEASE);
        __atomic_store_n(&fl_ring.br->tail, (u16)fl_ring.br_tail, __ATOMIC_RELEASE);
    }
}

/*-- main ----------------------------------------------------------------------------*/

static long fl_num(const char *s, long lo, long hi, const char *what)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        fl_fail("%s: '%s' is not a number in %ld..%ld", what, s, lo, hi);
    return v;
}

static void fl_usage(void)
{
    fputs("usage: floor -P PORT -u USER -D DB -c CONNS -t SECS -m epoll|uring\n"
          "             [-h HOST] [-n TABLES] [-s TABLE_SIZE] [-r SEED] [-M] [-q SQL] [-e N]\n"
          "  -q SQL: COM_QUERY of SQL (one column, one row) instead of the point select\n"
          "  -e N: end after N / CONNS transactions on each connection (or at -t)\n"
          "  defaults: -h 127.0.0.1 -n 4 -s 100000, the seed from the clock\n"
          "  -M: do not ask for MariaDB's metadata cache (a column definition per result)\n",
          stderr);
    exit(2);
}

static void fl_args(int argc, char **argv)
{
    fl_o = (struct fl_opts){.host = "127.0.0.1", .tables = 4, .table_size = 100000,
                            .conns = 0, .secs = 0, .mode = FL_EPOLL};
    fl_o.seed = (u64)fl_now_ns() ^ (u64)getpid() << 32;
    const char *mode = NULL;
    int opt;
    while ((opt = getopt(argc, argv, "h:P:u:D:c:t:m:n:s:r:Mq:e:")) != -1) {
        switch (opt) {
        case 'h': fl_o.host = optarg; break;
        case 'P': fl_o.port = optarg; break;
        case 'u': fl_o.user = optarg; break;
        case 'D': fl_o.db = optarg; break;
        case 'c': fl_o.conns = (int)fl_num(optarg, 1, FL_MAX_CONNS, "-c"); break;
        case 't': fl_o.secs = (double)fl_num(optarg, 1, 3600, "-t"); break;
        case 'm': mode = optarg; break;
        case 'n': fl_o.tables = (int)fl_num(optarg, 1, FL_MAX_TABLES, "-n"); break;
        case 's': fl_o.table_size = (u32)fl_num(optarg, 1, 1000000000, "-s"); break;
        case 'r': fl_o.seed = (u64)fl_num(optarg, 0, 0x7fffffffL, "-r"); break;
        case 'M': fl_o.no_meta_cache = true; break;
        case 'q': fl_o.sql = optarg; break;
        case 'e': fl_o.events = (u64)fl_num(optarg, 1, 1000000000, "-e"); break;
        default: fl_usage();
        }
    }
    if (optind != argc || !fl_o.port || !fl_o.user || !fl_o.db || !fl_o.conns || fl_o.secs <= 0 ||
        !mode)
        fl_usage();
    if (fl_o.sql && (!*fl_o.sql || strlen(fl_o.sql) > FL_SQL_MAX))
        fl_fail("-q: a statement of 1..%d bytes", FL_SQL_MAX);
    if (!strcmp(mode, "epoll"))
        fl_o.mode = FL_EPOLL;
    else if (!strcmp(mode, "uring"))
        fl_o.mode = FL_URING;
    else
        fl_usage();
}

int main(int argc, char **argv)
{
    fl_args(argc, argv);
    fl_rnd_seed(fl_o.seed);
    fl_conns = calloc((size_t)fl_o.conns, sizeof *fl_conns);
    if (!fl_conns)
        fl_fail("out of memory");
    for (int i = 0; i < fl_o.conns; i++) {
        struct fl_conn *c = &fl_conns[i];
        c->fd = fl_connect();
        fl_login(c->fd);
        for (int t = 1; !fl_o.sql && t <= fl_o.tables; t++)
            c->stmt[t] = fl_prepare(c->fd, t);
        c->limit = fl_o.events / (u64)fl_o.conns; /* mysqlslap's division */
    }
    fl_left = fl_o.conns;
    for (int i = 0; i < fl_o.conns; i++)
        if (fl_o.events && !fl_conns[i].limit) /* fewer events than connections */
            fl_fail("-e %llu: fewer transactions than connections (-c %d)",
                    (unsigned long long)fl_o.events, fl_o.conns);
    printf("floor: %d connection(s) to %s:%s as %s, %s, metadata cache %s\n", fl_o.conns,
           fl_o.host, fl_o.port, fl_o.user, fl_o.mode == FL_EPOLL ? "epoll" : "io_uring",
           fl_meta_cache ? "on" : "off");
    int64_t t0 = fl_now_ns(), end = t0 + (int64_t)(fl_o.secs * 1e9);
    if (fl_o.mode == FL_EPOLL)
        fl_run_epoll(end);
    else
        fl_run_uring(end);
    double el = (double)(fl_now_ns() - t0) / 1e9;
    u64 total = 0;
    for (int i = 0; i < fl_o.conns; i++)
        total += fl_conns[i].done;
    printf("    transactions:                        %llu (%.2f per sec.)\n",
           (unsigned long long)total, (double)total / el);
    if (fl_o.events && fl_left > 0) /* -t came first: no measurement of -e transactions */
        fl_fail("-e %llu: %llu transactions done in -t %.0f s",
                (unsigned long long)fl_o.events, (unsigned long long)total, fl_o.secs);
    return 0;
}
