import type { Target } from '../targets/target.js';

export interface RawOptions {
  key?: string | undefined;
  /** Send the key as `Authorization: Bearer` instead of `X-API-Key`. */
  bearer?: boolean;
  /** A JSON value, sent as application/json. */
  body?: unknown;
  /** The exact body bytes or text (content type from `contentType`, default application/json). */
  raw?: string | Uint8Array;
  contentType?: string;
  headers?: Record<string, string>;
}

export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
  json: any;
  /** The same as `json` (so raw responses and SDK outcomes record alike in transcripts). */
  body: any;
}

/** Raw HTTP through the target's checked fetch: for what the SDK refuses to send. */
export async function send(target: Target, method: string, path: string, options: RawOptions = {}): Promise<RawResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) {
    if (options.bearer) headers.authorization = `Bearer ${options.key}`;
    else headers['x-api-key'] = options.key;
  }
  let body: string | Uint8Array | undefined;
  if (options.raw !== undefined) body = options.raw;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers['content-type'] ??= options.contentType ?? 'application/json';
  const response = await target.fetch(`${target.baseUrl}${path}`, { method, headers, body: body as BodyInit | undefined });
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json, body: json };
}
