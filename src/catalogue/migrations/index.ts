// The catalogue's migration set (both engines). Append new migrations; never edit applied ones.
import type { MigrationSet } from '../../storage/index.ts';
import { catalogueTables } from './0001-catalogue.ts';

export const catalogueMigrations: MigrationSet = (context) => ({
  '0001-catalogue': catalogueTables(context),
});
