// What the optional test suites need from the machine, checked in one place so that the
// test files (via `skipUnless`) and test/run.ts (in its closing summary) say the same thing.
// Locally a missing tool skips its suites; in CI (CI=true) nothing skips: the suite runs and
// fails on the missing tool, and test/run.ts fails the run up front.
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const NGINX_PATH = '/usr/sbin/nginx';
export const VNU_JAR = fileURLToPath(
  new URL('../../node_modules/vnu-jar/build/dist/vnu.jar', import.meta.url),
);

/** Where Debian's fail2ban keeps its stock filters. */
export const FAIL2BAN_FILTERS = '/etc/fail2ban/filter.d';

export type RequirementName =
  | 'postgres'
  | 'chromium'
  | 'xmllint'
  | 'java'
  | 'logrotate'
  | 'systemd-analyze'
  | 'nginx'
  | 'fail2ban'
  | 'oai-harvester'
  | 'feedparser';

/** Debian's OAI-PMH harvester (libhttp-oai-perl), which installs /usr/bin/oai_pmh beside it. */
export const OAI_HARVESTER_MODULE = '/usr/share/perl5/HTTP/OAI/Harvester.pm';

/** Debian's Universal Feed Parser for Python 3 (python3-feedparser), run by Debian's own Python. */
export const FEEDPARSER_MODULE = '/usr/lib/python3/dist-packages/feedparser/__init__.py';
export const DEBIAN_PYTHON = '/usr/bin/python3';

type Requirement = {
  /** Which suites skip without it, as the first words of the skip message. */
  suites: string;
  /** Why it is missing, or undefined when it is there. */
  missing: () => string | undefined;
};

const requirements: Record<RequirementName, Requirement> = {
  postgres: {
    suites: 'PostgreSQL suites',
    missing: () =>
      process.env.SHELFMARK_TEST_DATABASE_URL ? undefined : 'SHELFMARK_TEST_DATABASE_URL not set',
  },
  chromium: {
    suites: 'browser tests',
    missing: () => (isExecutable(CHROMIUM_PATH) ? undefined : `${CHROMIUM_PATH} not found`),
  },
  xmllint: {
    suites: 'XML Schema checks',
    missing: () => (onPath('xmllint') ? undefined : 'xmllint not found (Debian package libxml2-utils)'),
  },
  java: {
    suites: 'HTML validity checks',
    missing: () => {
      if (!onPath('java')) return 'java not found (Debian package default-jre-headless)';
      return isReadable(VNU_JAR) ? undefined : `${VNU_JAR} not found (npm install)`;
    },
  },
  logrotate: {
    suites: 'logrotate configuration checks',
    missing: () => (commandPath('logrotate') ? undefined : 'logrotate not found (Debian package logrotate)'),
  },
  'systemd-analyze': {
    suites: 'systemd unit checks',
    missing: () =>
      commandPath('systemd-analyze') ? undefined : 'systemd-analyze not found (Debian package systemd)',
  },
  nginx: {
    suites: 'reverse-proxy tests',
    missing: () => (isExecutable(NGINX_PATH) ? undefined : `${NGINX_PATH} not found (Debian package nginx)`),
  },
  fail2ban: {
    suites: 'fail2ban filter checks',
    missing: () => {
      if (!commandPath('fail2ban-regex')) return 'fail2ban-regex not found (Debian package fail2ban)';
      return isReadable(FAIL2BAN_FILTERS + '/apache-auth.conf')
        ? undefined
        : `${FAIL2BAN_FILTERS}/apache-auth.conf not found (Debian package fail2ban)`;
    },
  },
  'oai-harvester': {
    suites: 'OAI-PMH harvests',
    missing: () =>
      onPath('perl') && isReadable(OAI_HARVESTER_MODULE)
        ? undefined
        : `${OAI_HARVESTER_MODULE} not found (Debian package libhttp-oai-perl)`,
  },
  feedparser: {
    suites: 'Atom feed checks',
    missing: () =>
      isExecutable(DEBIAN_PYTHON) && isReadable(FEEDPARSER_MODULE)
        ? undefined
        : `${FEEDPARSER_MODULE} not found (Debian package python3-feedparser)`,
  },
};

export const requirementNames = Object.keys(requirements) as RequirementName[];

export function inCi(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.CI === 'true' || env.CI === '1';
}

/** The skip message for a missing requirement, e.g. "browser tests skipped: /usr/bin/chromium not found". */
export function missingRequirement(name: RequirementName): string | undefined {
  const requirement = requirements[name];
  const why = requirement.missing();
  return why === undefined ? undefined : `${requirement.suites} skipped: ${why}`;
}

/**
 * node:test options that skip a test or suite when a requirement is missing:
 * `test('renders', skipUnless('chromium'), async () => …)`. In CI it never skips, so the
 * test fails on the missing tool instead of passing unnoticed.
 */
export function skipUnless(...names: RequirementName[]): { skip: string | false } {
  if (inCi()) return { skip: false };
  for (const name of names) {
    const message = missingRequirement(name);
    if (message !== undefined) return { skip: message };
  }
  return { skip: false };
}

function onPath(command: string): boolean {
  const dirs = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  return dirs.some((dir) => isExecutable(path.join(dir, command)));
}

/**
 * Where a command is: on the PATH, or in the sbin folders a non-root PATH often lacks
 * (Debian's logrotate is /usr/sbin/logrotate). Undefined when it is nowhere.
 */
export function commandPath(command: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean), '/usr/sbin', '/sbin'];
  return dirs.map((dir) => path.join(dir, command)).find(isExecutable);
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function isReadable(file: string): boolean {
  try {
    accessSync(file, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}
