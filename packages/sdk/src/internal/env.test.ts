import { afterEach, describe, expect, it, vi } from 'vitest';
import { readEnv } from './env';

describe('readEnv', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.unstubAllGlobals();
  });

  it('reads a variable trimmed, and treats unset, empty and blank alike', () => {
    vi.stubEnv('SDK_TEST_VALUE', '  value \n');
    expect(readEnv('SDK_TEST_VALUE')).toBe('value');
    vi.stubEnv('SDK_TEST_VALUE', '');
    expect(readEnv('SDK_TEST_VALUE')).toBeUndefined();
    vi.stubEnv('SDK_TEST_VALUE', ' \t ');
    expect(readEnv('SDK_TEST_VALUE')).toBeUndefined();
    expect(readEnv('SDK_TEST_UNSET_VARIABLE')).toBeUndefined();
  });

  it('answers undefined where there is no process.env, or reading it throws (a locked-down runtime)', () => {
    vi.stubGlobal('process', undefined);
    expect(readEnv('PATH')).toBeUndefined();
    vi.stubGlobal('process', {});
    expect(readEnv('PATH')).toBeUndefined();
    vi.stubGlobal('process', {
      get env(): never {
        throw new Error('env access denied');
      },
    });
    expect(readEnv('PATH')).toBeUndefined();
  });
});
