import { describe, expect, it, vi } from 'vitest';
import { APIPromise } from './api-promise';
import { NotFoundError } from './errors';

const response = new Response(null, { headers: { 'x-request-id': 'req_1' } });
const ok = () => new APIPromise<{ id: string }>(() => Promise.resolve({ data: { id: 'c1' }, response }));
const failed = (error: unknown) => new APIPromise<{ id: string }>(() => Promise.reject(error));
const notFound = () => new NotFoundError('404 Not Found', { status: 404, requestId: 'req_2', headers: new Headers(), body: '' });

describe('APIPromise', () => {
  it('.catch() passes the data through when the call succeeds, and handles a failure', async () => {
    const handler = vi.fn(() => 'handled');
    expect(await ok().catch(handler)).toEqual({ id: 'c1' });
    expect(handler).not.toHaveBeenCalled();
    const error = notFound();
    expect(await failed(error).catch(handler)).toBe('handled');
    expect(handler).toHaveBeenCalledWith(error);
  });

  it('.finally() runs its callback and passes the data or the error through unchanged', async () => {
    const onFinally = vi.fn();
    expect(await ok().finally(onFinally)).toEqual({ id: 'c1' });
    expect(onFinally).toHaveBeenCalledTimes(1);
    const error = notFound();
    await expect(failed(error).finally(onFinally)).rejects.toBe(error);
    expect(onFinally).toHaveBeenCalledTimes(2);
  });

  it('.then() without callbacks resolves with the data, not the response', async () => {
    expect(await ok().then()).toEqual({ id: 'c1' });
    expect(await ok().then((data) => data.id)).toBe('c1');
  });

  it('.withResponse() and .result() carry the request id; .result() rethrows what is not an SDK error', async () => {
    expect(await ok().withResponse()).toEqual({ data: { id: 'c1' }, response, requestId: 'req_1' });
    expect(await ok().result()).toEqual({ data: { id: 'c1' }, error: undefined, requestId: 'req_1' });
    const error = notFound();
    expect(await failed(error).result()).toEqual({ data: undefined, error, requestId: 'req_2' });
    const bug = new TypeError('bug');
    await expect(failed(bug).result()).rejects.toBe(bug);
  });

  it('is tagged APIPromise', () => {
    expect(Object.prototype.toString.call(ok())).toBe('[object APIPromise]');
  });
});
