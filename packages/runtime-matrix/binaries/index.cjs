// Absolute paths of the pinned runtime binaries, resolved from this package's own dependencies.
const { dirname, join } = require('node:path');

const packageDir = (name) => dirname(require.resolve(`${name}/package.json`));

module.exports = {
  bun: join(packageDir('@oven/bun-linux-x64'), 'bin', 'bun'),
  deno: join(packageDir('@deno/linux-x64-glibc'), 'deno'),
};
