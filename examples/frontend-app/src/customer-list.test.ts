// The customer ui under happy-dom (vitest.config.ts) against @customers-api/msw's stateful mock: the same
// rules as the real API, in process. The SDK runs unchanged; only the test's client opts in to a browser-like
// runtime, since happy-dom has `window` and `document`.
import { createCustomersMock, type Customer } from '@customers-api/msw';
import { CustomersClient } from '@customers-api/sdk';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { mountCustomerList } from './customer-list';

const baseUrl = 'https://api.example.com';
const grace = { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' };
const mock = createCustomersMock({ baseUrl, seed: [{ customers: [grace] }] });
const server = setupServer(...mock.handlers);
const client = new CustomersClient({
  apiKey: mock.defaultSeller!.apiKey,
  baseUrl,
  dangerouslyAllowBrowser: true, // a test DOM with a mock key, not a browser holding a real one
});

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(async () => {
  await mock.reset(); // the seeded Grace again; forced responses and overrides dropped
  document.body.replaceChildren();
});
afterAll(() => server.close());

async function mount() {
  const root = document.createElement('div');
  document.body.append(root);
  const view = mountCustomerList(root, client);
  await view.idle();
  const q = <E extends Element>(selector: string) => root.querySelector<E>(selector)!;
  return {
    view,
    names: () => [...root.querySelectorAll('li')].map((li) => li.textContent),
    alert: q<HTMLElement>('[role="alert"]'),
    more: q<HTMLButtonElement>('.more'),
    async submit(values: Record<'first_name' | 'last_name' | 'email', string>) {
      for (const [name, value] of Object.entries(values)) q<HTMLInputElement>(`input[name="${name}"]`).value = value;
      q<HTMLFormElement>('form').requestSubmit();
      await view.idle();
    },
    value: (name: string) => q<HTMLInputElement>(`input[name="${name}"]`).value,
  };
}

const stored = () => mock.store.countCustomers(mock.defaultSeller!.sellerId);

it('lists the seller’s customers, newest first', async () => {
  await mock.seed({ customers: [{ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' }] });
  const ui = await mount();
  expect(ui.names()).toEqual(['Ada Lovelace <ada@example.com>', 'Grace Hopper <grace@example.com>']);
  expect(ui.more.hidden).toBe(true);
});

it('adds a customer from the form and shows it first', async () => {
  const ui = await mount();
  await ui.submit({ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' });
  expect(ui.names()).toEqual(['Ada Lovelace <ada@example.com>', 'Grace Hopper <grace@example.com>']);
  expect([ui.alert.hidden, ui.value('email')]).toEqual([true, '']);
  expect(stored()).toBe(2);
});

it('shows a 409 to the user, keeps what they typed and stores nothing', async () => {
  const ui = await mount();
  mock.nextResponse('createCustomer', { status: 409 }); // forced: the server's wording, quoting the email
  await ui.submit({ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' });
  expect(ui.alert.hidden).toBe(false);
  expect(ui.alert.textContent).toBe('A customer with email ada@example.com already exists. Use another email address.');
  expect(ui.value('email')).toBe('ada@example.com');
  expect([ui.names(), stored()]).toEqual([['Grace Hopper <grace@example.com>'], 1]);
});

it('refuses a duplicate email the way the API does (case-insensitively), without forcing it', async () => {
  const ui = await mount();
  await ui.submit({ first_name: 'G', last_name: 'H', email: 'GRACE@example.com' });
  expect(ui.alert.textContent).toContain('already exists. Use another email address.');
  expect(stored()).toBe(1);
});

it('pages with "Load more" (a typed override of listCustomers)', async () => {
  const [seeded] = await mock.ready;
  const older: Customer = { ...seeded!, id: '6a0f4f0e-2b1a-4b7e-9d61-1c3b2f6e8a90', email: 'older@example.com' };
  // The resolver's query and its answer are typed from openapi.yaml: a page without has_more does not compile.
  mock.use('listCustomers', ({ query }) =>
    query.cursor === 'page-2'
      ? { status: 200, body: { data: [older], has_more: false, next_cursor: null } }
      : { status: 200, body: { data: [seeded!], has_more: true, next_cursor: 'page-2' } },
  );
  const ui = await mount();
  expect([ui.names(), ui.more.hidden]).toEqual([['Grace Hopper <grace@example.com>'], false]);
  ui.more.click();
  await ui.view.idle();
  expect(ui.names()).toEqual(['Grace Hopper <grace@example.com>', 'Grace Hopper <older@example.com>']);
  expect(ui.more.hidden).toBe(true);
});

it('says so when the list cannot be loaded', async () => {
  // The first attempt and the SDK's 2 retries; Retry-After: 0 makes the retries immediate.
  mock.nextResponse('listCustomers', { status: 503, headers: { 'Retry-After': '0' }, times: 3 });
  const ui = await mount();
  expect(ui.names()).toEqual([]);
  expect(document.querySelector('.status')!.textContent).toMatch(/^Could not load customers: /);
});
