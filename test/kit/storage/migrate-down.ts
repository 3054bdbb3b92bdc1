// Undoing migrations by name in tests, so a test of one migration does not have to list (and
// be edited for) every migration added after it.
import assert from 'node:assert/strict';
import { migrateDown, type Database, type MigrationSet } from '../../../src/storage/index.ts';

/** Undoes the latest migrations one at a time up to and including `name`; returns their names. */
export async function migrateDownThrough<DB>(
  database: Database<DB>,
  set: MigrationSet,
  name: string,
): Promise<string[]> {
  const undone: string[] = [];
  while (!undone.includes(name)) {
    const step = await migrateDown(database, set);
    assert.ok(step.length > 0, `${name} was never undone (undid ${undone.join(', ')})`);
    undone.push(...step);
  }
  return undone;
}
