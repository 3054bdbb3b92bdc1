// XML Schema validation with libxml2's xmllint (Debian libxml2-utils), the validator most
// XML users reach for; a JavaScript XSD validator of comparable completeness does not exist.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCommand } from './run-command.ts';

export type XmlValidation = { ok: boolean; errors: string };

/**
 * Validates a document against an XSD file. `errors` holds xmllint's messages with the
 * temporary file's name replaced by "document". Never touches the network (--nonet).
 * Throws when xmllint cannot be run at all.
 */
export async function validateXml(xml: string, xsdPath: string): Promise<XmlValidation> {
  const dir = await mkdtemp(path.join(tmpdir(), 'shelfmark-xml-'));
  try {
    const file = path.join(dir, 'document.xml');
    await writeFile(file, xml, 'utf8');
    const result = await runCommand('xmllint', [
      '--noout',
      '--nonet',
      '--schema',
      path.resolve(xsdPath),
      file,
    ]);
    const errors = result.stderr
      .split(file)
      .join('document')
      .split('\n')
      .filter((line) => line.trim() !== '' && line !== 'document validates')
      .join('\n');
    return { ok: result.code === 0, errors };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
