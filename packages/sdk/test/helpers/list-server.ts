import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { ADA } from './fixtures';

/** How the server answers one request: normally, with a 503, or never. */
export type ListMode = 'ok' | '503' | 'hang';

export interface ListServer {
  baseUrl: string;
  /** Every request's path and query exactly as it arrived (percent-encoding intact), with its headers. */
  requests: Array<{ url: string; headers: IncomingMessage['headers'] }>;
  /** Modes for the next requests, consumed one per request; `ok` when empty. */
  plan: ListMode[];
  close(): Promise<void>;
}

/** `count` customers, newest first, one minute apart; the second one's email is `ada+tag@example.com`. */
export function customers(count: number) {
  return Array.from({ length: count }, (_, i) => ({
    ...ADA,
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    email: i === 1 ? 'ada+tag@example.com' : `customer${i}@example.com`,
    status: i % 2 === 0 ? ('active' as const) : ('inactive' as const),
    created_at: new Date(Date.UTC(2026, 10, 25, 12, 0) - i * 60_000).toISOString(),
  }));
}

const FILTERS = ['email', 'status', 'created_after', 'created_before'] as const;
const ALLOWED = new Set<string>(['limit', 'cursor', ...FILTERS]);

type Answer = { status: number; body: unknown };
const bad = (message: string): Answer => ({ status: 400, body: { error: 'Bad Request', message } });

/** GET /api/customers over `all` as openapi.yaml describes it; the cursor carries the offset and the filters. */
function list(all: ReturnType<typeof customers>, query: URLSearchParams): Answer {
  for (const name of query.keys()) if (!ALLOWED.has(name)) return bad(`${name} is not an allowed query parameter`);
  const limit = Number(query.get('limit') ?? 20);
  if (!Number.isInteger(limit)) return bad('limit must be an integer');
  if (limit < 1) return bad('limit must be at least 1');
  if (limit > 100) return bad('limit must be at most 100');
  const filters = JSON.stringify(FILTERS.map((f) => query.get(f)));
  let offset = 0;
  const cursor = query.get('cursor');
  if (cursor !== null) {
    const decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as { offset: number; filters: string };
    if (decoded.filters !== filters) return bad('cursor is not valid for this query; pass the next_cursor of the previous page with the same filters');
    offset = decoded.offset;
  }
  const email = query.get('email')?.toLowerCase();
  const [after, before] = [query.get('created_after'), query.get('created_before')];
  const matching = all.filter(
    (c) =>
      (email === undefined || c.email.toLowerCase() === email) &&
      (query.get('status') === null || c.status === query.get('status')) &&
      (after === null || c.created_at >= new Date(after).toISOString()) &&
      (before === null || c.created_at < new Date(before).toISOString()),
  );
  const data = matching.slice(offset, offset + limit);
  const has_more = offset + limit < matching.length;
  const next = Buffer.from(JSON.stringify({ offset: offset + limit, filters })).toString('base64url');
  return { status: 200, body: { data, has_more, next_cursor: has_more ? next : null } };
}

/** A real HTTP server on 127.0.0.1 that pages `all` and can be told to fail or hang chosen requests. */
export async function startListServer(all: ReturnType<typeof customers>): Promise<ListServer> {
  const requests: ListServer['requests'] = [];
  const state = { plan: [] as ListMode[] };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    requests.push({ url: req.url ?? '', headers: req.headers });
    const mode = state.plan.shift() ?? 'ok';
    if (mode === 'hang') return;
    const url = new URL(req.url ?? '/', 'http://localhost');
    const answer: Answer =
      mode === '503'
        ? { status: 503, body: { error: 'Service Unavailable', message: 'try again' } }
        : url.pathname === '/api/customers' && req.method === 'GET'
          ? list(all, url.searchParams)
          : { status: 404, body: { error: 'Not Found', message: 'Not found' } };
    res.writeHead(answer.status, { 'content-type': 'application/json', 'x-request-id': `req_${requests.length}` });
    res.end(JSON.stringify(answer.body));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    requests,
    get plan() {
      return state.plan;
    },
    set plan(modes: ListMode[]) {
      state.plan = modes;
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
