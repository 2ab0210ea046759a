// close() whatever state the mock is in: a test's afterAll closes it even when its beforeAll failed before listen().
import { expect, it } from 'vitest';
import { createMockServer } from '../src/index.js';

it('close() before listen() resolves, and closing a listening mock still works after it', async () => {
  const mock = await createMockServer();
  await expect(mock.close()).resolves.toBeUndefined();
  const other = await createMockServer();
  const url = await other.listen(0);
  expect((await fetch(`${url}/api/customers`)).status).toBe(401);
  await expect(other.close()).resolves.toBeUndefined();
  expect(other.server.listening).toBe(false);
});
