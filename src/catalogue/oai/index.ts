export { OAI_PATH, registerOaiRoute } from './routes.ts';
export { sqlRecordSource, type RecordSource } from './source.ts';
export type { ProviderOptions } from './provider.ts';
