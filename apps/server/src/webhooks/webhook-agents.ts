import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { DELIVERY_SLOTS_PER_PROCESS } from './delivery-fairness.js';
import { publicOnlyLookup } from './public-lookup.js';

/** An address a delivery may connect to: checked by the SSRF guard (public-lookup.ts) unless private ones are allowed. */
export interface CheckedAddress {
  address: string;
  family: number;
}

/** Keep-alive agents held at most (least recently used first out; each holds a few idle sockets). */
const MAX_AGENTS = 256;
/**
 * Idle sockets kept per agent: a process's slots' worth (delivery-fairness.ts). Endpoints of many sellers may share
 * one origin (a hosted receiver): with fewer, every batch of attempts that ended together closed the sockets past
 * the limit and the next claim opened new ones (issue 36, profiled: a connect and an accept per attempt).
 */
const MAX_FREE_SOCKETS = DELIVERY_SLOTS_PER_PROCESS;
/** An idle socket is closed after this long (sooner if the receiver's Keep-Alive header says so): under Node's 5 s server default. */
const FREE_SOCKET_MS = 4_000;

/**
 * Keep-alive agents for webhook attempts, one per origin *and checked address*: every socket of an agent was opened
 * to the one address the guard allowed, so a reused socket never skips a check and never outlives a change of DNS
 * answer (a new answer is another agent, with new sockets). Owned by one DeliveryWorker; destroyed when it stops.
 *
 * @example
 * const agents = new WebhookAgents();
 * const address = await resolveChecked(url.hostname, false);
 * http.request(url, { agent: agents.agentFor(url, address) });
 */
export class WebhookAgents {
  readonly #agents = new Map<string, http.Agent>();

  /** The agent for `target`'s origin whose sockets connect only to `address`. */
  agentFor(target: URL, address: CheckedAddress): http.Agent {
    const key = `${target.protocol}//${target.host} ${address.address}`;
    let agent = this.#agents.get(key);
    if (agent) {
      // Most recently used last.
      this.#agents.delete(key);
    } else {
      const options = {
        keepAlive: true,
        maxFreeSockets: MAX_FREE_SOCKETS,
        timeout: FREE_SOCKET_MS,
        scheduling: 'lifo' as const,
        // Agent options win over the request's: no socket of this agent connects anywhere else.
        lookup: fixedLookup(address),
      };
      agent = target.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
      if (this.#agents.size >= MAX_AGENTS) {
        const [oldest] = this.#agents;
        this.#agents.delete(oldest![0]);
        oldest![1].destroy();
      }
    }
    this.#agents.set(key, agent);
    return agent;
  }

  /** How many agents are held (tests). */
  get size(): number {
    return this.#agents.size;
  }

  /** Closes every socket (the worker is stopping). */
  destroy(): void {
    for (const agent of this.#agents.values()) agent.destroy();
    this.#agents.clear();
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

function fixedLookup({ address, family }: CheckedAddress) {
  return (_hostname: string, options: { all?: boolean }, callback: LookupCallback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

/**
 * The address a delivery to `hostname` connects to: the literal itself, or the first answer DNS gives, through the
 * SSRF guard's lookup unless `allowPrivate` (a name with only non-public answers fails as publicOnlyLookup says).
 *
 * @example
 * await resolveChecked('hooks.example.com', false); // { address: '93.184.215.14', family: 4 }
 */
export function resolveChecked(hostname: string, allowPrivate: boolean): Promise<CheckedAddress> {
  const family = isIP(hostname);
  if (family !== 0) return Promise.resolve({ address: hostname, family });
  return new Promise((resolve, reject) => {
    const callback: LookupCallback = (error, address, found) => {
      if (error) return reject(error);
      if (typeof address === 'string') return resolve({ address, family: found ?? isIP(address) });
      if (address.length === 0) return reject(Object.assign(new Error(`${hostname} has no address`), { code: 'ENODATA' }));
      resolve({ address: address[0]!.address, family: address[0]!.family });
    };
    if (allowPrivate) dnsLookup(hostname, {}, callback);
    else publicOnlyLookup(hostname, {}, callback);
  });
}
