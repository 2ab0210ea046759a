import type { resources as Resources } from '@opentelemetry/sdk-node';
import { redactArgs } from './redact-args.js';

type ResourceDetector = Resources.ResourceDetector;

/**
 * The SDK's resource detectors as `OTEL_NODE_RESOURCE_DETECTORS` names them (default: env, process and host, as the
 * SDK's own default), with the process detector's `process.command_args` redacted ({@link redactArgs}): the
 * command line carries `--database postgres://user:password@…`, and every exported span repeats the resource.
 *
 * @example
 * new NodeSDK({ resourceDetectors: resourceDetectors(resources, process.env) });
 */
export function resourceDetectors(resources: typeof Resources, env: NodeJS.ProcessEnv): ResourceDetector[] {
  const safeProcess: ResourceDetector = {
    detect(config) {
      const { attributes = {} } = resources.processDetector.detect(config);
      return { attributes: { ...attributes, 'process.command_args': redactArgs([process.argv[0]!, ...process.execArgv, ...process.argv.slice(1)]) } };
    },
  };
  const byName: Record<string, ResourceDetector> = {
    env: resources.envDetector,
    host: resources.hostDetector,
    os: resources.osDetector,
    process: safeProcess,
    serviceinstance: resources.serviceInstanceIdDetector,
  };
  const names = (env.OTEL_NODE_RESOURCE_DETECTORS ?? 'env,process,host').split(',').map((name) => name.trim());
  if (names.includes('none')) return [];
  if (names.includes('all')) return Object.values(byName);
  return names.flatMap((name) => byName[name] ?? []);
}
