// The browser tests (MSW in a real browser, the dashboard) drive Debian's Chromium with playwright-core.
// `playwright install` is never used (its browser downloads are unreachable here).
import { ensureDebianPackage } from './ensure-debian-package.mjs';

ensureDebianPackage({
  tool: 'chromium',
  pkg: 'chromium',
  candidates: [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'],
  hint: "Browser tests need Chromium. Install Debian's package (sudo apt-get install chromium) or set CHROMIUM_PATH.",
});
