// Test support (not used in production): loaded into a `shelfmark` child with
// `node --import …/peak-rss.ts`, it writes the process's peak resident set size in KiB
// (getrusage's ru_maxrss, which is /proc's VmHWM) to the file named by PEAK_RSS_FILE as the
// process exits, so a test can hold the real command to its memory bound.
import fs from 'node:fs';

const file = process.env.PEAK_RSS_FILE;
if (file) process.on('exit', () => fs.writeFileSync(file, String(process.resourceUsage().maxRSS)));
