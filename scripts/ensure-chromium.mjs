// The browser tests (MSW in a real browser, the dashboard) drive Debian's Chromium with playwright-core.
// A clean machine has only Node and npm, so install it here when missing and we are allowed to (root + apt);
// `playwright install` is never used (its browser downloads are unreachable here).
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean);
const found = candidates.find((path) => existsSync(path));
if (found) {
  console.log(`chromium: ${found}`);
  process.exit(0);
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (!isRoot || !existsSync('/usr/bin/apt-get')) {
  console.error(
    'Browser tests need Chromium. Install Debian\'s package (sudo apt-get install chromium) or set CHROMIUM_PATH.',
  );
  process.exit(1);
}

console.log('chromium: not found, installing Debian\'s package (apt-get install chromium)...');
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium'], { stdio: 'inherit', env });
console.log('chromium: installed at /usr/bin/chromium');
