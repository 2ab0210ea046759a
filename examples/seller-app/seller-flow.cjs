// A seller's backend flow: signs a customer up, reads, suspends and deletes it, and handles a duplicate email,
// against @customers-api/msw's handlers (the same rules as the real API) so it runs without a server.
// app.mjs passes the packages as ESM imports, app.cjs as require()s: one flow, both module systems.
module.exports = async function sellerFlow(label, sdk, msw, setupServer) {
  const { ConflictError, CustomersClient, NotFoundError } = sdk;
  const baseUrl = 'https://api.example.com';
  const mock = msw.createCustomersMock({ baseUrl });
  const server = setupServer(...mock.handlers);
  server.listen({ onUnhandledRequest: 'error' });
  try {
    const client = new CustomersClient({ apiKey: mock.defaultSeller.apiKey, baseUrl });
    const ada = await client.customers.create({ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' });
    const same = await client.customers.get(ada.id);
    const suspended = await client.customers.update(ada.id, { status: 'suspended' });
    const { error } = await client.customers.create({ first_name: 'A', last_name: 'L', email: 'ADA@example.com' }).result();
    await client.customers.delete(ada.id);
    const gone = await client.customers.get(ada.id).catch((e) => e);
    const ok =
      same.email === 'ada@example.com' &&
      suspended.status === 'suspended' &&
      error instanceof ConflictError &&
      error.status === 409 &&
      gone instanceof NotFoundError;
    console.log(`seller-app ${label} ${ok ? 'OK' : 'FAIL'} (sdk ${CustomersClient.VERSION})`);
    process.exitCode = ok ? 0 : 1;
  } finally {
    server.close();
  }
};
