// Issue 11, item 13: running Shelfmark as a service. The systemd unit and the logrotate file in
// contrib/ are checked by the tools that will read them (systemd-analyze verify, logrotate -d),
// and what they do is tried on the real server: the unit's ExecStart serves, its ExecReload is
// a graceful restart (AH00171, new workers, same supervisor), and a real rotation by logrotate
// with the file's own options leaves the old lines in the renamed file and the new ones in a
// fresh one. Site-specific parts are replaced as an installer would: the install directory
// /opt/shelfmark by this checkout, /var/log/shelfmark by a temporary folder, and the
// postrotate's `systemctl kill` (no systemd runs here) by the same signal sent with kill.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { runCommand } from '../support/run-command.ts';
import { commandPath, skipUnless } from '../support/requirements.ts';
import { alive, readLines, ROOT, serve, tempDir, until } from '../faults/support.ts';

const UNIT = path.join(ROOT, 'contrib/systemd/shelfmark.service');
const LOGROTATE = path.join(ROOT, 'contrib/logrotate/shelfmark');
const INSTALL_DIR = '/opt/shelfmark';

/** The unit as installed from this checkout: /opt/shelfmark is where the README puts it. */
function installedUnit(): string {
  return fs.readFileSync(UNIT, 'utf8').replaceAll(INSTALL_DIR, ROOT);
}

/** The value of `Key=` in the unit (the only one: the test fails when there are several). */
function directive(unit: string, key: string): string {
  const values = [...unit.matchAll(new RegExp(`^${key}=(.*)$`, 'gm'))].map((m) => m[1]!);
  assert.equal(values.length, 1, `one ${key}= in the unit`);
  return values[0]!;
}

describe('contrib/systemd/shelfmark.service', () => {
  test('systemd-analyze verify finds nothing to complain about', skipUnless('systemd-analyze'), async () => {
    const dir = tempDir('shelfmark-unit-');
    try {
      const file = path.join(dir, 'shelfmark.service');
      fs.writeFileSync(file, installedUnit());
      const result = await runCommand(commandPath('systemd-analyze') ?? 'systemd-analyze', ['verify', file]);
      // Unknown keys and bad values are warnings with exit code 0: any output is a finding.
      assert.deepEqual(result, { code: 0, stdout: '', stderr: '' });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('ExecStart serves; ExecReload restarts the workers gracefully; stopping is TERM to the supervisor', async (t) => {
    const unit = installedUnit();
    assert.equal(directive(unit, 'KillMode'), 'mixed', 'TERM to the supervisor alone: it stops its workers');
    assert.equal(directive(unit, 'KillSignal'), 'SIGTERM');
    const s = await serve({ workers: 1, shell: `exec ${directive(unit, 'ExecStart')}` });
    t.after(() => s.stop());
    const [oldWorker] = s.ready();
    assert.equal((await fetch(`${s.base}/`)).status, 200, 'ExecStart serves');

    // systemd runs ExecReload with $MAINPID set to the supervisor's pid.
    const reload = directive(unit, 'ExecReload').replace('$MAINPID', String(s.pid));
    execFileSync('sh', ['-c', reload]);
    const restarted = () =>
      readLines(s.errorLog).some((l) => /AH00171: Graceful restart requested, doing restart$/.test(l));
    assert.ok(
      await until(() => restarted() && s.ready().length >= 2 && !alive(oldWorker!), 60_000),
      s.output(),
    );
    assert.ok(alive(s.pid), 'the supervisor is the same process');
    assert.equal((await fetch(`${s.base}/`)).status, 200, 'the new worker answers');
  });
});

describe('contrib/systemd/shelfmark-notices.timer and .service', () => {
  const NOTICES = ['shelfmark-notices.service', 'shelfmark-notices.timer'];
  const installed = (name: string) =>
    fs.readFileSync(path.join(ROOT, 'contrib/systemd', name), 'utf8').replaceAll(INSTALL_DIR, ROOT);

  test('systemd-analyze verify finds nothing to complain about', skipUnless('systemd-analyze'), async () => {
    const dir = tempDir('shelfmark-notices-unit-');
    try {
      for (const name of NOTICES) fs.writeFileSync(path.join(dir, name), installed(name));
      const result = await runCommand(commandPath('systemd-analyze') ?? 'systemd-analyze', [
        'verify',
        ...NOTICES.map((name) => path.join(dir, name)),
      ]);
      assert.deepEqual(result, { code: 0, stdout: '', stderr: '' });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the timer starts the service, whose ExecStart is `shelfmark notices`', () => {
    const timer = installed('shelfmark-notices.timer');
    assert.equal(directive(timer, 'Unit'), 'shelfmark-notices.service');
    assert.equal(directive(timer, 'Persistent'), 'true');
    const service = installed('shelfmark-notices.service');
    assert.equal(directive(service, 'Type'), 'oneshot');
    // Run as the unit would, without an SMTP server configured: it says what is missing (exit 2).
    const [command, ...args] = directive(service, 'ExecStart').split(' ');
    const dir = tempDir('shelfmark-notices-run-');
    try {
      const result = spawnSync(command!, args, {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, SHELFMARK_DATA_DIR: dir, SHELFMARK_LOG_DIR: dir, SHELFMARK_SMTP_HOST: '' },
      });
      assert.equal(result.status, 2, result.stderr);
      assert.match(result.stderr, /SHELFMARK_SMTP_HOST \(--smtp-host\) is not set/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('contrib/logrotate/shelfmark', skipUnless('logrotate'), () => {
  const logrotate = () => commandPath('logrotate') ?? 'logrotate';
  const config = (logDir: string, postrotate?: string) => {
    let text = fs.readFileSync(LOGROTATE, 'utf8').replaceAll('/var/log/shelfmark', logDir);
    if (postrotate !== undefined) {
      const line = /^\s*systemctl kill --kill-whom=main --signal=HUP shelfmark\.service\b.*$/m;
      assert.match(text, line, 'the postrotate script sends HUP to the main process');
      text = text.replace(line, `\t\t${postrotate}`);
    }
    return text;
  };

  test('logrotate -d reads it without an error', async () => {
    const dir = tempDir('shelfmark-logrotate-');
    try {
      fs.mkdirSync(path.join(dir, 'logs'));
      for (const name of ['access.log', 'error.log']) fs.writeFileSync(path.join(dir, 'logs', name), 'x\n');
      fs.writeFileSync(path.join(dir, 'conf'), config(path.join(dir, 'logs')));
      const result = await runCommand(logrotate(), [
        '-d',
        '-s',
        path.join(dir, 'state'),
        path.join(dir, 'conf'),
      ]);
      assert.equal(result.code, 0, result.stderr);
      assert.doesNotMatch(result.stdout + result.stderr, /^error:/m);
      assert.match(result.stderr, /rotating pattern: \S+\/logs\/\*\.log/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a forced rotation of a running server: old lines in the renamed files, new lines in new ones', async (t) => {
    const s = await serve({ workers: 1 });
    t.after(() => s.stop());
    const logDir = path.dirname(s.accessLog);
    assert.equal((await fetch(`${s.base}/?n=1`)).status, 200);
    assert.ok(await until(() => readLines(s.accessLog).some((l) => l.includes('/?n=1')), 10_000));

    const conf = path.join(s.dir, 'logrotate.conf');
    fs.writeFileSync(conf, config(logDir, `kill -HUP ${s.pid}`));
    const result = await runCommand(logrotate(), ['-f', '-s', path.join(s.dir, 'state'), conf]);
    assert.equal(result.code, 0, result.stderr);

    const rotated = fs.readdirSync(logDir).filter((f) => /^access\.log-\d{8}$/.test(f));
    assert.equal(rotated.length, 1, fs.readdirSync(logDir).join(' '));
    assert.ok(readLines(path.join(logDir, rotated[0]!)).some((l) => l.includes('/?n=1')));
    // The supervisor and its worker reopen on HUP, a moment after logrotate returns: until the
    // worker has, its lines still go to the renamed file, which is right. Every request lands in
    // exactly one of the two files, and once one lands in the new file, the rest follow it.
    let sent = 0;
    assert.ok(
      await until(async () => {
        sent += 1;
        await fetch(`${s.base}/?n=after-${sent}`);
        return readLines(s.accessLog).some((l) => l.includes(`/?n=after-${sent} `));
      }, 20_000),
      'a request after the rotation is in the new access.log',
    );
    const old = readLines(path.join(logDir, rotated[0]!));
    const fresh = readLines(s.accessLog);
    for (let n = 1; n <= sent; n++) {
      const mark = `/?n=after-${n} `;
      const where = [old.some((l) => l.includes(mark)), fresh.some((l) => l.includes(mark))];
      assert.equal(where.filter(Boolean).length, 1, `${mark.trim()}: in exactly one file (${String(where)})`);
    }
    assert.ok(!old.some((l) => l.includes('/?n=1 ')) || !fresh.some((l) => l.includes('/?n=1 ')));
  });
});
