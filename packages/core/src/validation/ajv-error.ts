/** The subset of ajv's error object that the generated validators produce and the messages read. */
export interface AjvError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/** A validator compiled by scripts/generate.mjs: returns true or sets `errors`. */
export interface GeneratedValidator {
  (data: unknown): boolean;
  errors?: AjvError[] | null;
}
