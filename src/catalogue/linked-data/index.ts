export { workJsonLd, personJsonLd, SCHEMA_ORG_CONTEXT } from './schema-org.ts';
export { scriptJson } from './script-json.ts';
