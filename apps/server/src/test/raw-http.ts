import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Milliseconds from connecting until the server closed the connection. */
  elapsedMs: number;
}

/**
 * Sends `text` as-is on a fresh TCP connection (requests Node's own client would refuse to send: no Host, a body
 * that never arrives) and resolves with what the server answered once it closes the connection.
 */
export function rawExchange(url: string, text: string): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(Number(port), hostname, () => socket.write(text));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      try {
        resolve({ ...parseResponse(Buffer.concat(chunks).toString('utf8')), elapsedMs: performance.now() - started });
      } catch (error) {
        reject(error);
      }
    });
  });
}

function parseResponse(raw: string): Omit<RawResponse, 'elapsedMs'> {
  const end = raw.indexOf('\r\n\r\n');
  if (end === -1) throw new Error(`no HTTP response before the connection closed: ${JSON.stringify(raw)}`);
  const [statusLine, ...lines] = raw.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine!.split(' ')[1]), headers, body: raw.slice(end + 4) };
}
