export { formMethodOverride, METHOD_FIELD } from './override.ts';
export type { OverrideInput, OverridableMethod } from './override.ts';
