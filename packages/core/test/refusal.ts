// Test support: what a call refused with, as `${status} ${message}`, for tests that compare refusals as text.
import { ApiError } from '../src/errors/api-error.js';

/** `'400 url must be …'` when the promise rejects with an ApiError, `'not refused'` when it resolves; rethrows anything else. */
export async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return `${error.status} ${error.message}`;
    throw error;
  }
  return 'not refused';
}
