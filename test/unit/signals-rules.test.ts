import { AppError } from '../../src/domain/errors/index.js';
import { planCollect } from '../../src/network-signals/plan.js';
import type { SignalKind } from '../../src/network-signals/port.js';
import { nextSlot } from '../../src/network-signals/schedule.js';
import { parseSignalTarget } from '../../src/network-signals/target.js';

describe('parseSignalTarget', () => {
  it.each<[SignalKind, string, string]>([
    ['network_profile', 'https://network.com/in/jane-doe', 'https://network.com/in/jane-doe'],
    ['network_profile', ' https://www.network.com/in/Jane-Doe/?trk=x ', 'https://network.com/in/jane-doe'],
    ['network_profile', 'https://de.network.com/in/j%C3%BCrgen', 'https://network.com/in/j%C3%BCrgen'],
    [
      'network_post',
      'https://network.com/posts/jane_launch-activity-123',
      'https://network.com/posts/jane_launch-activity-123',
    ],
    [
      'network_post',
      'https://www.network.com/feed/update/urn:li:activity:7000000000000000001/',
      'https://network.com/feed/update/urn:li:activity:7000000000000000001',
    ],
    ['network_company', 'https://network.com/company/acme', 'https://network.com/company/acme'],
  ])('%s %s -> %s', (kind, input, url) => {
    expect(parseSignalTarget(kind, input, 'network.com').url).toBe(url);
  });

  it.each<[SignalKind, string]>([
    ['network_profile', 'http://network.com/in/jane'],
    ['network_profile', 'network.com/in/jane'],
    ['network_profile', 'https://network.com.evil.io/in/jane'],
    ['network_profile', 'https://network.com/in/jane/details'],
    ['network_profile', 'https://network.com/company/acme'],
    ['network_post', 'https://network.com/feed/update/urn:li:activity:abc'],
    ['network_company', 'https://network.com/in/jane'],
    ['network_company', ''],
  ])('%s %j answers 400 request.invalid naming the accepted form', (kind, input) => {
    let err: unknown;
    try {
      parseSignalTarget(kind, input, 'network.com');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('request.invalid');
    expect((err as AppError).hint).toMatch(/https:\/\/network\.com\/(in|posts|company)\//);
  });
});

describe('planCollect (spec "Collect hold")', () => {
  it('profile and post hold twice the estimate; wait only up to 500 engagers', () => {
    expect(planCollect('network_profile', 120, null, 0)).toEqual({
      requested: 120,
      hold: 240,
      maxFollowersMissing: false,
      waitAllowed: true,
    });
    expect(planCollect('network_post', 501, null, 5000).waitAllowed).toBe(false);
    expect(planCollect('network_post', 500, null, 5000).waitAllowed).toBe(true);
  });
  it('company: exactly max_followers; without it min(followers, available), at least 100; below 100 followers refused', () => {
    expect(planCollect('network_company', 5000, 300, 0)).toEqual({
      requested: 300,
      hold: 300,
      maxFollowersMissing: false,
      waitAllowed: false,
    });
    expect(planCollect('network_company', 5000, null, 800).hold).toBe(800);
    expect(planCollect('network_company', 450, null, 800).hold).toBe(450);
    expect(planCollect('network_company', 450, null, 20)).toMatchObject({ hold: 100, maxFollowersMissing: true });
    expect(() => planCollect('network_company', 99, 100, 1000)).toThrow(
      expect.objectContaining({ code: 'signals.below_minimum', details: { followers: 99 } }),
    );
  });
});

describe('nextSlot', () => {
  it('keeps the rhythm and skips missed slots', () => {
    const due = '2026-11-10T12:00:00.000Z';
    expect(nextSlot(due, 60, new Date(due))).toBe('2026-11-10T13:00:00.000Z');
    expect(nextSlot(due, 60, new Date('2026-11-10T12:59:59.999Z'))).toBe('2026-11-10T13:00:00.000Z');
    expect(nextSlot(due, 1440, new Date('2026-11-20T13:00:00.000Z'))).toBe('2026-11-21T12:00:00.000Z');
    expect(nextSlot('2026-11-11T00:00:00.000Z', 60, new Date(due))).toBe('2026-11-11T00:00:00.000Z');
  });
});
