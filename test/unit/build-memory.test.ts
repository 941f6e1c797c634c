import { buildMemoryLimitFor } from '../../src/engine/duckdb/release-writer/writer.js';

const GB = 2 ** 30;

describe('the load build memory limit', () => {
  it('stays at 5 GB up to 10 M contacts on a large machine (the 10 M load target of 8 GB)', () => {
    expect(buildMemoryLimitFor(1_000, 24 * GB)).toBe('5120MB');
    expect(buildMemoryLimitFor(10_000_000, 24 * GB)).toBe('5120MB');
  });

  it('grows by 512 MB per million past 10 M, up to half of the machine', () => {
    expect(buildMemoryLimitFor(10_000_001, 24 * GB)).toBe('5632MB');
    expect(buildMemoryLimitFor(15_000_000, 24 * GB)).toBe(`${5120 + 5 * 512}MB`);
    expect(buildMemoryLimitFor(100_000_000, 24 * GB)).toBe(`${12 * 1024}MB`);
  });

  it('is half of a small machine whatever the release', () => {
    expect(buildMemoryLimitFor(1_000, 4 * GB)).toBe('2048MB');
    expect(buildMemoryLimitFor(30_000_000, 4 * GB)).toBe('2048MB');
  });
});
