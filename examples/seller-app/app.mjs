// The seller flow with the packages loaded as ES modules (their "import" exports). Prints one line; exit 1 on failure.
import * as msw from '@customers-api/msw';
import * as sdk from '@customers-api/sdk';
import { setupServer } from 'msw/node';
import sellerFlow from './seller-flow.cjs';

await sellerFlow('esm', sdk, msw, setupServer);
