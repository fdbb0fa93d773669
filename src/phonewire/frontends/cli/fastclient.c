/* phonewire's native thin client: the warm path of `phonewire VERB ...` without a Python interpreter start.
 *
 * It speaks the daemon wire of phonewire/frontends/cli/client.py (see its module docstring) for one case only: a
 * daemon of this very version serves a private daemon directory, and the invocation is one the Python client
 * would ship to it unchanged.  Everything else -- no daemon, a refused connection, any daemon code (version
 * mismatch, auth, protocol), verbs the Python client handles itself (help, --version, bridge, mcp, webdriver,
 * runner, daemon ..., trace view/export, batch from stdin), a directory or socket that is not private to this
 * user, an unusual locale, any doubt -- execs the Python client with the same argv, which then behaves exactly as
 * it always does (it starts or replaces the daemon, reports refusals).  Nothing has been sent or written by then,
 * except a request the daemon refused without running it.
 *
 * Once a request has been sent, the answer is this process's: when it is lost (the daemon died mid-request) the
 * command may have run, so it is not repeated; the Python module phonewire.frontends.cli.fastclient reports the
 * loss exactly as the Python client would (`lost` subcommand).
 *
 * Built by phonewire.frontends.cli.fastclient with PW_VERSION / PW_PROTOCOL (phonewire's __version__ and
 * PROTOCOL_VERSION: a stale binary is a version mismatch to the daemon), PW_PYTHON (the interpreter) and
 * PW_FALLBACK (the Python console script, or "" for `PW_PYTHON -P -m phonewire`).  C99 + POSIX + Linux's
 * SO_PEERCRED; libc only.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#if !defined(PW_VERSION) || !defined(PW_PROTOCOL) || !defined(PW_PYTHON) || !defined(PW_FALLBACK)
#error "build with python -m phonewire.frontends.cli.fastclient build (it defines PW_VERSION and friends)"
#endif

#define MAX_TOKEN 512
#define OUTPUT_FAILED_HINT                                                                                     \
    "The command ran, but its answer was lost: stdout was closed or full. Check with `phonewire snapshot` before " \
    "repeating it."
#define INTERRUPTED_HINT                                                                                       \
    "The daemon may still run the command or have run it: check with `phonewire snapshot` before repeating it."
#define OUT_FIRST_BYTES 8192 /* Python's stdout buffer: a longer stdout is written before stderr */

static const char *const FORWARDED_ENV[] = {"PHONEWIRE_DEVICE", "PHONEWIRE_RUNNER_ADDR", "PHONEWIRE_RUNNER_TOKEN",
                                            "PHONEWIRE_SESSION"};
static const char *const VALUE_OPTIONS[] = {"--device", "--session", "--runner", "--trace"};
/* verbs the Python client runs itself, or that need more than one plain request */
static const char *const LOCAL_VERBS[] = {"bridge", "webdriver", "mcp", "help", "runner", "daemon", "version"};

#define DEFAULT_TIMEOUT_S 150.0 /* client.py's DEFAULT_TIMEOUT_S */

static int g_argc;
static char **g_argv;
static long g_daemon_pid;
static volatile sig_atomic_t g_interrupted;

static void on_sigint(int sig) {
    (void)sig;
    g_interrupted = 1;
}

/* Ctrl-C after the request was sent: main.py's report_interrupted, word for word (a test compares them). */
static void interrupted(void) __attribute__((noreturn));
static void interrupted(void) {
    static const char text[] = "error INTERRUPTED: interrupted before the answer came\nhint: " INTERRUPTED_HINT "\n";
    ssize_t ignored = write(2, text, sizeof text - 1);
    (void)ignored;
    _exit(130);
}

/* -- growable buffer ------------------------------------------------------------------------------------------ */
typedef struct {
    char *data;
    size_t len, cap;
} buf_t;

static int buf_add(buf_t *b, const void *p, size_t n) {
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 1024;
        while (cap < b->len + n + 1) cap *= 2;
        char *d = realloc(b->data, cap);
        if (d == NULL) return -1;
        b->data = d;
        b->cap = cap;
    }
    memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = '\0';
    return 0;
}

static int buf_field(buf_t *b, const char *s, int nul_after) {
    if (buf_add(b, s, strlen(s)) != 0) return -1;
    return nul_after ? buf_add(b, "", 1) : 0;
}

/* -- leaving ---------------------------------------------------------------------------------------------------- */
static void exec_python(char **args, int nargs) {
    char **av = malloc(((size_t)nargs + 5) * sizeof *av);
    if (av == NULL) return;
    int k = 0;
    av[k++] = (char *)PW_PYTHON;
    av[k++] = (char *)"-P"; /* no cwd on sys.path: a ./phonewire directory must not shadow the package */
    av[k++] = (char *)"-m";
    for (int i = 0; i < nargs; i++) av[k++] = args[i];
    av[k] = NULL;
    execv(PW_PYTHON, av);
    free(av);
}

/* The Python client, same argv: it decides everything this client does not. */
static void fallback(void) __attribute__((noreturn));
static void fallback(void) {
    if (PW_FALLBACK[0] != '\0') {
        g_argv[0] = (char *)PW_FALLBACK;
        execv(PW_FALLBACK, g_argv);
    }
    g_argv[0] = (char *)"phonewire";
    exec_python(g_argv, g_argc);
    fprintf(stderr,
            "error DAEMON_UNAVAILABLE: cannot run the Python client %s: %s\n"
            "hint: Reinstall phonewire (scripts/setup.sh), or set PHONEWIRE_NO_FAST_CLIENT=1 when running it.\n",
            PW_FALLBACK[0] ? PW_FALLBACK : PW_PYTHON, strerror(errno));
    _exit(4);
}

/* The request was sent and no usable answer came: the daemon may have run it.  Python reports it (one place for
 * the message and its hint); strerror_text is "" when the daemon closed the connection without a reply. */
static void lost(const char *dir, const char *strerror_text) __attribute__((noreturn));
static void lost(const char *dir, const char *strerror_text) {
    char **args = malloc(((size_t)g_argc + 6) * sizeof *args);
    if (args != NULL) {
        int k = 0;
        args[k++] = (char *)"phonewire.frontends.cli.fastclient";
        args[k++] = (char *)"lost";
        args[k++] = (char *)dir;
        args[k++] = (char *)strerror_text;
        args[k++] = (char *)"--";
        for (int i = 1; i < g_argc; i++) args[k++] = g_argv[i];
        exec_python(args, k);
    }
    fprintf(stderr, "error DAEMON_UNAVAILABLE: lost the connection to the daemon\n"
                    "hint: The command may have run before the answer was lost: check with `phonewire snapshot` "
                    "before repeating it.\n");
    _exit(4);
}

/* No answer within the deadline: Python reports it (client.timed_out: whether the command may have run). */
static void timed_out(double seconds) __attribute__((noreturn));
static void timed_out(double seconds) {
    char secs[32], pid[32];
    snprintf(secs, sizeof secs, "%g", seconds);
    snprintf(pid, sizeof pid, "%ld", g_daemon_pid);
    char **args = malloc(((size_t)g_argc + 6) * sizeof *args);
    if (args != NULL) {
        int k = 0;
        args[k++] = (char *)"phonewire.frontends.cli.fastclient";
        args[k++] = (char *)"timedout";
        args[k++] = secs;
        args[k++] = pid;
        args[k++] = (char *)"--";
        for (int i = 1; i < g_argc; i++) args[k++] = g_argv[i];
        exec_python(args, k);
    }
    fprintf(stderr, "error DAEMON_TIMED_OUT: no answer from the daemon within %s s (PHONEWIRE_TIMEOUT)\n"
                    "hint: It may have run if the daemon had started it in time; it will not start from now on. "
                    "Check with `phonewire snapshot` before repeating it.\n", secs);
    _exit(4);
}

/* client.client_timeout: PHONEWIRE_TIMEOUT seconds (0: none, returned as 0), else the default times the scale. */
static double client_timeout(void) {
    const char *given = getenv("PHONEWIRE_TIMEOUT");
    const char *scale_text = getenv("PHONEWIRE_TIME_SCALE");
    char *end;
    if (given != NULL && *given != '\0') {
        double v = strtod(given, &end);
        if (*end == '\0' && v == v && v >= 0 && v < 1e9) return v;
    }
    double scale = 1.0;
    if (scale_text != NULL && *scale_text != '\0') {
        double v = strtod(scale_text, &end);
        if (*end == '\0' && v > 0 && v < 1e6) scale = v;
    }
    return DEFAULT_TIMEOUT_S * scale;
}

static double now_s(int clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* -- what the Python client would do with this argv ------------------------------------------------------------ */
static int in_list(const char *word, const char *const *list, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (strcmp(word, list[i]) == 0) return 1;
    return 0;
}

/* Python's word.lstrip("-").replace(".", "", 1).isdigit(); -1 when the word is not ASCII (isdigit knows more
 * digits than 0-9: leave it to Python). */
static int numeric_word(const char *w) {
    int dot = 0, digits = 0;
    while (*w == '-') w++;
    for (; *w; w++) {
        unsigned char c = (unsigned char)*w;
        if (c >= 0x80) return -1;
        if (c == '.' && !dot) {
            dot = 1;
        } else if (c >= '0' && c <= '9') {
            digits++;
        } else {
            return 0;
        }
    }
    return digits > 0;
}

static int contains_ci(const char *s, const char *needle) {
    size_t n = strlen(needle);
    for (; *s; s++)
        if (strncasecmp(s, needle, n) == 0) return 1;
    return 0;
}

/* Python's stdout/stderr would be UTF-8 (a UTF-8 locale, or C/POSIX, which Python coerces to UTF-8). */
static int utf8_locale(void) {
    const char *names[] = {"LC_ALL", "LC_CTYPE", "LANG"};
    const char *v = NULL;
    for (size_t i = 0; i < 3 && (v == NULL || *v == '\0'); i++) v = getenv(names[i]);
    if (v == NULL || *v == '\0' || strcmp(v, "C") == 0 || strcmp(v, "POSIX") == 0) return 1;
    return contains_ci(v, "utf-8") || contains_ci(v, "utf8");
}

/* 1 when the invocation is a plain request the Python client would send as it is (no stdin). */
static int plain_request(int argc, char **argv) {
    const char *nofast = getenv("PHONEWIRE_NO_FAST_CLIENT");
    if (nofast != NULL && *nofast != '\0' && strcmp(nofast, "0") != 0) return 0;
    if (getenv("PYTHONIOENCODING") != NULL || !utf8_locale()) return 0;
    if (fcntl(1, F_GETFD) == -1 || fcntl(2, F_GETFD) == -1) return 0; /* Python has no sys.stdout then */
    if (argc < 2 || strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) return 0;
    int verb = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) return 0;
        if (verb) continue;
        if (in_list(argv[i], VALUE_OPTIONS, sizeof VALUE_OPTIONS / sizeof *VALUE_OPTIONS)) {
            i++;
            continue;
        }
        if (argv[i][0] == '-') {
            int numeric = numeric_word(argv[i]);
            if (numeric < 0) return 0;
            if (!numeric) continue;
        }
        verb = i;
    }
    if (!verb || in_list(argv[verb], LOCAL_VERBS, sizeof LOCAL_VERBS / sizeof *LOCAL_VERBS)) return 0;
    if (strcmp(argv[verb], "trace") == 0 && verb + 1 < argc &&
        (strcmp(argv[verb + 1], "view") == 0 || strcmp(argv[verb + 1], "export") == 0))
        return 0;
    if (strcmp(argv[verb], "batch") == 0) { /* the first word not starting with "--" is the file; none or "-": stdin */
        for (int i = verb + 1; i < argc; i++)
            if (strncmp(argv[i], "--", 2) != 0) return strcmp(argv[i], "-") != 0;
        return 0;
    }
    return 1;
}

/* -- the daemon directory (phonewire.runtime.user_runtime_dir, client.daemon_dir) ------------------------------ */
static int join(char *out, size_t n, const char *a, const char *b) {
    size_t la = strlen(a);
    int w = snprintf(out, n, "%s%s%s", a, (la && a[la - 1] == '/') ? "" : "/", b);
    return (w < 0 || (size_t)w >= n) ? -1 : 0;
}

static int private_to_me(const struct stat *st, mode_t type) {
    return (st->st_mode & S_IFMT) == type && st->st_uid == getuid() && (st->st_mode & 077) == 0;
}

static int find_daemon_dir(char *out, size_t n) {
    struct stat st;
    const char *dir = getenv("PHONEWIRE_DAEMON_DIR");
    if (dir != NULL && *dir != '\0') {
        if (strlen(dir) >= n) return -1;
        strcpy(out, dir);
    } else {
        const char *xdg = getenv("XDG_RUNTIME_DIR");
        char shared[64];
        snprintf(shared, sizeof shared, "/tmp/phonewire-%lu", (unsigned long)getuid());
        if (xdg != NULL && *xdg != '\0' && stat(xdg, &st) == 0 && S_ISDIR(st.st_mode)) {
            if (join(out, n, xdg, "phonewire") != 0) return -1;
        } else if (lstat(shared, &st) != 0 && errno == ENOENT) {
            return -1; /* not created yet: no daemon; Python creates it */
        } else if (errno = 0, lstat(shared, &st) == 0 && private_to_me(&st, S_IFDIR)) {
            strcpy(out, shared);
        } else {
            const char *home = getenv("HOME");
            char cache[PATH_MAX];
            if (home == NULL || *home == '\0' || join(cache, sizeof cache, home, ".cache/phonewire/runtime") != 0)
                return -1;
            if (strlen(cache) >= n) return -1;
            strcpy(out, cache);
        }
    }
    /* client.ensure_private_dir: a plain directory of this user's that nobody else can enter */
    return (lstat(out, &st) == 0 && private_to_me(&st, S_IFDIR)) ? 0 : -1;
}

static int read_token(const char *dir, char *token, size_t n) {
    char path[PATH_MAX];
    struct stat st;
    if (join(path, sizeof path, dir, "token") != 0) return -1;
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t got = -1;
    if (fstat(fd, &st) == 0 && private_to_me(&st, S_IFREG)) got = read(fd, token, n - 1);
    close(fd);
    if (got <= 0) return -1;
    size_t start = 0, end = (size_t)got;
    while (start < end && strchr(" \t\n\r\v\f", token[start]) != NULL) start++;
    while (end > start && strchr(" \t\n\r\v\f", token[end - 1]) != NULL) end--;
    if (end == start || end - start > MAX_TOKEN) return -1;
    for (size_t i = start; i < end; i++)
        if (token[i] < '!' || token[i] > '~') return -1;
    memmove(token, token + start, end - start);
    token[end - start] = '\0';
    return 0;
}

static int connect_daemon(const char *dir) {
    struct sockaddr_un addr;
    struct stat st;
    memset(&addr, 0, sizeof addr);
    addr.sun_family = AF_UNIX;
    if (join(addr.sun_path, sizeof addr.sun_path, dir, "daemon.sock") != 0) return -1;
    /* never hand the token to a socket someone else put there, or that someone else listens on (its mode does not
     * matter: nobody else can enter the directory) */
    if (lstat(addr.sun_path, &st) != 0 || !S_ISSOCK(st.st_mode) || st.st_uid != getuid()) return -1;
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    struct ucred cred;
    socklen_t len = sizeof cred;
    if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0 ||
        getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0 || cred.uid != getuid()) {
        close(fd);
        return -1;
    }
    g_daemon_pid = (long)cred.pid;
    return fd;
}

/* -- the reply -------------------------------------------------------------------------------------------------- */
/* Python's int() of a wire field, for the fields the daemon writes: optional sign, ASCII digits, surrounding
 * whitespace; -1 when it is not one. */
static int parse_int(const char *s, size_t n, long *value) {
    char tmp[32];
    if (n == 0 || n >= sizeof tmp) return -1;
    memcpy(tmp, s, n);
    tmp[n] = '\0';
    char *end;
    errno = 0;
    long v = strtol(tmp, &end, 10);
    if (errno != 0 || end == tmp) return -1; /* no digits (a field of blanks only is no number to Python either) */
    while (*end != '\0' && strchr(" \t\n\r\v\f", *end) != NULL) end++; /* strtol skipped the same ones before */
    if (*end != '\0' || strchr(tmp, '_') != NULL) return -1;
    *value = v;
    return 0;
}

/* The next NUL-terminated field of data[*pos..len) (Python's bytes.partition(b"\0")). */
static const char *next_field(const char *data, size_t len, size_t *pos, size_t *flen) {
    const char *start = data + *pos;
    const char *nul = memchr(start, '\0', len - *pos);
    *flen = nul ? (size_t)(nul - start) : len - *pos;
    *pos = nul ? *pos + *flen + 1 : len;
    return start;
}

/* bytes.decode("utf-8", "replace") re-encoded: each maximal invalid subpart becomes U+FFFD, like CPython. */
static int utf8_replace(const unsigned char *s, size_t n, buf_t *out) {
    size_t i = 0;
    while (i < n) {
        unsigned char c = s[i];
        size_t need = 0;
        unsigned char lo = 0x80, hi = 0xBF;
        if (c < 0x80) {
            need = 0;
        } else if (c >= 0xC2 && c <= 0xDF) {
            need = 1;
        } else if (c >= 0xE0 && c <= 0xEF) {
            need = 2;
            if (c == 0xE0) lo = 0xA0;
            if (c == 0xED) hi = 0x9F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            need = 3;
            if (c == 0xF0) lo = 0x90;
            if (c == 0xF4) hi = 0x8F;
        } else {
            if (buf_add(out, "\xEF\xBF\xBD", 3) != 0) return -1;
            i++;
            continue;
        }
        size_t ok = 0;
        while (ok < need && i + 1 + ok < n) {
            unsigned char d = s[i + 1 + ok];
            unsigned char l = ok == 0 ? lo : 0x80, h = ok == 0 ? hi : 0xBF;
            if (d < l || d > h) break;
            ok++;
        }
        if (ok == need) {
            if (buf_add(out, s + i, need + 1) != 0) return -1;
        } else if (buf_add(out, "\xEF\xBF\xBD", 3) != 0) {
            return -1;
        }
        i += ok + 1;
    }
    return 0;
}

/* main.py's _write: nothing for empty text, else the text with a final newline. */
static int text_for(const char *s, size_t n, buf_t *out) {
    if (n == 0) return 0;
    if (utf8_replace((const unsigned char *)s, n, out) != 0) return -1;
    return out->data[out->len - 1] == '\n' ? 0 : buf_add(out, "\n", 1);
}

static int write_all(int fd, const char *s, size_t n) {
    while (n > 0) {
        ssize_t w = write(fd, s, n);
        if (w < 0 && errno == EINTR) continue;
        if (w == 0) errno = EIO;
        if (w <= 0) return -1;
        s += w;
        n -= (size_t)w;
    }
    return 0;
}

int main(int argc, char **argv) {
    g_argc = argc;
    g_argv = argv;
    signal(SIGPIPE, SIG_IGN); /* as in Python: a closed pipe is an error to handle, not a signal */
    if (!plain_request(argc, argv)) fallback();

    char dir[PATH_MAX], token[MAX_TOKEN + 2];
    if (find_daemon_dir(dir, sizeof dir) != 0) fallback();
    int fd = connect_daemon(dir);
    if (fd < 0) fallback();
    if (read_token(dir, token, sizeof token) != 0) fallback();

    char cwd[PATH_MAX];
    if (getcwd(cwd, sizeof cwd) == NULL) fallback();
    buf_t req = {0};
    char num[32];
    int nenv = 0;
    for (size_t i = 0; i < sizeof FORWARDED_ENV / sizeof *FORWARDED_ENV; i++) nenv += getenv(FORWARDED_ENV[i]) != NULL;
    double wait_s = client_timeout(), until = now_s(CLOCK_MONOTONIC) + wait_s;
    char deadline[64];
    snprintf(deadline, sizeof deadline, "%.3f", now_s(CLOCK_REALTIME) + wait_s);
    nenv += wait_s > 0;
    int bad = buf_field(&req, "pw2", 1) | buf_field(&req, PW_VERSION, 1) | buf_field(&req, PW_PROTOCOL, 1) |
              buf_field(&req, token, 1) | buf_field(&req, cwd, 1);
    snprintf(num, sizeof num, "%d", nenv);
    bad |= buf_field(&req, num, 1);
    for (size_t i = 0; i < sizeof FORWARDED_ENV / sizeof *FORWARDED_ENV; i++) {
        const char *value = getenv(FORWARDED_ENV[i]);
        if (value == NULL) continue;
        bad |= buf_field(&req, FORWARDED_ENV[i], 0) | buf_field(&req, "=", 0) | buf_field(&req, value, 1);
    }
    if (wait_s > 0) bad |= buf_field(&req, "PHONEWIRE_CLIENT_DEADLINE=", 0) | buf_field(&req, deadline, 1);
    snprintf(num, sizeof num, "%d", argc - 1);
    bad |= buf_field(&req, num, 1);
    for (int i = 1; i < argc; i++) bad |= buf_field(&req, argv[i], 1);
    bad |= buf_field(&req, "0", 0);
    if (bad) fallback();

    /* from here on the daemon may run the command: no more falling back, except on its refusal.  SIGINT interrupts
     * the wait (no SA_RESTART) and is reported like the Python client's KeyboardInterrupt. */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGINT, &sa, NULL) != 0) fallback();
    for (size_t sent = 0; sent < req.len;) {
        ssize_t w = send(fd, req.data + sent, req.len - sent, MSG_NOSIGNAL);
        if (g_interrupted) interrupted();
        if (w < 0 && errno == EINTR) continue;
        if (w < 0) lost(dir, strerror(errno));
        sent += (size_t)w;
    }
    if (shutdown(fd, SHUT_WR) != 0) lost(dir, strerror(errno));
    buf_t reply = {0};
    for (;;) {
        char chunk[65536];
        if (wait_s > 0) {
            double left = until - now_s(CLOCK_MONOTONIC);
            struct pollfd pfd = {fd, POLLIN, 0};
            int ready = left > 0 ? poll(&pfd, 1, left > 2e6 ? 2000000000 : (int)(left * 1000) + 1) : 0;
            if (g_interrupted) interrupted();
            if (ready < 0 && errno == EINTR) continue;
            if (ready == 0) timed_out(wait_s);
        }
        ssize_t got = recv(fd, chunk, sizeof chunk, 0);
        if (g_interrupted) interrupted();
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) lost(dir, strerror(errno));
        if (got == 0) break;
        if (buf_add(&reply, chunk, (size_t)got) != 0) lost(dir, strerror(ENOMEM));
    }
    close(fd);

    size_t pos = 0, flen;
    long code, size;
    const char *f = next_field(reply.data ? reply.data : "", reply.len, &pos, &flen);
    if (flen != 3 || memcmp(f, "pw2", 3) != 0) {
        /* an older daemon's reply ("exit NUL len NUL ..."): a version mismatch, nothing ran; Python replaces it */
        size_t p2 = 0, l2;
        const char *a = next_field(reply.data ? reply.data : "", reply.len, &p2, &l2);
        long ignored;
        if (parse_int(a, l2, &ignored) == 0) {
            const char *b = next_field(reply.data, reply.len, &p2, &l2);
            if (parse_int(b, l2, &ignored) == 0) fallback();
        }
        lost(dir, "");
    }
    const char *code_field = next_field(reply.data, reply.len, &pos, &flen);
    size_t code_len = flen;
    next_field(reply.data, reply.len, &pos, &flen); /* the daemon code */
    size_t daemon_code_len = flen;
    const char *size_field = next_field(reply.data, reply.len, &pos, &flen);
    if (parse_int(size_field, flen, &size) != 0 || size < 0 || (size_t)size > reply.len - pos ||
        parse_int(code_field, code_len, &code) != 0 || code < INT_MIN || code > INT_MAX)
        lost(dir, "");
    if (daemon_code_len != 0) fallback(); /* the daemon refused it itself, nothing ran: Python handles that */

    buf_t out = {0}, err = {0};
    if (text_for(reply.data + pos, (size_t)size, &out) != 0 ||
        text_for(reply.data + pos + size, reply.len - pos - (size_t)size, &err) != 0) {
        fprintf(stderr, "error DAEMON_UNAVAILABLE: out of memory\nhint: Run the command again.\n");
        return 4;
    }
    /* Python's order: stdout is buffered unless it is a terminal (or the text fills the buffer), stderr is not */
    int out_errno = 0, err_failed;
    if (isatty(1) || out.len >= OUT_FIRST_BYTES) {
        if (write_all(1, out.data, out.len) != 0) out_errno = errno;
        err_failed = write_all(2, err.data, err.len);
    } else {
        err_failed = write_all(2, err.data, err.len);
        if (write_all(1, out.data, out.len) != 0) out_errno = errno;
    }
    if (out_errno != 0) /* main.py's report_output_failure, word for word (a test compares them) */
        fprintf(stderr, "error OUTPUT_FAILED: cannot write the answer to stdout: %s\nhint: %s\n", strerror(out_errno),
                OUTPUT_FAILED_HINT);
    free(req.data);
    free(reply.data);
    free(out.data);
    free(err.data);
    return (out_errno != 0 || err_failed) ? 120 : (int)code; /* 120: main.py's EXIT_OUTPUT_FAILED */
}
