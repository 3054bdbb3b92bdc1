export { formMethodOverride } from './override.ts';
