// mod_status for Shelfmark (docs/decisions/0015-server-status.md): each process's counts
// (scoreboard.ts) and the whole server's report in httpd's `?auto` format (report.ts).
export { countingAccessLog, ProcessScoreboard, type SlotSnapshot } from './scoreboard.ts';
export {
  aprG,
  autoText,
  statusTime,
  summarize,
  uptimeText,
  type ServerStatus,
  type SlotState,
  type StatusSlot,
  type Summary,
  type Totals,
} from './report.ts';
export { loadAverage, NO_TOTALS, singleProcessStatus } from './local.ts';
