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

it('names a runtime only by the version it gives: a Deno or Bun global without one, or Node without versions.node, is not it', () => {
  vi.stubGlobal('Deno', { version: {} });
  vi.stubGlobal('Bun', {});
  expect(runtime()).toEqual(['node', process.versions.node]);
  vi.stubGlobal('Deno', {});
  vi.stubGlobal('Bun', { version: '' });
  expect(runtime()).toEqual(['node', process.versions.node]);
  vi.stubGlobal('process', { versions: {} });
  expect(runtime()).toEqual(['unknown', 'unknown']);
  vi.stubGlobal('process', {});
  expect(runtime()).toEqual(['unknown', 'unknown']);
});

it('answers unknown, with a User-Agent, where nothing tells the runtime (no process, not a browser)', () => {
  vi.stubGlobal('process', undefined);
  expect(runtime()).toEqual(['unknown', 'unknown']);
  expect(sdkHeaders()['User-Agent']).toBe(`customers-api-sdk/${VERSION}`);
  expect(sdkHeaders()['X-Customers-Sdk-Runtime']).toBe('unknown');
});
