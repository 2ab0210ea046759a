import { describe, expect, it } from 'vitest';
import { captureTraceContext } from './trace-context.js';
import { startTracing, tracingRequested } from './tracing.js';

describe('tracing switched by the OTEL_* environment', () => {
  it('is requested by an OTLP endpoint only, and not when the SDK or the traces exporter is turned off', () => {
    expect(tracingRequested({})).toBe(false);
    expect(tracingRequested({ OTEL_SERVICE_NAME: 'x' })).toBe(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' })).toBe(true);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4318/v1/traces' })).toBe(true);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SDK_DISABLED: 'true' })).toBe(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_TRACES_EXPORTER: 'none' })).toBe(false);
  });

  it('without an endpoint starts nothing, and writes carry no trace context', async () => {
    expect(await startTracing({})).toBeUndefined();
    expect(captureTraceContext()).toBeUndefined();
  });
});
