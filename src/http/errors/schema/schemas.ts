// The problem schemas are plain files beside this module, served under /schema/.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const PROBLEM_XSD_PATH = join(import.meta.dirname, 'problem.xsd');
export const PROBLEM_JSON_SCHEMA_PATH = join(import.meta.dirname, 'problem.json');

export function problemSchemas(): { xsd: string; json: string } {
  return {
    xsd: readFileSync(PROBLEM_XSD_PATH, 'utf8'),
    json: readFileSync(PROBLEM_JSON_SCHEMA_PATH, 'utf8'),
  };
}
