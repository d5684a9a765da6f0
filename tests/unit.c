/*
 * Unit tests: bench.c is included, so every static function is reachable (STYLE 2.8).
 * Run all: tests/unit; run a group: tests/unit hist_  (name prefix). The last line is
 * "N passed, N failed". Always built with ASan and UBSan (Makefile). The pglive groups run
 * only when named (tests/unit pglive, from tests/pgsql.sh with its PostgreSQL).
 */
#define BENCH_NO_MAIN
#include "../bench.c"

#define T_CHECK(cond)                                                                        \
    do {                                                                                     \
        if (!(cond)) {                                                                       \
            fprintf(stderr, "  %s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);       \
            return 1;                                                                        \
        }                                                                                    \
    } while (0)

/* relative difference */
static double t_rel(double a, double b)
{
    return fabs(a - b) / (fabs(b) > 0 ? fabs(b) : 1.0);
}

/* free every string the option tables own in *o */
static void t_opts_free(struct bench_opts *o)
{
    for (size_t g = 0; g < countof(opt_groups); g++)
        opt_free_strings(opt_groups[g].t, opt_groups[g].n, o);
    for (size_t w = 0; w < countof(wl_all); w++)
        opt_free_strings(wl_all[w].opts, wl_all[w].nopts, o);
}

#include "t_hist.c"
#include "t_rnd.c"
#include "t_opt.c"
#include "t_load.c"
#include "t_evl.c"
#include "t_my.c"
#include "t_my_live.c"
#include "t_pg.c"
#include "t_pg_live.c"
#include "t_gate.c"
#include "t_myc_sm.c"
#include "t_z.c"
#include "t_io.c"
#include "t_oltp.c"
#include "t_exact.c"
#include "t_host.c"
#include "t_cli.c"
#include "t_json.c"
#include "t_slap.c"
#include "t_mem.c"
#include "t_all.c"
#include "t_all_live.c"
#include "t_all_paths.c"
#include "t_all_edges.c"
#include "t_jr.c"
#include "t_mrg.c"

static const struct {
    const char *name;
    int (*fn)(void);
} t_all[] = {
    {"hist_bucket_bounds", t_hist_bucket_bounds},
    {"hist_percentile_exact", t_hist_percentile_exact},
    {"hist_merge_sub", t_hist_merge_sub},
    {"hist_edges", t_hist_edges},
    {"rnd_vector", t_rnd_vector},
    {"rnd_glibc", t_rnd_glibc},
    {"rnd_unique", t_rnd_unique},
    {"rnd_unique_seed", t_rnd_unique_seed},
    {"rnd_unique_spread", t_rnd_unique_spread},
    {"rnd_unique_lanes", t_rnd_unique_lanes},
    {"rnd_uniform_chi2", t_rnd_uniform_chi2},
    {"rnd_gaussian", t_rnd_gaussian},
    {"rnd_special", t_rnd_special},
    {"rnd_pareto", t_rnd_pareto},
    {"rnd_zipfian", t_rnd_zipfian},
    {"rnd_exp_gap", t_rnd_exp_gap},
    {"opt_sizes", t_opt_sizes},
    {"opt_set_types", t_opt_set_types},
    {"opt_tables", t_opt_tables},
    {"opt_help_layout", t_opt_help_layout},
    {"opt_edit_distance", t_opt_edit_distance},
    {"opt_cnf_grammar", t_opt_cnf_grammar},
    {"opt_cnf_include", t_opt_cnf_include},
    {"opt_config_file", t_opt_config_file},
    {"opt_hide_secrets", t_opt_hide_secrets},
    {"opt_esc", t_opt_esc},
    {"b_errors", t_b_errors},
    {"cli_exit_codes", t_cli_exit_codes},
    {"cli_personas", t_cli_personas},
    {"cli_protocol", t_cli_protocol},
    {"cli_msg", t_cli_msg},
    {"cli_commands", t_cli_commands},
    {"tpcc_draws", t_tpcc_draws},
    {"oltp_names", t_oltp_names},
    {"oltp_sb_shape", t_oltp_sb_shape},
    {"oltp_variants", t_oltp_variants},
    {"oltp_check_err", t_oltp_check_err},
    {"oltp_rep_sizing", t_oltp_rep_sizing},
    {"oltp_sizing_knee", t_oltp_sizing_knee},
    {"oltp_ledger", t_oltp_ledger},
    {"oltp_ranges", t_oltp_ranges},
    {"oltp_oclass", t_oltp_oclass},
    {"load_events_exact", t_load_events_exact},
    {"evl_many_clients", t_evl_many_clients},
    {"evl_timeout", t_evl_timeout},
    {"evl_stop", t_evl_stop},
    {"evl_rate_stall", t_evl_rate_stall},
    {"evl_reconnect", t_evl_reconnect},
    {"evl_ud", t_evl_ud},
    {"evl_backend_pick", t_evl_backend_pick},
    {"evl_uring_runs", t_evl_uring_runs},
    {"evl_ring_runs", t_evl_ring_runs},
    {"evl_unread", t_evl_unread},
    {"evl_tx_close", t_evl_tx_close},
    {"spare_blocks", t_spare_blocks},
    {"spare_myc", t_spare_myc},
    {"evl_ring_spare", t_evl_ring_spare},
    {"evl_connect", t_evl_connect},
    {"evl_connect_stop", t_evl_connect_stop},
    {"evl_queues", t_evl_queues},
    {"evl_assert", t_evl_assert},
    {"evl_reconnect_gate", t_evl_reconnect_gate},
    {"evl_reconnect_gate_thread", t_evl_reconnect_gate_thread},
    {"load_warmup_events_exact", t_load_warmup_events_exact},
    {"load_checkpoints_dedupe", t_load_checkpoints_dedupe},
    {"rep_pct_label_exact", t_rep_pct_label_exact},
    {"load_mutex_one_per_thread", t_load_mutex_one_per_thread},
    {"load_memory_limit", t_load_memory_limit},
    {"load_rate_open_loop", t_load_rate_open_loop},
    {"load_start_at_parse", t_load_start_at_parse},
    {"load_clock_refuse", t_load_clock_refuse},
    {"load_client_check", t_load_client_check},
    {"load_mode_pick", t_load_mode_pick},
    {"load_probe_host", t_load_probe_host},
    {"mrg_hist_exact", t_mrg_hist_exact},
    {"mrg_budget", t_mrg_budget},
    {"mrg_pretty", t_mrg_pretty},
    {"mrg_show", t_mrg_show},
    {"load_snapshot_diff", t_load_snapshot_diff},
    {"run_forced_then_next", t_run_forced_then_next},
    {"load_rate_lasts_time", t_load_rate_lasts_time},
    {"run_forced_caller_gone", t_run_forced_caller_gone},
    {"run_merge_equals_longer", t_run_merge_equals_longer},
    {"os_signal_after_lost_reader", t_os_signal_after_lost_reader},
    {"cpu_prime_count", t_cpu_prime_count},
    {"myc_gate_bound", t_gate_bound},
    {"myc_gate_shut_stall", t_gate_shut_stall},
    {"myc_gate_backoff", t_gate_backoff},
    {"myc_gate_retryable", t_gate_retryable},
    {"myc_gate_progress", t_gate_progress},
    {"myc_gate_connect_retry", t_gate_connect_retry},
    {"pg_framing", t_pg_framing},
    {"pg_builders", t_pg_builders},
    {"pg_parsers", t_pg_parsers},
    {"pg_md5", t_pg_md5},
    {"pg_scram_rfc7677", t_pg_scram_rfc7677},
    {"pg_url", t_pg_url},
    {"pg_negotiation", t_pg_negotiation},
    {"pg_pgpass", t_pg_pgpass},
    {"pglive_copy_extended", t_pglive_copy_extended},
    {"pglive_cancel", t_pglive_cancel},
    {"pglive_async", t_pglive_async},
    {"my_lenenc", t_my_lenenc},
    {"my_framing", t_my_framing},
    {"my_count_params", t_my_count_params},
    {"my_scrambles", t_my_scrambles},
    {"my_ed25519", t_my_ed25519},
    {"my_handshake", t_my_handshake},
    {"my_ok_err", t_my_ok_err},
    {"my_resultset", t_my_resultset},
    {"my_binary", t_my_binary},
    {"my_prepare_authswitch", t_my_prepare_authswitch},
    {"my_flips_guard", t_my_flips_guard},
    {"my_escape", t_my_escape},
    {"my_auth_mask", t_my_auth_mask},
    {"my_execute_count", t_my_execute_count},
    {"my_inflate_vectors", t_my_inflate_vectors},
    {"my_inflate_hostile", t_my_inflate_hostile},
    {"my_deflate_roundtrip", t_my_deflate_roundtrip},
    {"my_zframe", t_my_zframe},
    {"my_auth_plugins", t_my_auth_plugins},
    {"my_trace", t_my_trace},
    {"my_live_logins", t_my_live_logins},
    {"my_live_compress", t_my_live_compress},
    {"my_live_compress_commands", t_my_live_compress_commands},
    {"my_live_errors", t_my_live_errors},
    {"my_live_commands", t_my_live_commands},
    {"my_live_inbuf", t_my_live_inbuf},
    {"my_live_prepared", t_my_live_prepared},
    {"my_live_ipv6", t_my_live_ipv6},
    {"my_live_ping_res", t_my_live_ping_res},
    {"myc_sm_replay", t_myc_sm_replay},
    {"myc_sm_truncated", t_myc_sm_truncated},
    {"myc_sm_deadline", t_myc_sm_deadline},
    {"myc_sm_sizes", t_myc_sm_sizes},
    {"myc_sm_live_record", t_myc_sm_live_record},
    {"myc_sm_live_many", t_myc_sm_live_many},
    {"io_manifest_parse", t_io_manifest_parse},
    {"io_not_ours", t_io_not_ours},
    {"io_fill_pool", t_io_fill_pool},
    {"io_prepare_cleanup", t_io_prepare_cleanup},
    {"io_check_err", t_io_check_err},
    {"exact_hist_rank_midpoint", t_exact_hist_rank_midpoint},
    {"exact_rep_final", t_exact_rep_final},
    {"exact_live_empty_password", t_exact_live_empty_password},
    {"exact_rnd_seed", t_exact_rnd_seed},
    {"host_xeon", t_host_xeon},
    {"host_kvm", t_host_kvm},
    {"host_arm", t_host_arm},
    {"host_parsers", t_host_parsers},
    {"host_fallback", t_host_fallback},
    {"host_fallback_why", t_host_fallback_why},
    {"host_signal_again", t_host_signal_again},
    {"host_cgroom", t_host_cgroom},
    {"host_fuzz", t_host_fuzz},
    {"host_live", t_host_live},
    {"json_escape", t_json_escape},
    {"json_numbers", t_json_numbers},
    {"json_doc", t_json_doc},
    {"slap_split", t_slap_split},
    {"slap_build_auto", t_slap_build_auto},
    {"slap_build_refusals", t_slap_build_refusals},
    {"slap_loops", t_slap_loops},
    {"slap_seed_clients", t_slap_seed_clients},
    {"slap_args", t_slap_args},
    {"slap_shown", t_slap_shown},
    {"slap_args_more", t_slap_args_more},
    {"slap_marker_nofile", t_slap_marker_nofile},
    {"mem_stream_kernels", t_mem_stream_kernels},
    {"mem_sattolo_one_cycle", t_mem_sattolo_one_cycle},
    {"mem_latency_monotone", t_mem_latency_monotone},
    {"mem_plateaus", t_mem_plateaus},
    {"mem_llc_sizing", t_mem_llc_sizing},
    {"mem_stream_run", t_mem_stream_run},
    {"mem_check_block_size", t_mem_check_block_size},
    {"thr_pingpong_counts", t_thr_pingpong_counts},
    {"all_expect_parse", t_all_expect_parse},
    {"all_verdicts", t_all_verdicts},
    {"all_measures", t_all_measures},
    {"all_settings", t_all_settings},
    {"all_server_settings", t_all_server_settings},
    {"all_pg_settings", t_all_pg_settings},
    {"jr_valid", t_jr_valid},
    {"jr_invalid", t_jr_invalid},
    {"jr_values", t_jr_values},
    {"jr_files", t_jr_files},
    {"jr_roundtrip", t_jr_roundtrip},
    {"jr_limits", t_jr_limits},
    {"all_lat_knees", t_all_lat_knees},
    {"all_conn_swap", t_all_conn_swap},
    {"all_pct_busy", t_all_pct_busy},
    {"all_notes", t_all_notes},
    {"all_stale", t_all_stale},
    {"all_long_line", t_all_long_line},
    {"all_line_ctrl", t_all_line_ctrl},
    {"all_var_row", t_all_var_row},
    {"all_server_ram", t_all_server_ram},
    {"all_disk_room", t_all_disk_room},
    {"all_busy_note", t_all_busy_note},
    {"all_max_conn_range", t_all_max_conn_range},
    {"all_oracle_docs", t_all_oracle_docs},
    {"all_live_where", t_all_live_where},
    {"all_live_schema_lock", t_all_live_schema_lock},
    {"all_live_refused", t_all_live_refused},
    {"all_live_ping_bound", t_all_live_ping_bound},
    {"all_live_db_schema", t_all_live_db_schema},
    {"all_live_own_tables", t_all_live_own_tables},
    {"all_levels", t_all_levels},
    {"all_step_fails", t_all_step_fails},
    {"all_disk_unmade", t_all_disk_unmade},
    {"all_expect_ops", t_all_expect_ops},
    {"all_fact_types", t_all_fact_types},
    {"all_take_partial", t_all_take_partial},
    {"all_lat_shapes", t_all_lat_shapes},
    {"all_take_latency_edges", t_all_take_latency_edges},
    {"all_take_disk_edges", t_all_take_disk_edges},
    {"all_busy_edges", t_all_busy_edges},
    {"all_expect_edges", t_all_expect_edges},
    {"all_settings_edges", t_all_settings_edges},
    {"all_conn_cur", t_all_conn_cur},
    {"all_main_refusals", t_all_main_refusals},
    {"cmp_dir", t_cmp_dir},
    {"cmp_check_file", t_cmp_check_file},
};

int main(int argc, char **argv)
{
    int pass = 0, fail = 0, skip = 0;
    /* under CI (CI=true or 1) a test that cannot run (no BENCH_MY_HOST...) is a failure */
    const char *ci = getenv("CI");
    bool strict = ci && (!strcmp(ci, "true") || !strcmp(ci, "1"));
    for (size_t i = 0; i < countof(t_all); i++) {
        if (argc > 1 && strncmp(t_all[i].name, argv[1], strlen(argv[1])))
            continue;
        /* the pglive groups need tests/pgsql.sh's PostgreSQL: they run only when named */
        if (!strncmp(t_all[i].name, "pglive", 6) && (argc < 2 || strncmp(argv[1], "pglive", 6)))
            continue;
        int rc = t_all[i].fn();
        if (rc == 0) {
            pass++;
            printf("ok   %s\n", t_all[i].name);
        } else if (rc == 77 && !strict) {
            skip++;
            printf("%s\n", t_all[i].name);
        } else if (rc == 77) {
            fail++;
            printf("FAIL %s (skipped under CI=%s: a prerequisite is missing)\n", t_all[i].name, ci);
        } else {
            fail++;
            printf("FAIL %s\n", t_all[i].name);
        }
    }
    if (skip)
        printf("%d passed, %d failed, %d skipped\n", pass, fail, skip);
    else
        printf("%d passed, %d failed\n", pass, fail);
    return fail ? 1 : 0;
}
