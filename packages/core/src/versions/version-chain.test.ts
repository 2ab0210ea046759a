import { describe, expect, it } from 'vitest';
import type { SellerContext } from '../types.js';
import { openApiVersions, type ApiVersion } from './api-version.js';
import {
  createApiVersioning,
  deprecationHeaders,
  downgradeErrorMessage,
  downgradeEvent,
  downgradeResponse,
  pinnedVersion,
  upgradeRequest,
  type VersionChange,
} from './version-change.js';

// Three versions, newest first, and a change into each of the two newer ones: each change tags what passes through
// it, so the order of the chain shows in the result.
const V3 = '2027-03-01';
const V2 = '2026-12-01';
const V1 = '2026-06-01';
const VERSIONS: ApiVersion[] = [
  { version: V3, summary: 'third' },
  { version: V2, summary: 'second', deprecated: '2027-03-01' },
  { version: V1, summary: 'first', deprecated: '2026-12-01', sunset: '2027-06-01' },
];
const tagging = (version: string): VersionChange => ({
  version,
  description: `into ${version}`,
  request: (body) => ({ ...body, up: [...((body.up as string[] | undefined) ?? []), version] }),
  response: (body) => [...(body as string[]), version],
  errorMessage: (message) => `${message} < ${version}`,
  event: (event) => ({ ...event, down: [...((event.down as string[] | undefined) ?? []), version] }),
});
const INTO_V2 = tagging(V2);
const INTO_V3 = tagging(V3);
/** A change with no translations at all (a purely additive one). */
const SILENT: VersionChange = { version: V3, description: 'adds a field' };

/** Made inside each test (not when the file is collected), so that a test covers what it builds. */
const threeVersions = () => createApiVersioning(VERSIONS, [INTO_V3, INTO_V2]);

describe('createApiVersioning: the chains', () => {
  it('gives each older version the changes after it, oldest first, and the latest none', () => {
    const versioning = threeVersions();
    expect(versioning.latest).toBe(V3);
    expect(versioning.versions).toBe(VERSIONS);
    expect(versioning.changesFor(V1)).toEqual([INTO_V2, INTO_V3]);
    expect(versioning.changesFor(V2)).toEqual([INTO_V3]);
    expect(versioning.changesFor(V3)).toBeUndefined();
    expect(versioning.changesFor('2020-01-01')).toBeUndefined();
  });

  it('gives no chain to a version no change follows', () => {
    const onlyIntoV2 = createApiVersioning(VERSIONS, [INTO_V2]);
    expect(onlyIntoV2.changesFor(V2)).toBeUndefined();
    expect(onlyIntoV2.changesFor(V1)).toEqual([INTO_V2]);
  });

  it('shares chains that no caller can change', () => {
    const versioning = threeVersions();
    const chain = versioning.changesFor(V1) as VersionChange[];
    expect(() => chain.push(SILENT)).toThrow(TypeError);
    expect(versioning.changesFor(V1)).toHaveLength(2);
  });

  it('gives the deprecation headers of a deprecated or sunset version, none for the latest or an unknown one', () => {
    const versioning = threeVersions();
    expect(versioning.headersFor(V2)).toEqual(deprecationHeaders(VERSIONS[1]!));
    expect(versioning.headersFor(V1)).toMatchObject({ Sunset: 'Tue, 01 Jun 2027 00:00:00 GMT' });
    expect(versioning.headersFor('2020-01-01')).toBeUndefined();
    const deprecatedLatest = createApiVersioning([{ version: V3, summary: '', deprecated: '2027-01-01' }], []);
    expect(deprecatedLatest.headersFor(V3)).toBeUndefined();
  });

  it('names the change and its version when the version follows none', () => {
    expect(() => createApiVersioning(VERSIONS, [tagging(V1)])).toThrow('version change "into 2026-06-01" names 2026-06-01, which follows no listed version');
  });
});

describe('deprecationHeaders of a version with a sunset day only', () => {
  it('sends Sunset and Link, without Deprecation', () => {
    expect(deprecationHeaders({ version: V1, summary: '', sunset: '2027-06-01' })).toEqual({
      Sunset: 'Tue, 01 Jun 2027 00:00:00 GMT',
      Link: `<https://github.com/customers-api/customers-api-toolkit/blob/main/docs/api-changelog.md#${V1}>; rel="deprecation"`,
    });
  });
});

describe('the translations along a chain', () => {
  const chain = [INTO_V2, SILENT, INTO_V3];

  it('takes a request up oldest first, skipping changes without a request translation', () => {
    expect(upgradeRequest(chain, { a: 1 }, 'createCustomer')).toEqual({ a: 1, up: [V2, V3] });
    expect(upgradeRequest([], { a: 1 }, 'createCustomer')).toEqual({ a: 1 });
  });

  it('takes an answer, an error message and an event down newest first, skipping changes without one', () => {
    expect(downgradeResponse(chain, [], 'getCustomer')).toEqual([V3, V2]);
    expect(downgradeErrorMessage(chain, 'm', 'getCustomer')).toBe(`m < ${V3} < ${V2}`);
    expect(downgradeEvent(chain, { id: 'e' })).toEqual({ id: 'e', down: [V3, V2] });
  });

  it('passes no body down when the answer has none (204)', () => {
    const refusing: VersionChange = {
      version: V3,
      description: 'reads its body',
      response: (body) => {
        if (body === undefined) throw new Error('no body to translate');
        return body;
      },
    };
    expect(downgradeResponse([refusing], undefined, 'deleteCustomer')).toBeUndefined();
  });
});

describe('pinnedVersion', () => {
  const versioning = threeVersions();
  const seller = (apiVersion: string | null | undefined) => ({ sellerId: 's', customerLimit: 1, rateLimit: null, apiVersion }) as SellerContext;
  const noHeader = () => undefined;
  const beforeSunset = () => new Date('2027-05-31T23:59:59Z');

  it('is the seller’s pin when the request names no version', () => {
    expect(pinnedVersion(versioning, noHeader, seller(V2), beforeSunset)).toBe(V2);
    expect(pinnedVersion(versioning, () => null, seller(V1), beforeSunset)).toBe(V1);
  });

  it('is undefined for a seller pinned to nothing or to the latest, or a request that names a version', () => {
    expect(pinnedVersion(versioning, noHeader, seller(null), beforeSunset)).toBeUndefined();
    expect(pinnedVersion(versioning, noHeader, seller(undefined), beforeSunset)).toBeUndefined();
    expect(pinnedVersion(versioning, noHeader, seller(V3), beforeSunset)).toBeUndefined();
    expect(pinnedVersion(versioning, () => V3, seller(V2), beforeSunset)).toBeUndefined();
  });

  it('is undefined for a pin that is unknown or past its sunset', () => {
    expect(pinnedVersion(versioning, noHeader, seller('2020-01-01'), beforeSunset)).toBeUndefined();
    expect(pinnedVersion(versioning, noHeader, seller(V1), () => new Date('2027-06-01T00:00:00Z'))).toBeUndefined();
  });
});

describe('openApiVersions', () => {
  it('lists the versions a pin may name today, newest first: those before their sunset day', () => {
    expect(openApiVersions(() => new Date('2027-05-31T23:59:59Z'), VERSIONS)).toEqual([V3, V2, V1]);
    expect(openApiVersions(() => new Date('2027-06-01T00:00:00Z'), VERSIONS)).toEqual([V3, V2]);
  });

  it('reads no clock when no version has a sunset', () => {
    const now = () => {
      throw new Error('clock read');
    };
    expect(openApiVersions(now, VERSIONS.slice(0, 2))).toEqual([V3, V2]);
    expect(openApiVersions()).toContain('2026-11-26');
  });
});
