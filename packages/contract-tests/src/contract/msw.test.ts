import { startMswTarget } from '../targets/msw-target.js';
import { scenarios } from '../scenarios/index.js';
import { describeComparedWithServer } from './compared-with-server.js';
import { describeTestMode } from './test-mode.js';

// The SDK's scenarios against the MSW handlers, each one also run against the server on SQLite; then again in test
// mode (sk_test_ keys).
describeComparedWithServer('MSW handlers', 'MSW', startMswTarget, (mock) => describeTestMode('MSW handlers', scenarios, mock));
