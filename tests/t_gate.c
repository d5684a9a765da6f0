/* myc_ connect phase: the login gate, backoff, which failures are retried (no server). */

struct t_gate_arg {
    struct myc_gate *g;
    _Atomic int in, peak, entered;
};

static void *t_gate_worker(void *p)
{
    struct t_gate_arg *a = p;
    struct b_err e;
    memset(&e, 0, sizeof(e));
    if (myc_gate_enter(a->g, &e) != B_OK)
        return NULL;
    int now = atomic_fetch_add(&a->in, 1) + 1, pk = atomic_load(&a->peak);
    while (now > pk && !atomic_compare_exchange_weak(&a->peak, &pk, now))
        ;
    atomic_fetch_add(&a->entered, 1);
    clk_sleep_until(clk_now_ns() + 3000000u);
    atomic_fetch_sub(&a->in, 1);
    myc_gate_leave(a->g, B_OK);
    return NULL;
}

/* At most max in flight, whatever the number waiting; every waiter gets in. */
static int t_gate_bound(void)
{
    struct myc_gate g;
    struct t_gate_arg a = {.g = &g};
    pthread_t th[12];
    myc_gate_init(&g, 3, 12, 5000);
    for (int i = 0; i < 12; i++)
        T_CHECK(pthread_create(&th[i], NULL, t_gate_worker, &a) == 0);
    for (int i = 0; i < 12; i++)
        pthread_join(th[i], NULL);
    T_CHECK(atomic_load(&a.entered) == 12);
    T_CHECK(atomic_load(&a.peak) >= 1 && atomic_load(&a.peak) <= 3);
    T_CHECK(g.ok == 12 && g.inflight == 0);
    /* the event loop's side: try never waits */
    T_CHECK(myc_gate_try(&g) == B_OK && myc_gate_try(&g) == B_OK && myc_gate_try(&g) == B_OK);
    T_CHECK(myc_gate_try(&g) == B_AGAIN);
    myc_gate_leave(&g, B_SYSERR); /* a failed login frees its slot, and is not counted */
    T_CHECK(g.ok == 12 && myc_gate_try(&g) == B_OK);
    myc_gate_free(&g);
    return 0;
}

struct t_gate_wait {
    struct myc_gate *g;
    int rc;
    struct b_err e;
    u64 ns;
};

static void *t_gate_waiter(void *p)
{
    struct t_gate_wait *w = p;
    u64 t0 = clk_now_ns();
    memset(&w->e, 0, sizeof(w->e));
    w->rc = myc_gate_enter(w->g, &w->e);
    w->ns = clk_now_ns() - t0;
    return NULL;
}

/* A waiter returns at once with the first failure when the phase is shut, and with
 * B_TIMEOUT when nothing moves for the stall time; a stop signal ends a wait too. */
static int t_gate_shut_stall(void)
{
    struct myc_gate g;
    struct t_gate_wait w = {.g = &g};
    pthread_t th;
    struct b_err why;
    myc_gate_init(&g, 1, 2, 60000);
    T_CHECK(myc_gate_try(&g) == B_OK);
    T_CHECK(pthread_create(&th, NULL, t_gate_waiter, &w) == 0);
    clk_sleep_until(clk_now_ns() + 20000000u);
    memset(&why, 0, sizeof(why));
    /* a login timed out: the waiters report it, not a timeout of their own */
    (void)!b_seterr(&why, B_TIMEOUT, ETIMEDOUT,
                    "reading from 127.0.0.1:1 failed: Operation timed out");
    myc_gate_shut(&g, B_TIMEOUT, &why);
    pthread_join(th, NULL);
    T_CHECK(w.rc == B_TIMEOUT && !strcmp(w.e.msg, why.msg));
    T_CHECK(w.ns < 2000000000u); /* not the 60 s stall time */
    T_CHECK(myc_gate_try(&g) == B_TIMEOUT); /* no login starts after the shutdown */
    t_gate_waiter(&w); /* nor a wait */
    T_CHECK(w.rc == B_TIMEOUT && !strcmp(w.e.msg, why.msg));
    myc_gate_free(&g);

    myc_gate_init(&g, 1, 2, 100);
    T_CHECK(myc_gate_try(&g) == B_OK);
    t_gate_waiter(&w);
    T_CHECK(w.rc == B_TIMEOUT && w.e.sys_errno == ETIMEDOUT);
    T_CHECK(w.ns >= 90000000u && w.ns < 5000000000u);
    T_CHECK(strstr(w.e.msg, "no login began or ended within 100 ms while 1 were in flight"));
    atomic_store(&b_stop, SIGINT);
    myc_gate_leave(&g, B_OK); /* a slot is free, but a stop signal is set */
    t_gate_waiter(&w);
    atomic_store(&b_stop, 0);
    T_CHECK(w.rc == B_DONE && w.ns < 1000000000u);
    myc_gate_free(&g);
    return 0;
}

/* Exponential from 10 ms, capped at 1 s, jittered into [half, whole]; reproducible. */
static int t_gate_backoff(void)
{
    u64 s1 = 42, s2 = 42, lo[] = {5, 10, 20, 40, 80, 160, 320, 500, 500, 500}, prev = 0;
    bool varied = false;
    for (unsigned a = 1; a <= 10; a++)
        for (int k = 0; k < 50; k++) {
            u64 ns = myc_backoff_ns(a, &s1);
            T_CHECK(ns == myc_backoff_ns(a, &s2));
            T_CHECK(ns >= lo[a - 1] * 1000000u && ns <= 2 * lo[a - 1] * 1000000u);
            varied |= k && ns != prev;
            prev = ns;
        }
    T_CHECK(varied);
    return 0;
}

/* Retried: resets, and refusals or timeouts once the server answered others; never a
 * server error (1040, 1045), TLS, authentication, or a signal. */
static int t_gate_retryable(void)
{
    struct my_conn c;
    memset(&c, 0, sizeof(c));
    static const struct {
        int rc, err;
        u16 srv;
        bool seen, want;
    } v[] = {
        {B_SYSERR, ECONNRESET, 0, false, true},   {B_SYSERR, EPIPE, 0, false, true},
        {B_SYSERR, EAGAIN, 0, false, true},       {B_SYSERR, ECONNREFUSED, 0, false, false},
        {B_SYSERR, ECONNREFUSED, 0, true, true},  {B_TIMEOUT, ETIMEDOUT, 0, false, false},
        {B_TIMEOUT, ETIMEDOUT, 0, true, true},    {B_SERVER, 0, 1040, true, false},
        {B_SERVER, 0, 1045, true, false},         {B_UNSUPPORTED, 0, 0, true, false},
        {B_PROTOCOL, 0, 0, true, false},          {B_DONE, 0, 0, true, false},
        {B_SYSERR, ENOENT, 0, true, false},       {B_SYSERR, EHOSTUNREACH, 0, true, false},
    };
    for (size_t i = 0; i < countof(v); i++) {
        c.err.sys_errno = v[i].err;
        c.srv_code = v[i].srv;
        if (myc_retryable(&c, v[i].rc, v[i].seen) != v[i].want) {
            fprintf(stderr, "  case %zu\n", i);
            return 1;
        }
    }
    return 0;
}

/* The progress line: only for big phases, when due, and one final line with '\n'. */
static int t_gate_progress(void)
{
    struct myc_gate g;
    char line[64];
    myc_gate_init(&g, 8, 100, 1000);
    g.progress_ns = 0;
    T_CHECK(!myc_gate_progress(&g, line, sizeof(line))); /* 100 < MYC_PROGRESS_MIN */
    myc_gate_free(&g);
    myc_gate_init(&g, 8, 300, 1000);
    T_CHECK(!myc_gate_progress(&g, line, sizeof(line))); /* not due yet */
    for (int i = 0; i < 300; i++) {
        T_CHECK(myc_gate_try(&g) == B_OK);
        myc_gate_leave(&g, B_OK);
        if (i == 119) {
            g.progress_ns = 0;
            T_CHECK(myc_gate_progress(&g, line, sizeof(line)));
            T_CHECK(!strcmp(line, "connecting: 120/300"));
            T_CHECK(!myc_gate_progress(&g, line, sizeof(line))); /* at most every 0.5 s */
        }
    }
    T_CHECK(myc_gate_progress(&g, line, sizeof(line)));
    T_CHECK(!strcmp(line, "connecting: 300/300\n"));
    T_CHECK(!myc_gate_progress(&g, line, sizeof(line)));
    myc_gate_free(&g);
    return 0;
}

/* myc_connect_retry against a closed port: one attempt while no login succeeded (nothing is
 * listening), MYC_CONNECT_TRIES with backoff when the server answered others. */
static int t_gate_connect_retry(void)
{
    struct sockaddr_in sa;
    socklen_t sl = sizeof(sa);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    memset(&sa, 0, sizeof(sa));
    sa.sin_family = AF_INET;
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    T_CHECK(fd >= 0 && bind(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0);
    T_CHECK(getsockname(fd, (struct sockaddr *)&sa, &sl) == 0);
    close(fd); /* nothing listens on this port now */
    struct myc_params p = {.host = "127.0.0.1", .port = ntohs(sa.sin_port), .user = "u",
                           .ssl_mode = MYC_SSL_DISABLED, .connect_timeout_ms = 2000};
    struct my_conn c;
    struct myc_gate g;
    unsigned tries;
    u64 seed = 1;
    myc_gate_init(&g, 4, 1, 3000);
    T_CHECK(myc_connect_retry(&c, &p, &g, &tries, &seed) == B_SYSERR);
    T_CHECK(tries == 1 && c.err.sys_errno == ECONNREFUSED && c.fd == -1);
    g.ok = 1; /* another login of this phase succeeded: a refusal is an overload */
    u64 t0 = clk_now_ns();
    T_CHECK(myc_connect_retry(&c, &p, &g, &tries, &seed) == B_SYSERR);
    u64 ns = clk_now_ns() - t0;
    T_CHECK(tries == MYC_CONNECT_TRIES && c.err.sys_errno == ECONNREFUSED);
    T_CHECK(ns >= (5 + 10 + 20 + 40) * 1000000u); /* the least backoff of 4 retries */
    T_CHECK(g.inflight == 0 && g.ok == 1);
    myc_gate_free(&g);
    return 0;
}
