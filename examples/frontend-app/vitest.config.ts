import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // A test DOM: window and document exist, so the SDK needs dangerouslyAllowBrowser (see the test's client).
    environment: 'happy-dom',
  },
});
