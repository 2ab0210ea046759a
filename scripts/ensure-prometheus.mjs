// The server's metrics test starts Debian's prometheus (and its promtool) on a free loopback port.
import { ensureDebianPackage } from './ensure-debian-package.mjs';

ensureDebianPackage({
  tool: 'prometheus',
  pkg: 'prometheus',
  candidates: [process.env.PROMETHEUS_PATH, '/usr/bin/prometheus'],
  hint: "The metrics test needs prometheus and promtool. Install Debian's package (sudo apt-get install prometheus) or set PROMETHEUS_PATH.",
});
