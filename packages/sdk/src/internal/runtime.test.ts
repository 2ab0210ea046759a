import { afterEach, expect, it, vi } from 'vitest';
import { VERSION } from '../version';
import { runtime, sdkHeaders } from './runtime';

afterEach(() => vi.unstubAllGlobals());

it('names Node with its version, and sends User-Agent and the X-Customers-Sdk headers', () => {
  expect(runtime()).toEqual(['node', process.versions.node]);
  expect(sdkHeaders()).toEqual({
    'User-Agent': `customers-api-sdk/${VERSION}`,
    'X-Customers-Sdk-Version': VERSION,
    'X-Customers-Sdk-Runtime': 'node',
    'X-Customers-Sdk-Runtime-Version': process.versions.node,
  });
});

it('tells Deno and Bun apart from Node (both also have process.versions.node), and edge runtimes', () => {
  vi.stubGlobal('Bun', { version: '1.4.5' });
  expect(runtime()).toEqual(['bun', '1.4.5']);
  vi.stubGlobal('Deno', { version: { deno: '2.9.6' } });
  expect(runtime()).toEqual(['deno', '2.9.6']);
  vi.unstubAllGlobals();
  vi.stubGlobal('EdgeRuntime', 'edge-runtime');
  expect(runtime()).toEqual(['edge', 'unknown']);
});

it('leaves User-Agent out in a browser, which would ignore it or preflight it', () => {
  vi.stubGlobal('process', undefined);
  vi.stubGlobal('window', {});
  vi.stubGlobal('document', {});
  expect(runtime()).toEqual(['browser', 'unknown']);
  expect(sdkHeaders()).toEqual({
    'X-Customers-Sdk-Version': VERSION,
    'X-Customers-Sdk-Runtime': 'browser',
    'X-Customers-Sdk-Runtime-Version': 'unknown',
  });
});
