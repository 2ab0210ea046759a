import { describe, expect, it } from 'vitest';
import { withBareTrustProxy } from './serve-command.js';

describe('serve --trust-proxy', () => {
  it('reads a bare --trust-proxy (last, or before another flag) as one hop, and leaves values alone', () => {
    expect(withBareTrustProxy(['--trust-proxy'])).toEqual(['--trust-proxy=true']);
    expect(withBareTrustProxy(['--trust-proxy', '--port', '0'])).toEqual(['--trust-proxy=true', '--port', '0']);
    expect(withBareTrustProxy(['--trust-proxy', '2'])).toEqual(['--trust-proxy', '2']);
    expect(withBareTrustProxy(['--trust-proxy', '10.0.0.0/8,fd00::/8'])).toEqual(['--trust-proxy', '10.0.0.0/8,fd00::/8']);
  });
});
