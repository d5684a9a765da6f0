/* OLTP names that reach SQL (issue 18): validation and identifier quoting. */

static int t_oltp_names(void)
{
    struct b_err e;
    char big[70], q[OLTP_QNAME_SZ];
    memset(&e, 0, sizeof(e));
    /* characters, not bytes: 64 two-byte characters pass, 65 do not */
    T_CHECK(oltp_utf8_len("abc") == 3);
    T_CHECK(oltp_utf8_len("\xc3\xa4\xe8\xa1\xa8\xf0\x9f\x98\x80") == 3);
    T_CHECK(oltp_utf8_len("\xff") == -1);          /* not a lead byte */
    T_CHECK(oltp_utf8_len("\xc3") == -1);          /* cut inside a character */
    T_CHECK(oltp_utf8_len("\xc0\xaf") == -1);      /* overlong '/' */
    T_CHECK(oltp_utf8_len("\xed\xa0\x80") == -1);  /* a surrogate */
    T_CHECK(oltp_utf8_len("\xf4\x90\x80\x80") == -1); /* past U+10FFFF */
    struct buf u = {0};
    for (int i = 0; i < 64; i++)
        buf_put(&u, "\xc3\xa4", 2);
    buf_put(&u, "", 1);
    T_CHECK(oltp_name_check("--mysql-db (-D)", u.p, false, &e) == B_OK);
    u.len--;
    buf_put(&u, "\xc3\xa4", 3);
    T_CHECK(oltp_name_check("--mysql-db (-D)", u.p, false, &e) == B_INVALID);
    T_CHECK(strstr(e.msg, "(65 characters): longer than 64 characters") != NULL);
    buf_free(&u);
    memset(big, 'a', 64);
    big[64] = 0;
    T_CHECK(oltp_name_check("--oltp-table-name", big, false, &e) == B_OK);
    T_CHECK(oltp_name_check("--oltp-table-name", "", false, &e) == B_INVALID);
    T_CHECK(oltp_name_check("--oltp-table-name", "a\xff", false, &e) == B_INVALID &&
            !strcmp(e.msg, "--oltp-table-name: invalid name '?': not valid UTF-8"));
    /* control characters would reach terminals (messages, the one-liner's schema line) */
    T_CHECK(oltp_name_check("--mysql-db (-D)", "a\x1b[2Jb\nc", false, &e) == B_INVALID &&
            !strcmp(e.msg, "--mysql-db (-D): invalid name 'a\\x1b[2Jb\\nc': control "
                           "characters are not allowed"));
    T_CHECK(oltp_name_check("--oltp-table-name", "t\x7f", false, &e) == B_INVALID);
    T_CHECK(oltp_name_check("--mysql-storage-engine", "a\x1b", true, &e) == B_INVALID &&
            strchr(e.msg, 0x1b) == NULL);
    T_CHECK(oltp_name_check("--mysql-storage-engine", "InnoDB_2", true, &e) == B_OK);
    T_CHECK(oltp_name_check("--mysql-storage-engine", "innodb */ x", true, &e) == B_INVALID);
    /* sbtest<N> as sysbench writes it; any other name in backticks, inner ones doubled */
    oltp_quote("sbtest12", q, sizeof(q));
    T_CHECK(!strcmp(q, "sbtest12"));
    oltp_quote("sbtest", q, sizeof(q));
    T_CHECK(!strcmp(q, "sbtest"));
    oltp_quote("sbtest1x", q, sizeof(q));
    T_CHECK(!strcmp(q, "`sbtest1x`"));
    oltp_quote("x`; DROP TABLE y; --", q, sizeof(q));
    T_CHECK(!strcmp(q, "`x``; DROP TABLE y; --`"));
    oltp_quote("``", q, sizeof(q));
    T_CHECK(!strcmp(q, "``````"));
    /* the longest valid name fits, quoted, with every character a backtick */
    memset(big, '`', 64);
    big[64] = 0;
    oltp_quote(big, q, sizeof(q));
    T_CHECK(strlen(q) == 130 && q[0] == '`' && q[129] == '`');
    return 0;
}

/* Issue 17: a table is sysbench's data only with exactly sysbench's definition. */
static int t_oltp_sb_shape(void)
{
    const char *ai = "id:int::NO:-:auto_increment:0,k:int::NO:0::0,c:char:120:NO:::0,"
                     "pad:char:60:NO:::0";
    const char *noai = "id:int::NO:-::0,k:int::NO:0::0,c:char:120:NO:::0,pad:char:60:NO:::0";
    /* what sysbench's prepare makes: PRIMARY KEY or KEY xid, with or without k_N */
    T_CHECK(oltp_sb_shape(ai, "k_1:1:k:,PRIMARY:0:id:", false));
    T_CHECK(oltp_sb_shape(ai, "PRIMARY:0:id:,k_12:1:k:", false));
    T_CHECK(oltp_sb_shape(noai, "PRIMARY:0:id:", false));
    T_CHECK(oltp_sb_shape(ai, "k_3:1:k:,xid:1:id:", false));
    T_CHECK(oltp_sb_shape("id:int::NO:-::0,k:int::NO:0::0", "PRIMARY:0:id:", true));
    /* anything more or else is not */
    T_CHECK(!oltp_sb_shape(ai, "", false));                                  /* no key on id */
    T_CHECK(!oltp_sb_shape(ai, "PRIMARY:0:id:,xid:1:id:", false));           /* two */
    T_CHECK(!oltp_sb_shape(ai, "extra:1:c:,k_1:1:k:,PRIMARY:0:id:", false)); /* extra index */
    T_CHECK(!oltp_sb_shape(ai, "k_1:1:k:,k_1:1:c:,PRIMARY:0:id:", false));   /* k_1 (k, c) */
    T_CHECK(!oltp_sb_shape(ai, "k_1:0:k:,PRIMARY:0:id:", false));            /* unique */
    T_CHECK(!oltp_sb_shape(ai, "k_1:1:k:,k_2:1:k:,PRIMARY:0:id:", false));   /* two on k */
    T_CHECK(!oltp_sb_shape(ai, "k_:1:k:,PRIMARY:0:id:", false));
    T_CHECK(!oltp_sb_shape(ai, "k_01:1:k:,PRIMARY:0:id:", false));
    T_CHECK(!oltp_sb_shape(ai, "k_1x:1:k:,PRIMARY:0:id:", false));
    T_CHECK(!oltp_sb_shape(ai, "PRIMARY:0:id:10", false));                  /* a prefix */
    T_CHECK(!oltp_sb_shape("id:int::NO:-:auto_increment:0,k:bigint::NO:0::0,c:char:120:NO:::0,"
                           "pad:char:60:NO:::0", "PRIMARY:0:id:", false));
    T_CHECK(!oltp_sb_shape("id:int::NO:-:auto_increment:0,k:int::NO:0::1,c:char:120:NO:::0,"
                           "pad:char:60:NO:::0", "PRIMARY:0:id:", false)); /* unsigned */
    T_CHECK(!oltp_sb_shape("id:int::NO:-:auto_increment:0,k:int::NO:0::0,c:char:120:YES:::0,"
                           "pad:char:60:NO:::0", "PRIMARY:0:id:", false)); /* NULL allowed */
    T_CHECK(!oltp_sb_shape("id:int::NO:-:auto_increment:0,k:int::NO:0::0,c:char:120:NO:::0,"
                           "pad:char:60:NO:x::0", "PRIMARY:0:id:", false)); /* default */
    T_CHECK(!oltp_sb_shape("id:int::NO:-:auto_increment:0,k:int::NO:0::0,c:char:120:NO:::0,"
                           "pad:char:60:NO:::0,x:int::YES:-::0", "PRIMARY:0:id:", false));
    T_CHECK(!oltp_sb_shape(ai, "PRIMARY:0:id:", true)); /* bulk_insert's has no c, pad */
    T_CHECK(!oltp_sb_shape("id:int::NO:-::0,k:int::NO:0::0", "PRIMARY:0:id:,k_1:1:k:", true));
    return 0;
}
