/**
 * The spec's edge cases, planted at fixed positions of every block of 2,000 people (all within the first
 * 1,000, so any run of 1,000+ holds each case): about 0.5% of rows.
 */
export type Plant =
  | 'dup_email_a'
  | 'dup_email_b'
  | 'dup_slug_a'
  | 'dup_slug_b'
  | 'phone_group_a'
  | 'phone_group_b'
  | 'founder'
  | 'public_company'
  | 'new_in_role'
  | 'one_year';

export const PLANT_BLOCK = 2000;

const POSITIONS: ReadonlyMap<number, Plant> = new Map([
  [10, 'dup_email_a'],
  [11, 'dup_email_b'],
  [20, 'dup_slug_a'],
  [21, 'dup_slug_b'],
  [30, 'phone_group_a'],
  [31, 'phone_group_b'],
  [32, 'phone_group_b'],
  [33, 'phone_group_b'],
  [40, 'founder'],
  [50, 'public_company'],
  [60, 'new_in_role'],
  [70, 'one_year'],
]);

export function plantAt(index: number): Plant | undefined {
  return POSITIONS.get(index % PLANT_BLOCK);
}
