/** `customers --help`: every command, its options and the environment it reads. */
export const USAGE = `Usage: customers <command> [options]

Commands:
  listen --forward-to URL [--events TYPE,...] [--interval MS] [--fail-on-error]
      Polls the API's events list and forwards each new event to URL, signed (Standard Webhooks) with a
      whsec_ secret made for this session and printed at start. One line per event with the local answer's
      status. Events are recorded only while one of your webhook endpoints is subscribed to their type.
      --fail-on-error exits 1 at the first event your URL does not answer with 2xx.
  trigger customer.created|customer.updated|customer.deleted [--set FIELD=VALUE ...]
      Makes the real API calls that produce the event: created creates a customer; updated creates one and
      updates it (--set applies to the update); deleted creates one and deletes it. --set overrides a field
      (a.b=c for a nested one; the value null sends null); a field the operation does not take is an error.
  events list [--type TYPE] [--customer ID] [--undelivered-to ENDPOINT_ID] [--limit N] [--json]
      The newest events first (one page, at most --limit, default 10).
  events resend EVENT_ID --endpoint ENDPOINT_ID
      Sends the event to the endpoint again (a replay of the millisecond the event was created in).

Options:
  --base-url URL   The API's address (default CUSTOMERS_API_BASE_URL, else http://127.0.0.1:3000)
  -h, --help       This text (needs no key)
  -v, --version    The CLI's version (needs no key)

Environment:
  CUSTOMERS_API_KEY       The API key (sk_live_...): the only credential any command needs.
  CUSTOMERS_API_BASE_URL  The API's address when --base-url is not given.

Exit codes: 0 done, 1 a failed API call or forwarding failure, 2 a bad command line.`;
