// Reading a new password without showing it: a terminal prompt with echo off (asked twice), or
// the first line of a stream (--password-stdin, for scripts and pipes).
import type { Readable } from 'node:stream';
import { AccountError } from '../catalogue/accounts/index.ts';

/** The first line of `input` (without its line end). */
export async function readPasswordLine(input: Readable): Promise<string> {
  let text = '';
  for await (const chunk of input) {
    text += typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('utf8');
    if (text.includes('\n')) break;
  }
  return text.split(/\r?\n/)[0] ?? '';
}

/** One line typed at the terminal with echo off. Ctrl-C / Ctrl-D abort. */
function askHidden(question: string): Promise<string> {
  const stdin = process.stdin;
  const stderr = process.stderr;
  return new Promise((resolve, reject) => {
    let typed = '';
    const finish = (error: Error | null) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      stderr.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (data: Buffer) => {
      for (const char of data.toString('utf8')) {
        if (char === '\r' || char === '\n') return finish(null);
        if (char === '\u0003' || char === '\u0004') return finish(new AccountError('cancelled'));
        if (char === '\u007f' || char === '\b') typed = [...typed].slice(0, -1).join('');
        else if (char >= ' ') typed += char;
      }
    };
    stderr.write(question);
    stdin.setRawMode(true);
    stdin.resume();
    stdin.on('data', onData);
  });
}

/** Asks for a new password twice at the terminal. */
export async function promptPassword(): Promise<string> {
  if (!process.stdin.isTTY)
    throw new AccountError('standard input is not a terminal: pipe the password with --password-stdin');
  const first = await askHidden('New password: ');
  const second = await askHidden('Repeat the password: ');
  if (first !== second) throw new AccountError('the two passwords differ');
  return first;
}
