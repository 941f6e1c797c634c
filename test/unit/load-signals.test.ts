import { computeProfileSignals, epochDay } from '../../loaders/load/profile-signals.js';
import { day, emailStatus, fundingRoundType, revenueBand, sizeBand } from '../../loaders/load/values.js';

describe('epochDay', () => {
  it('agrees with Date.UTC on every day from 1899 to 2101', () => {
    for (let t = Date.UTC(1899, 0, 1); t <= Date.UTC(2101, 11, 31); t += 86_400_000) {
      const iso = new Date(t).toISOString().slice(0, 10);
      if (epochDay(iso) !== t / 86_400_000) throw new Error(`${iso}: ${epochDay(iso)} != ${t / 86_400_000}`);
    }
  });
});

describe('computeProfileSignals (relative to asOf, whole UTC days)', () => {
  const asOf = new Date('2026-11-01T18:30:00Z');
  const at = (mainStart: string | null, founder = false, atPublicCompany = false): string[] =>
    computeProfileSignals({ mainStart, founder, atPublicCompany }, asOf);

  it.each([
    ['2025-11-01', ['one_year_at_company']],
    ['2025-11-02', []],
    ['2026-05-05', ['recent_job_change']],
    ['2026-05-04', []],
    ['2026-08-03', ['new_in_role_90d', 'recent_job_change']],
    ['2026-08-02', ['recent_job_change']],
    ['2026-11-01', ['new_in_role_90d', 'recent_job_change']],
    ['2026-11-02', []],
  ])('a main role started %s gives %j', (start, expected) => {
    expect(at(start)).toEqual(expected);
  });

  it('adds founder and at_public_company from their inputs, also without a start date', () => {
    expect(at(null, true, true)).toEqual(['founder', 'at_public_company']);
    expect(at(null)).toEqual([]);
  });
});

describe('value normalizers', () => {
  it.each([
    ['2026-02-29', null],
    ['2024-02-29', '2024-02-29'],
    ['2026-13-01', null],
    ['2026-04', '2026-04-01'],
    ['2026-04-31', null],
    ['2026-04-30T10:00:00Z', '2026-04-30'],
    ['April 2026', null],
  ])('day(%s) = %s', (input, expected) => {
    expect(day(input)).toBe(expected);
  });

  it.each([
    ['VALID', 'valid'],
    ['Valid', 'valid'],
    ['catch-all', 'catch_all'],
    ['CATCH_ALL', 'catch_all'],
    ['Invalid', 'invalid'],
    ['verified', 'valid'],
    ['risky', 'unknown'],
    [null, 'unknown'],
  ])('email status %s -> %s', (input, expected) => {
    expect(emailStatus(input)).toBe(expected);
  });

  it.each([
    ['Series A', 'series_a'],
    ['SEED', 'seed'],
    ['Series C', 'series_c_plus'],
    ['Series F', 'series_c_plus'],
    ['series-e', 'series_c_plus'],
    ['Grant', 'other'],
  ])('funding round %s -> %s', (input, expected) => {
    expect(fundingRoundType(input)).toBe(expected);
  });

  it('derives size bands and revenue ranges from the catalog bounds', () => {
    expect([0, 1, 10, 11, 500, 501, 1000, 1001, 10_000, 10_001].map(sizeBand)).toEqual([
      null,
      '1-10',
      '1-10',
      '11-50',
      '201-500',
      '501-1K',
      '501-1K',
      '1K-5K',
      '5K-10K',
      '10K+',
    ]);
    expect([0, 999_999, 1_000_000, 49_999_999, 100_000_000, 1_000_000_000].map(revenueBand)).toEqual([
      '0-1M',
      '0-1M',
      '1M-10M',
      '10M-50M',
      '100M-1B',
      '1B+',
    ]);
  });
});
