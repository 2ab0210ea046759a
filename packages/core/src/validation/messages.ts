import type { AjvError } from './ajv-error.js';

/** What is validated: a JSON body of properties, or a query string of parameters. */
export interface Subject {
  /** The name of the whole (`body`, `query`). */
  root: string;
  /** What its members are called (`property`, `query parameter`). */
  member: string;
}

const BODY: Subject = { root: 'body', member: 'property' };

/** `/address_data/city` → `address_data.city`; the root is called `body`. */
function propertyName(instancePath: string, root = 'body'): string {
  if (instancePath === '') return root;
  return instancePath
    .slice(1)
    .split('/')
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .join('.');
}

function child(instancePath: string, property: string): string {
  return instancePath === '' ? property : `${propertyName(instancePath)}.${property}`;
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  object: 'an object',
  null: 'null',
  number: 'a number',
  integer: 'an integer',
  boolean: 'a boolean',
  array: 'an array',
};

function typeList(type: unknown): string {
  const types = Array.isArray(type) ? type : [type];
  return types.map((t) => TYPE_NAMES[String(t)] ?? String(t)).join(' or ');
}

function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

/** One ajv error in the API's words, naming the property (`first_name is required`). */
function describe(error: AjvError, subject: Subject = BODY): string {
  const name = propertyName(error.instancePath, subject.root);
  const { params } = error;
  switch (error.keyword) {
    case 'required':
      return `${child(error.instancePath, String(params.missingProperty))} is required`;
    case 'additionalProperties':
      return `${child(error.instancePath, String(params.additionalProperty))} is not an allowed ${subject.member}`;
    case 'maxLength':
      return `${name} must be at most ${plural(Number(params.limit), 'character')}`;
    case 'minLength':
      return Number(params.limit) === 1
        ? `${name} must not be empty`
        : `${name} must be at least ${plural(Number(params.limit), 'character')}`;
    case 'minItems':
      return `${name} must have at least ${plural(Number(params.limit), 'item')}`;
    case 'maxItems':
      return `${name} must have at most ${plural(Number(params.limit), 'item')}`;
    case 'minProperties':
      return `${name} must have at least ${plural(Number(params.limit), 'property', 'properties')}`;
    case 'format':
      if (params.format === 'email') return `${name} must be a valid email address`;
      if (params.format === 'date-time') {
        return `${name} must be an ISO 8601 date-time with a time zone, such as 2026-11-25T09:30:00Z`;
      }
      return `${name} must be a valid ${String(params.format)}`;
    case 'minimum':
      return `${name} must be at least ${String(params.limit)}`;
    case 'maximum':
      return `${name} must be at most ${String(params.limit)}`;
    case 'enum':
      return `${name} must be one of: ${(params.allowedValues as unknown[]).map(String).join(', ')}`;
    case 'const':
      return `${name} must be ${String(params.allowedValue)}`;
    case 'type':
      return `${name} must be ${typeList(params.type)}`;
    case 'pattern':
      return `${name} has an invalid format`;
    default:
      return `${name} is invalid`;
  }
}

/**
 * The message for a failed validation. ajv stops at the first failing keyword; when that is an `anyOf`
 * (the spec's "X or null" unions) its branch errors come first, and the most useful of them is reported:
 * the wrong-type case names the whole union (`language must be a string or null`), anything deeper (an
 * unknown enum value, an address property) is reported as the branch saw it.
 */
export function messageFor(errors: readonly AjvError[], subject: Subject = BODY): string {
  const last = errors[errors.length - 1];
  if (!last) return `${subject.root} is invalid`;
  if (last.keyword !== 'anyOf') return describe(last, subject);

  // Validation stops at the first failing keyword, so every earlier error at or below the anyOf's
  // instance comes from its branches (a `$ref` branch reports a schemaPath inside $defs, not the anyOf).
  const branches = errors
    .slice(0, -1)
    .filter(
      (e) => e.instancePath === last.instancePath || e.instancePath.startsWith(`${last.instancePath}/`),
    );
  const name = propertyName(last.instancePath);
  const deeper = branches.find((e) => e.instancePath !== last.instancePath);
  if (deeper) return describe(deeper);
  const typeErrors = branches.filter((e) => e.keyword === 'type');
  const types = typeErrors.map((e) => e.params.type).flat();
  if (typeErrors.some((e) => e.params.type !== 'null')) return `${name} must be ${typeList(types)}`;
  // The value has the branch's type but breaks another of its keywords (an enum, an unknown property).
  const enumError = branches.find((e) => e.keyword === 'enum');
  if (enumError) {
    const values = (enumError.params.allowedValues as unknown[]).map(String).join(', ');
    return `${name} must be one of: ${values}${types.includes('null') ? ', or null' : ''}`;
  }
  const other = branches.find((e) => e.keyword !== 'type');
  return other ? describe(other) : `${name} must be ${typeList(types)}`;
}

/**
 * The top-level property a failed validation is about (the one {@link messageFor} names first: `address` for
 * `address.city`), or undefined when it is about the whole body. A form marks that field.
 */
export function fieldFor(errors: readonly AjvError[]): string | undefined {
  const last = errors[errors.length - 1];
  if (!last) return undefined;
  const top = last.instancePath.slice(1).split('/')[0];
  if (top) return top.replaceAll('~1', '/').replaceAll('~0', '~');
  if (last.keyword === 'required') return String(last.params.missingProperty);
  if (last.keyword === 'additionalProperties') return String(last.params.additionalProperty);
  return undefined;
}
