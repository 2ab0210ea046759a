import { afterEach, describe, expect, it, vi } from 'vitest';
import { TimeoutError, UserAbortError } from '../core/errors';
import { abortError as abortErrorWith } from './abort-error';
import * as texts from './error-hints';
import { sleep } from './sleep';

// The client passes the lazy chunk's texts; these tests pass the same module.
const abortError = (signal?: AbortSignal, cause?: unknown) => abortErrorWith(texts, signal, cause);

describe('sleep', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('resolves after the delay and leaves no timer or listener behind', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const remove = vi.spyOn(controller.signal, 'removeEventListener');
    let done = false;
    const slept = sleep(1000, controller.signal, abortError).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await slept;
    expect(done).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    expect(remove).toHaveBeenCalledWith('abort', expect.any(Function));
  });

  it('rejects at once when aborted, before or during the wait, and clears its timer', async () => {
    vi.useFakeTimers();
    const before = new AbortController();
    before.abort();
    await expect(sleep(1000, before.signal, abortError)).rejects.toBeInstanceOf(UserAbortError);
    const during = new AbortController();
    const slept = sleep(1000, during.signal, abortError);
    during.abort();
    await expect(slept).rejects.toBeInstanceOf(UserAbortError);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('abortError', () => {
  it('is a TimeoutError for a deadline (AbortSignal.timeout), else a UserAbortError, with the reason as cause', () => {
    const deadline = new DOMException('signal timed out', 'TimeoutError');
    const timedOut = abortError({ reason: deadline } as AbortSignal);
    expect(timedOut).toBeInstanceOf(TimeoutError);
    expect(timedOut.cause).toBe(deadline);
    expect(timedOut.message).toBe('The call ran past the deadline of its AbortSignal (AbortSignal.timeout()); it was not retried.');
    const stop = new Error('stop');
    const aborted = abortError({ reason: stop } as AbortSignal);
    expect(aborted).toBeInstanceOf(UserAbortError);
    expect(aborted.cause).toBe(stop);
    expect(aborted.message).toBe('The request was aborted by the caller (its AbortSignal fired); it was not retried.');
  });

  it('falls back to the cause it is given when the signal has no reason', () => {
    const cause = new DOMException('signal timed out', 'TimeoutError');
    expect(abortError(undefined, cause)).toBeInstanceOf(TimeoutError);
    expect(abortError({ reason: undefined } as AbortSignal, cause).cause).toBe(cause);
    expect(abortError().cause).toBeUndefined();
  });
});
