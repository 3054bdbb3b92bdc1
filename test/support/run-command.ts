// Runs a short-lived command to completion and collects its output, for the validators.
import { spawn } from 'node:child_process';

export type CommandResult = { code: number | null; stdout: string; stderr: string };

export function runCommand(command: string, args: string[]): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', (error) =>
      reject(new Error(`cannot run ${command}: ${error.message}`, { cause: error })),
    );
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
