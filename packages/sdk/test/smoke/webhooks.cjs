// Smoke test of the webhook verifier in the built package (CommonJS), for any runtime. Usage:
// WEBHOOK_FIXTURE='{"body":"…","headers":{…},"secret":"whsec_…"}' node webhooks.cjs
// The fixture is a delivery signed moments ago (the runtime matrix signs it with core's webhookHeaders). Checks
// the main entry, the /webhooks entry and client.webhooks.verify.
const sdk = require(process.env.SDK_IMPORT || '@customers-api/sdk');
const standalone = require(process.env.SDK_WEBHOOKS_IMPORT || '@customers-api/sdk/webhooks');
const { CustomersClient, CustomersApiError, WebhookVerificationError } = sdk;

const fail = (why) => {
  console.log(`webhooks cjs FAIL: ${why}`);
  process.exit(1);
};

const refusal = (pending) =>
  pending.then(
    (event) => fail(`verified ${JSON.stringify(event)}`),
    (err) => {
      if (!(err instanceof WebhookVerificationError) || !(err instanceof CustomersApiError)) fail(`rejected with ${err}`);
      return err.reason;
    },
  );

async function main() {
  const fixture = JSON.parse(process.env.WEBHOOK_FIXTURE || 'null');
  if (!fixture) fail('WEBHOOK_FIXTURE is not set');
  const { body, headers, secret } = fixture;
  const expected = JSON.parse(body);
  const events = [
    await sdk.verifyWebhook(body, headers, secret),
    await standalone.verifyWebhook(new TextEncoder().encode(body), new Headers(headers), secret),
    await new CustomersClient({ apiKey: `sk_live_${'A1b2'.repeat(12)}`, webhookSecret: secret }).webhooks.verify(body, headers),
  ];
  for (const event of events) if (JSON.stringify(event) !== body) fail(`verified as ${JSON.stringify(event)}`);
  const tampered = await refusal(standalone.verifyWebhook(body.replace(expected.id, 'evt_0'), headers, secret));
  const old = new Date((Number(headers['webhook-timestamp']) + 301) * 1000);
  const late = await refusal(sdk.verifyWebhook(body, headers, secret, { now: old }));
  if (tampered !== 'no_matching_signature' || late !== 'timestamp_too_old') fail(`refused with ${tampered} and ${late}`);
  console.log(`webhooks cjs ok: verified ${expected.type} three ways, refused a tampered body and an old timestamp`);
}

main().catch((err) => fail(`${err && err.name}: ${err && err.message}`));
