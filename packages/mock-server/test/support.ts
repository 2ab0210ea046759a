import { request as httpRequest } from 'node:http';

export const key = (c: string) => `sk_live_${c.repeat(48)}`;
export const ada = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' };

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * One request over node:http, for what fetch refuses (TRACE, CONNECT-like methods, bodies that never end):
 * resolves with the response, or rejects when the connection fails.
 */
export function raw(url: string, method: string, headers: Record<string, string> = {}, body?: string | Buffer): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
