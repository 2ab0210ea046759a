// The same seller backend as app.mjs, in CommonJS (require); see there.
const { createCustomersMock } = require('@customers-api/msw');
const { ConflictError, CustomersClient, NotFoundError } = require('@customers-api/sdk');
const { setupServer } = require('msw/node');

async function main() {
  const baseUrl = 'https://api.example.com';
  const mock = createCustomersMock({ baseUrl });
  const server = setupServer(...mock.handlers);
  server.listen({ onUnhandledRequest: 'error' });
  try {
    const client = new CustomersClient({ apiKey: mock.defaultSeller.apiKey, baseUrl });
    const ada = await client.customers.create({ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' });
    const suspended = await client.customers.update(ada.id, { status: 'suspended' });
    const { error } = await client.customers.create({ first_name: 'A', last_name: 'L', email: 'ADA@example.com' }).result();
    await client.customers.delete(ada.id);
    const gone = await client.customers.get(ada.id).catch((e) => e);
    const ok = suspended.status === 'suspended' && error instanceof ConflictError && gone instanceof NotFoundError;
    console.log(`seller-app cjs ${ok ? 'OK' : 'FAIL'} (sdk ${CustomersClient.VERSION})`);
    return ok;
  } finally {
    server.close();
  }
}

main().then((ok) => (process.exitCode = ok ? 0 : 1));
