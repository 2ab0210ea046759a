// The server's shared rate-limit tests start a real redis-server of their own on a free loopback port.
import { ensureDebianPackage } from './ensure-debian-package.mjs';

ensureDebianPackage({
  tool: 'redis-server',
  pkg: 'redis-server',
  candidates: [process.env.REDIS_SERVER_PATH, '/usr/bin/redis-server'],
  hint: "Rate-limit tests need redis-server. Install Debian's package (sudo apt-get install redis-server) or set REDIS_SERVER_PATH.",
});
