const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;
/** Event ids (`evt_` and 32 hex digits): made by each target, compared like UUIDs. */
const EVENT_ID = /^evt_[0-9a-f]{32}$/;
/** Webhook signing secrets: random on every target. */
const SECRET = /^whsec_[A-Za-z0-9+/]+={0,2}$/;

/**
 * What a scenario observed, step by step, with ids and timestamps replaced by stable placeholders (the n-th
 * distinct id seen is `<id n>`), so the transcripts of two targets can be compared for equality.
 */
export class Transcript {
  readonly steps: Array<{ step: string; status: number; body: unknown }> = [];
  private readonly ids = new Map<string, string>();

  record(step: string, status: number, body: unknown): void {
    this.steps.push({ step, status, body: this.normalize(body) });
  }

  private normalize(value: unknown): unknown {
    if (typeof value === 'string') {
      if (SECRET.test(value)) return '<secret>';
      if (UUID.test(value) || EVENT_ID.test(value)) {
        const known = this.ids.get(value.toLowerCase()) ?? `<id ${this.ids.size + 1}>`;
        this.ids.set(value.toLowerCase(), known);
        return known;
      }
      return TIMESTAMP.test(value) ? '<timestamp>' : value;
    }
    if (Array.isArray(value)) return value.map((item) => this.normalize(item));
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, this.normalize(item)]));
    }
    return value;
  }
}
