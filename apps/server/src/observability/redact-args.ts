/** What a redacted argument or part of one reads as. */
export const REDACTED_ARG = '[redacted]';

/** Flags whose value is a secret whatever it looks like (a token, a password, a key). */
const SECRET_FLAG = /^--?[\w-]*(secret|token|password|passwd|key)[\w-]*$/i;

/**
 * A URL without its credentials (user and password), or the text unchanged when it is no URL with them. The
 * user goes too: with a password in an environment variable or a `.pgpass`, the user name is still half a login.
 *
 * @example
 * withoutCredentials('postgres://app:s3cret@db:5432/customers'); // "postgres://db:5432/customers"
 */
export function withoutCredentials(text: string): string {
  // Stryker disable next-line Regex: only URLs with an authority can carry credentials
  if (!/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(text)) return text;
  try {
    const url = new URL(text);
    url.username = '';
    url.password = '';
    return url.toString();
  } catch {
    return text.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1');
  }
}

/**
 * Command-line arguments as telemetry may show them: URLs without credentials, the value of any flag named like a
 * secret (`--control-token X`, `--api-key=X`) redacted whole.
 *
 * @example
 * redactArgs(['serve', '--database', 'postgres://u:p@db/c', '--token=t']); // ['serve', '--database', 'postgres://db/c', '--token=[redacted]']
 */
export function redactArgs(args: readonly string[]): string[] {
  return args.map((arg, index) => {
    const [flag, ...value] = arg.split('=');
    if (value.length > 0 && SECRET_FLAG.test(flag!)) return `${flag}=${REDACTED_ARG}`;
    if (index > 0 && SECRET_FLAG.test(args[index - 1]!) && !args[index - 1]!.includes('=')) return REDACTED_ARG;
    return value.length > 0 ? `${flag}=${withoutCredentials(value.join('='))}` : withoutCredentials(arg);
  });
}
