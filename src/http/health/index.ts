export { DEFAULT_HEALTH_TIMEOUT_MS, HEALTH_PATH, probe, registerHealthRoute } from './health.ts';
export type { HealthOptions } from './health.ts';
