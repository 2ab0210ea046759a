import pino, { type DestinationStream, type Logger } from 'pino';

/** Header paths that carry API keys or dashboard sessions: never written to a log. */
export const REDACTED_PATHS = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'headers["x-api-key"]',
  'headers.authorization',
  'key',
  'apiKey',
  // Dashboard session cookies, wherever a header object is logged.
  'req.headers.cookie',
  'headers.cookie',
];

/** The process logger: JSON lines, API keys redacted wherever a header object is logged. */
export function createLogger(level = 'info', destination?: DestinationStream): Logger {
  const options = { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
  return destination ? pino(options, destination) : pino(options);
}
