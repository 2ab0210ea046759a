import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { deref, loadOpenApi, type OpenApiDocument, type Schema } from '../spec/load-documents.js';

/** One observed HTTP exchange, reduced to what the contract speaks about. */
export interface Exchange {
  method: string;
  /** The request path, e.g. `/api/customers/3f1c…` (query string allowed). */
  path: string;
  status: number;
  headers: Headers;
  /** Raw response body text ('' when empty). */
  body: string;
}

export interface Verdict {
  operationId: string | undefined;
  violations: string[];
}

/**
 * Checks responses against openapi.yaml: the operation must document the status, every header the spec marks
 * `required` must be there and every documented header must match its schema, the content type must match and the body must
 * validate against the documented schema. Any undocumented status, header or shape is a violation.
 */
export function createResponseValidator(doc: OpenApiDocument = loadOpenApi()) {
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema({ ...(doc as object), $id: 'openapi.json' });

  const routes = Object.entries(doc.paths).flatMap(([template, item]) =>
    Object.entries(item)
      .filter(([method]) => ['get', 'post', 'patch', 'put', 'delete'].includes(method))
      .map(([method, operation]) => ({
        method: method.toUpperCase(),
        pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
        template,
        operation: operation as Schema,
      })),
  );

  function validate(exchange: Exchange): Verdict {
    const path = exchange.path.split('?')[0] ?? '';
    const route = routes.find((r) => r.method === exchange.method.toUpperCase() && r.pattern.test(path));
    if (!route) return { operationId: undefined, violations: [`${exchange.method} ${path} is not an operation of openapi.yaml`] };

    const operationId = route.operation.operationId as string;
    const where = `${operationId} ${exchange.status}`;
    const documented = route.operation.responses?.[String(exchange.status)];
    if (!documented) return { operationId, violations: [`${where}: status ${exchange.status} is not documented`] };

    const response = deref<Schema>(doc, documented);
    const violations: string[] = [];
    for (const [name, declared] of Object.entries(response.headers ?? {})) {
      const header = deref<Schema>(doc, declared as Schema);
      const value = exchange.headers.get(name);
      if (value === null) {
        if (header.required) violations.push(`${where}: header ${name} is missing`);
        continue;
      }
      const valid = header.schema ? ajv.validate(header.schema as object, value as unknown) : true;
      if (!valid) {
        violations.push(`${where}: header ${name} "${value.slice(0, 80)}" ${ajv.errorsText(ajv.errors)}`);
      }
    }

    const media = response.content?.['application/json'];
    if (!media) {
      if (exchange.body !== '') violations.push(`${where}: body must be empty, got ${exchange.body.slice(0, 80)}`);
      return { operationId, violations };
    }
    const contentType = exchange.headers.get('content-type') ?? '';
    if (!/^application\/json\b/i.test(contentType)) violations.push(`${where}: content-type is "${contentType}"`);

    let body: unknown;
    try {
      body = JSON.parse(exchange.body);
    } catch {
      violations.push(`${where}: body is not JSON: ${exchange.body.slice(0, 80)}`);
      return { operationId, violations };
    }
    const ref = media.schema?.$ref as string;
    const check = ajv.getSchema(`openapi.json${ref}`);
    if (!check) throw new Error(`cannot resolve ${ref}`);
    if (!check(body)) {
      for (const error of check.errors ?? []) violations.push(`${where}: body${error.instancePath} ${error.message}`);
    }
    return { operationId, violations };
  }

  /** Every (operationId, status) pair that openapi.yaml documents. */
  function documentedPairs(): string[] {
    return routes.flatMap((r) => Object.keys(r.operation.responses ?? {}).map((status) => `${r.operation.operationId} ${status}`));
  }

  return { validate, documentedPairs };
}

export type ResponseValidator = ReturnType<typeof createResponseValidator>;
