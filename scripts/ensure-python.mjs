// The HTTP mock's SDK-free client test is a Python 3 script (standard library only) run against the built bin.
import { delimiter, join } from 'node:path';
import { ensureDebianPackage } from './ensure-debian-package.mjs';

const onPath = (process.env.PATH ?? '').split(delimiter).filter(Boolean).map((dir) => join(dir, 'python3'));

ensureDebianPackage({
  tool: 'python3',
  pkg: 'python3',
  candidates: [process.env.PYTHON3_PATH, ...onPath, '/usr/bin/python3'],
  hint: "The mock server's Python client test needs python3. Install Debian's package (sudo apt-get install python3) or set PYTHON3_PATH.",
});
