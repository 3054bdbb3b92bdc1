// A node:test reporter that test/run.ts adds beside `spec`: it writes one JSON object with
// the counts and every skip (with its reason), so the runner can close with a summary of
// what did not run and why. Not meant to be used on its own.
import path from 'node:path';

export type SkippedTest = { name: string; file: string; reason: string };
export type RunSummary = {
  passed: number;
  failed: number;
  skipped: number;
  todo: number;
  skips: SkippedTest[];
  /** Seconds each file's top-level tests took, summed: where a run's time goes. */
  fileSeconds: Record<string, number>;
};

type TestEventData = {
  name: string;
  file?: string;
  skip?: string | boolean;
  todo?: string | boolean;
  nesting?: number;
  details?: { type?: string; duration_ms?: number };
};
type TestEvent = { type: string; data: TestEventData };

export default async function* summaryReporter(source: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  const summary: RunSummary = { passed: 0, failed: 0, skipped: 0, todo: 0, skips: [], fileSeconds: {} };
  for await (const { type, data } of source) {
    const isSuite = data.details?.type === 'suite';
    if ((type === 'test:pass' || type === 'test:fail') && data.nesting === 0 && data.file) {
      const file = path.relative(process.cwd(), data.file);
      summary.fileSeconds[file] = (summary.fileSeconds[file] ?? 0) + (data.details?.duration_ms ?? 0) / 1000;
    }
    if (type === 'test:pass') {
      if (data.skip !== undefined && data.skip !== false) {
        summary.skipped += 1;
        summary.skips.push({
          name: data.name,
          file: data.file ? path.relative(process.cwd(), data.file) : '',
          reason: typeof data.skip === 'string' && data.skip !== '' ? data.skip : 'no reason given',
        });
      } else if (data.todo !== undefined && data.todo !== false) summary.todo += 1;
      else if (!isSuite) summary.passed += 1;
    } else if (type === 'test:fail') {
      // A failing todo test does not fail the run. Suites are not counted: when a suite's
      // hook fails, its tests are reported as failed (cancelled) one by one, as in spec's counts.
      if (data.todo !== undefined && data.todo !== false) summary.todo += 1;
      else if (!isSuite) summary.failed += 1;
    }
  }
  yield JSON.stringify(summary) + '\n';
}
