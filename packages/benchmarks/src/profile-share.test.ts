import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { profileShare, profileShareIn } from './profile-share.js';

// root → handler → applyApiVersion → setHeader; applyApiVersion → next → auth (the hook's done() runs the next
// hook inside its stack); root → (idle); handler → query
const profile = {
  nodes: [
    { id: 1, callFrame: { functionName: '(root)' }, children: [2, 5] },
    { id: 2, callFrame: { functionName: 'handler' }, children: [3, 6] },
    { id: 3, callFrame: { functionName: 'applyApiVersion' }, children: [4, 7] },
    { id: 4, callFrame: { functionName: 'setHeader' } },
    { id: 5, callFrame: { functionName: '(idle)' } },
    { id: 6, callFrame: { functionName: 'query' } },
    { id: 7, callFrame: { functionName: 'next' }, children: [8] },
    { id: 8, callFrame: { functionName: 'auth' } },
  ],
  // Each sample weighs the delta that follows it.
  samples: [3, 4, 6, 6, 5, 2, 8],
  timeDeltas: [0, 10, 10, 30, 40, 1000, 10, 50, 0],
};

describe('profileShare', () => {
  it('counts the time under a named function, callees included, over all time but idle', () => {
    // applyApiVersion 10 + setHeader 10 + auth 50 = 70 of 10+10+30+40+10+50 = 150 busy.
    expect(profileShare(profile, ['applyApiVersion'])).toBeCloseTo(70 / 150);
    expect(profileShare(profile, ['handler'])).toBeCloseTo(1);
    expect(profileShare(profile, ['nothing'])).toBe(0);
  });

  it('stops at a continuation frame: the hooks its done() runs are not the hook’s time', () => {
    expect(profileShare(profile, ['applyApiVersion'], ['next'])).toBeCloseTo(20 / 150);
    expect(profileShare(profile, ['handler'], ['next'])).toBeCloseTo(100 / 150);
  });
});

describe('profileShareIn', () => {
  it('weighs every profile of the directory by its busy time (one per measured round)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'profile-share-'));
    try {
      // The second round: 40 busy, all of it in handler, none in applyApiVersion.
      const second = { ...profile, samples: [6, 6], timeDeltas: [0, 10, 30] };
      writeFileSync(join(dir, 'round-1.cpuprofile'), JSON.stringify(profile));
      writeFileSync(join(dir, 'round-2.cpuprofile'), JSON.stringify(second));
      writeFileSync(join(dir, 'notes.txt'), 'not a profile');
      // applyApiVersion: 70 of 150 + 40 busy.
      expect(profileShareIn(dir, ['applyApiVersion'])).toBeCloseTo(70 / 190);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is NaN without a profile', () => {
    const dir = mkdtempSync(join(tmpdir(), 'profile-share-'));
    try {
      expect(profileShareIn(dir, ['applyApiVersion'])).toBeNaN();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
