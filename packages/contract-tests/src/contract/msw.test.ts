import { startMswTarget } from '../targets/msw-target.js';
import { describeComparedWithServer } from './compared-with-server.js';

// The SDK's scenarios against the MSW handlers, each one also run against the server on SQLite.
describeComparedWithServer('MSW handlers', 'MSW', startMswTarget);
