// The account's HTTP resources (ADR 0063), kept apart from the store's index so that the CLI,
// which imports the store, loads no resource code.
export { accountResource, CREATE_PARAM } from './account-resource.ts';
export { passwordResource, type AccountResourceOptions } from './password-resource.ts';
export { accountPath, passwordPath } from './target.ts';
export { settingsResource } from './settings-resource.ts';
export { settingsPath } from './settings-view.ts';
