// The error log over HTTP for staff (docs/logs.md): `/protokoll/fehler` (HTML/XML/JSON) and its
// live stream `/protokoll/fehler/live` (text/event-stream).
export { errorLogResource, type ErrorLogResourceOptions } from './resource.ts';
export { registerLiveRoute, type LiveOptions } from './live.ts';
export { ERROR_LOG_PATH, LIVE_PATH } from './access.ts';
export { LIVE_SCRIPT, LIVE_SCRIPT_PATH } from './live-script.ts';
