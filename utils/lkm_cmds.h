/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lkm's verbs, a file per concept (lkm.c holds the command table):
 *   lkm_maskset.c  list, read, write, config, set, delete
 *   lkm_events.c   events, handlers, stat
 *   lkm_filter.c   filter;  lkm_stack.c stack
 *   lkm_agg_cmd.c  agg set|print|list|clear|delete (lkm_agg.c: its parsing
 *                  and formatting)
 *   lkm_probe.c    probe add|del|list
 */
#ifndef LKM_CMDS_H
#define LKM_CMDS_H

#include "lkst_cli.h"

extern const struct lkst_verb_ops lkm_list_ops, lkm_read_ops, lkm_write_ops,
	lkm_config_ops, lkm_set_ops, lkm_delete_ops, lkm_events_ops,
	lkm_handlers_ops, lkm_stat_ops, lkm_filter_ops, lkm_stack_ops;
extern const struct lkst_verb_group lkm_agg_group, lkm_probe_group;

#endif /* LKM_CMDS_H */
