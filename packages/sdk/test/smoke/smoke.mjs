// Smoke test of the built package (ESM). Usage: BASE_URL=http://127.0.0.1:3000 API_KEY=sk_live_... node smoke.mjs
// Works against the reference server and against Prism (stateless, so it checks shapes, not stored values).
// SDK_IMPORT overrides what is imported (default: the package by name, which resolves via package.json "exports").
const sdk = await import(process.env.SDK_IMPORT ?? '@customers-api/sdk');
const { CustomersClient, NotFoundError, CustomersApiError } = sdk;

const fail = (why) => {
  console.log(`smoke esm FAIL: ${why}`);
  process.exit(1);
};
const isCustomer = (c) =>
  c && typeof c.id === 'string' && typeof c.seller_id === 'string' && typeof c.first_name === 'string' &&
  typeof c.email === 'string' && ['active', 'inactive', 'suspended'].includes(c.status) && c.source === 'api' &&
  typeof c.created_at === 'string' && !Number.isNaN(Date.parse(c.updated_at));

try {
  const client = new CustomersClient({ baseUrl: process.env.BASE_URL, apiKey: process.env.API_KEY, maxRetries: 1, timeout: 10_000 });
  const email = `smoke+${Date.now()}${Math.floor(Math.random() * 1e6)}@example.com`;
  const { data: created, requestId } = await client.customers
    .create({ first_name: 'Ada', last_name: 'Lovelace', email })
    .withResponse();
  if (!isCustomer(created)) fail(`create returned ${JSON.stringify(created)}`);
  if (!requestId) fail('create response has no X-Request-Id');
  const got = await client.customers.get(created.id);
  if (!isCustomer(got) || got.id !== created.id) fail(`get returned ${JSON.stringify(got)}`);
  const updated = await client.customers.update(created.id, { status: 'suspended' });
  if (!isCustomer(updated) || updated.status !== 'suspended') fail(`update returned ${JSON.stringify(updated)}`);
  // The address has a '+': the real server finds it only if the SDK percent-encodes it (Prism answers its example).
  const found = await client.customers.findByEmail(email, { headers: { Prefer: 'example=byEmail' } });
  if (!isCustomer(found)) fail(`findByEmail returned ${JSON.stringify(found)}`);
  const page = await client.customers.list({ limit: 1 });
  if (!Array.isArray(page.data) || !page.data.every(isCustomer) || typeof page.hasNextPage() !== 'boolean') {
    fail(`list returned ${JSON.stringify(page)}`);
  }
  const deleted = await client.customers.delete(created.id);
  if (deleted !== undefined) fail('delete resolved with a value');
  // A real server answers 404 now; Prism is told to (Prefer is ignored by the real server).
  const { error } = await client.customers.get(created.id, { headers: { Prefer: 'code=404' } }).result();
  if (!(error instanceof NotFoundError) || !(error instanceof CustomersApiError) || error.status !== 404) {
    fail(`get after delete gave ${error ? `${error.name} ${error.status}` : 'a customer'}`);
  }
  console.log(`smoke esm ok: create/get/update/delete/404 against ${client.baseUrl}`);
} catch (err) {
  fail(`${err?.name}: ${err?.message}`);
}
