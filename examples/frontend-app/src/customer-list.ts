// A frontend's customer screen in plain DOM code: the seller's customers (newest first, "Load more" while the
// API has more pages) and a form that adds one. API errors are shown to the user; nothing here knows about tests.
import { ConflictError, CustomersApiError, type CursorPage, type Customer, type CustomersClient } from '@customers-api/sdk';

/** What the caller (a router, a test) gets back from {@link mountCustomerList}. */
export interface CustomerListView {
  /** Settles once the last load, "Load more" or submit has been rendered. */
  idle(): Promise<void>;
}

const TEMPLATE = `
  <form aria-label="New customer">
    <input name="first_name" aria-label="First name" required>
    <input name="last_name" aria-label="Last name" required>
    <input name="email" type="email" aria-label="Email" required>
    <button type="submit">Add customer</button>
    <p role="alert" hidden></p>
  </form>
  <p class="status"></p>
  <ul aria-label="Customers"></ul>
  <button type="button" class="more" hidden>Load more</button>`;

/**
 * Renders the customer list and the sign-up form into `root` and loads the first page.
 *
 * @example
 * const view = mountCustomerList(document.querySelector('#customers')!, client);
 * await view.idle(); // the first page is on screen
 */
export function mountCustomerList(root: HTMLElement, client: CustomersClient, pageSize = 20): CustomerListView {
  root.innerHTML = TEMPLATE;
  const form = root.querySelector('form')!;
  const alert = root.querySelector<HTMLElement>('[role="alert"]')!;
  const status = root.querySelector<HTMLElement>('.status')!;
  const list = root.querySelector('ul')!;
  const more = root.querySelector<HTMLButtonElement>('.more')!;
  let page: CursorPage<Customer> | undefined;
  // One operation at a time, in order: a submit waits for the load before it.
  let pending = Promise.resolve();
  const enqueue = (work: () => Promise<void>) => {
    pending = pending.then(work);
  };

  const show = (customers: Customer[], append: boolean) => {
    if (!append) list.replaceChildren();
    for (const customer of customers) {
      const item = document.createElement('li');
      item.textContent = `${customer.first_name} ${customer.last_name} <${customer.email}>`; // text, never HTML
      list.append(item);
    }
    status.textContent = list.children.length === 0 ? 'No customers yet.' : '';
    more.hidden = !page?.hasNextPage();
  };

  const load = async (next: boolean) => {
    try {
      page = next && page ? await page.getNextPage() : await client.customers.list({ limit: pageSize });
      show(page.data, next);
    } catch (error) {
      status.textContent = `Could not load customers: ${describe(error)}`;
    }
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const field = (name: string) => (form.elements.namedItem(name) as HTMLInputElement).value.trim();
    const input = { first_name: field('first_name'), last_name: field('last_name'), email: field('email') };
    enqueue(async () => {
      alert.hidden = true;
      try {
        await client.customers.create(input);
        form.reset();
        await load(false); // the new customer is the newest: first on the first page
      } catch (error) {
        // What the user typed stays in the form, so they can fix the email and submit again.
        alert.textContent = error instanceof ConflictError ? `${describe(error)}. Use another email address.` : describe(error);
        alert.hidden = false;
      }
    });
  });
  more.addEventListener('click', () => enqueue(() => load(true)));

  enqueue(() => load(false));
  return { idle: () => pending };
}

/** The API's own message for API errors ("A customer with email … already exists"), a generic one otherwise. */
function describe(error: unknown): string {
  if (error instanceof CustomersApiError) return error.apiMessage ?? 'the service is unreachable, try again';
  throw error; // a bug in this module, not an API answer
}
