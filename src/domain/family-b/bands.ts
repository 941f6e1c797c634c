import { SIZE_BANDS } from '../catalog/index.js';

/**
 * Band overlap (family B `employees_*` and `company_size_*`): every employee size band whose
 * [min, max] overlaps the requested range, in band order. A maximum of 9 keeps the whole 1-10 band;
 * an open side of the request is unbounded. An empty range (min above max) overlaps no band.
 */
export function overlappingBands(min: number | undefined, max: number | undefined): string[] {
  return SIZE_BANDS.filter(
    (b) => (max === undefined || b.min <= max) && (min === undefined || b.max === null || b.max >= min),
  ).map((b) => b.slug);
}
