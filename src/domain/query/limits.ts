import { BIG_LIST_MAX, LIST_MAX } from '../catalog/index.js';

/**
 * Limits of the family A filter language (spec "Limits" and "Where tree"); every one answers
 * 422 `filter.rejected` when passed. Exact definitions, since the spec leaves them open:
 * - depth: the largest number of groups (`and`, `or`, `not`) on any path from the root of `where`
 *   to a leaf. A bare leaf has depth 0, `{and: [leaf]}` depth 1, so a group at the top level is 1.
 * - leaves: every `field` node in the tree.
 * - predicates: leaves + groups, i.e. every node of the tree.
 */
export const WHERE_MAX_DEPTH = 4;
export const WHERE_MAX_LEAVES = 25;
export const WHERE_MAX_PREDICATES = 32;
/** Values of one `in` / `not_in` leaf. */
export const WHERE_MAX_IN_VALUES = LIST_MAX;
/** `exclude_ids` beside the filter. */
export const EXCLUDE_IDS_MAX = BIG_LIST_MAX;
/** Flat list keys without their own `maxValues` in the catalog. */
export const DEFAULT_LIST_MAX = LIST_MAX;
/** A closed list up to this size is printed whole in an unknown-value hint; larger ones point to the values route. */
export const HINT_MAX_SLUGS = 50;
