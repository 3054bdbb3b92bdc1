// The byte-level line reader (ADR 0078): line breaks as readline's (LF, CRLF, CR, also when a
// chunk ends between CR and LF), quoted CSV line breaks kept inside the record, a byte order
// mark taken off, bad UTF-8 and over-long lines refused by number while the next lines are read.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readTextRecords, type TextRecord } from './lines.ts';
import { UnreadableFileError } from './unreadable.ts';

async function read(chunks: (string | Buffer)[], options: Parameters<typeof readTextRecords>[1] = {}) {
  const out: TextRecord[] = [];
  for await (const r of readTextRecords(chunks, options)) out.push(r);
  return out;
}

/** Every way of cutting `bytes` into two chunks gives the same records. */
async function sameWhereverCut(bytes: Buffer, options: Parameters<typeof readTextRecords>[1] = {}) {
  const whole = await read([bytes], options);
  for (let cut = 1; cut < bytes.length; cut += 1)
    assert.deepEqual(
      await read([bytes.subarray(0, cut), bytes.subarray(cut)], options),
      whole,
      `cut at ${cut}`,
    );
  return whole;
}

test('LF, CRLF and CR end a line; CRLF counts once, even split across chunks; blank lines are skipped', async () => {
  assert.deepEqual(await sameWhereverCut(Buffer.from('a\r\nb\rc\n\nd\r\n')), [
    { line: 1, text: 'a' },
    { line: 2, text: 'b' },
    { line: 3, text: 'c' },
    { line: 5, text: 'd' },
  ]);
  assert.deepEqual(await read(['x']), [{ line: 1, text: 'x' }]);
});

test('quoted: a line break inside quotes stays in the record, which is named by its first line', async () => {
  assert.deepEqual(await sameWhereverCut(Buffer.from('h\r\n"a\r\nb",c\r\nd\n'), { quoted: true }), [
    { line: 1, text: 'h' },
    { line: 2, text: '"a\r\nb",c' },
    { line: 4, text: 'd' },
  ]);
});

test('a byte order mark is taken off; bad UTF-8 and over-long lines are refused, the next lines read', async () => {
  const bytes = Buffer.concat([
    Buffer.from('\ufeffeins\n'),
    Buffer.from('M\xfcller\n', 'latin1'),
    Buffer.from('x'.repeat(50) + '\n'),
    Buffer.from('caf\xc3\xa9\n', 'latin1'),
    Buffer.from('\xe2\x82\n', 'latin1'),
  ]);
  assert.deepEqual(await sameWhereverCut(bytes, { maxRecordBytes: 20 }), [
    { line: 1, text: 'eins' },
    {
      line: 2,
      reason: 'not UTF-8: byte 2 of the line starts an invalid sequence (fc); nothing of it was imported',
    },
    { line: 3, reason: 'line longer than 20 bytes (--max-record-bytes)' },
    { line: 4, text: 'café' },
    {
      line: 5,
      reason: 'not UTF-8: byte 1 of the line starts an invalid sequence (e2 82); nothing of it was imported',
    },
  ]);
});

test('a UTF-16 file cannot be read', async () => {
  await assert.rejects(read([Buffer.from('\ufeff{}', 'utf16le')]), UnreadableFileError);
});
