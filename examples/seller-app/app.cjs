// The seller flow with the packages loaded by require() (their "require" exports). Prints one line; exit 1 on failure.
const msw = require('@customers-api/msw');
const sdk = require('@customers-api/sdk');
const { setupServer } = require('msw/node');
const sellerFlow = require('./seller-flow.cjs');

void sellerFlow('cjs', sdk, msw, setupServer);
