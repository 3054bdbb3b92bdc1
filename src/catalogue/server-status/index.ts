// `/server-status` for staff, like Apache's mod_status: HTML/XML/JSON, and `?auto` as text.
export { serverStatusResource, type ServerStatusOptions } from './resource.ts';
export { registerAutoHook } from './auto.ts';
export { SERVER_STATUS_PATH } from './access.ts';
