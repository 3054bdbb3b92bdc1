export { HEALTH_PATH, registerHealthRoute } from './health.ts';
export type { HealthOptions } from './health.ts';
