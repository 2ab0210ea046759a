import { OPERATIONS, type Operation } from './operations.js';

/** Where a request lands: an operation (with its path parameters), a known path with another method, or nowhere. */
export type RouteMatch =
  | { kind: 'operation'; operation: Operation; params: Record<string, string>; head: boolean }
  | { kind: 'method_not_allowed'; allowed: readonly string[] }
  | { kind: 'not_found' };

interface PathRoute {
  template: string;
  pattern: RegExp;
  names: string[];
  byMethod: Map<string, Operation>;
  /** The `Allow` header's methods: the operations' own, plus HEAD wherever GET is (answered like GET). */
  allowed: readonly string[];
}

const PATHS: PathRoute[] = [];
for (const operation of OPERATIONS) {
  let route = PATHS.find((candidate) => candidate.template === operation.path);
  if (!route) {
    const names: string[] = [];
    const source = operation.path
      .split(/\{(\w+)\}/)
      .map((part, i) => (i % 2 === 1 ? (names.push(part), '([^/]+)') : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
      .join('');
    route = { template: operation.path, pattern: new RegExp(`^${source}$`), names, byMethod: new Map(), allowed: [] };
    PATHS.push(route);
  }
  route.byMethod.set(operation.method, operation);
}
for (const route of PATHS) {
  const methods = [...route.byMethod.keys()];
  route.allowed = methods.flatMap((method) => (method === 'GET' ? ['GET', 'HEAD'] : [method]));
}

/**
 * Routes a request by method and raw path (without query string), from openapi.yaml's paths. Path parameters
 * are percent-decoded; one that is not valid percent-encoding is kept as sent (it can be no valid id, so the
 * operation answers 404 like any missing customer). HEAD is answered like GET without a body.
 *
 * @example
 * routeRequest('PATCH', '/api/customers/3f1c…'); // { kind: 'operation', operation: updateCustomer, params: { id } }
 * routeRequest('PUT', '/api/customers');         // { kind: 'method_not_allowed', allowed: ['POST'] }
 */
export function routeRequest(method: string, path: string): RouteMatch {
  for (const route of PATHS) {
    const match = route.pattern.exec(path);
    if (!match) continue;
    const upper = method.toUpperCase();
    const head = upper === 'HEAD';
    const operation = route.byMethod.get(head ? 'GET' : upper);
    if (!operation) return { kind: 'method_not_allowed', allowed: route.allowed };
    const params: Record<string, string> = {};
    // Stryker disable next-line StringLiteral: every named group takes part in a match, so the ?? fallback never runs
    route.names.forEach((name, i) => (params[name] = decodeSegment(match[i + 1] ?? '')));
    return { kind: 'operation', operation, params, head };
  }
  return { kind: 'not_found' };
}

/** The path templates of openapi.yaml with the methods each allows, for hosts that register routes. */
export function apiPaths(): ReadonlyArray<{ template: string; allowed: readonly string[] }> {
  return PATHS.map(({ template, allowed }) => ({ template, allowed }));
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
