// Summarises a V8 .cpuprofile (from `node --cpu-prof`): self time by function and by file or
// package, so a hot path shows without opening Chrome DevTools.
import fs from 'node:fs';
import path from 'node:path';

/** Where `--profile` writes a served checkout's .cpuprofile files. */
export const profileDir = (root: string): string => path.join(root, 'tmp', 'bench-profiles');

/** Node's flags for a server started with `--profile` (none without it). */
export const profileNodeArgs = (root: string, profile: boolean): string[] =>
  profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir(root)}`] : [];

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
}

export interface ProfileSummary {
  readonly totalMs: number;
  /** Everything but `(idle)`: the percentages are of this. */
  readonly busyMs: number;
  readonly byFunction: readonly [string, number][];
  readonly byFile: readonly [string, number][];
}

/** `node_modules/fastify/lib/x.js` → `fastify`; a project file → its path from src/. */
export function fileGroup(url: string): string {
  if (!url) return '(native, gc)';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + 'node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  const src = url.search(/\/(src|bench|test)\//);
  if (src >= 0) return url.slice(src + 1);
  return url.startsWith('node:') ? url : url.replace(/^file:\/\//, '');
}

export function summariseProfile(file: string, top = 25): ProfileSummary {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const samples = profile.samples?.length ?? profile.nodes.reduce((n, x) => n + (x.hitCount ?? 0), 0);
  const msPerSample = samples ? (profile.endTime - profile.startTime) / 1000 / samples : 0;
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  let busyMs = 0;
  for (const node of profile.nodes) {
    const ms = (node.hitCount ?? 0) * msPerSample;
    const { functionName, url, lineNumber } = node.callFrame;
    if (!ms || functionName === '(idle)') continue;
    busyMs += ms;
    const name = `${functionName || '(anonymous)'} ${fileGroup(url)}:${lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
    byFile.set(fileGroup(url), (byFile.get(fileGroup(url)) ?? 0) + ms);
  }
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top);
  return {
    totalMs: (profile.endTime - profile.startTime) / 1000,
    busyMs,
    byFunction: sorted(byFunction),
    byFile: sorted(byFile),
  };
}

export function profileText(file: string, summary: ProfileSummary): string {
  const pct = (ms: number) => ((100 * ms) / summary.busyMs).toFixed(1).padStart(5) + ' %';
  const s = (ms: number) => (ms / 1000).toFixed(1) + ' s';
  return [
    `profile ${file}: ${s(summary.busyMs)} busy of ${s(summary.totalMs)}; self time as % of busy`,
    '  by file / package:',
    ...summary.byFile.map(([name, ms]) => `    ${pct(ms)}  ${name}`),
    '  by function:',
    ...summary.byFunction.map(([name, ms]) => `    ${pct(ms)}  ${name}`),
  ].join('\n');
}
