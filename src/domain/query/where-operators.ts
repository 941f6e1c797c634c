import { type ColumnDef, type ColumnKind, isContactPoint } from '../catalog/index.js';

/** The frozen `op` enum of a where leaf (spec "Where tree"). */
export const WHERE_OPS = ['eq', 'neq', 'in', 'not_in', 'gt', 'gte', 'lt', 'lte', 'contains', 'exists'] as const;
export type WhereOp = (typeof WHERE_OPS)[number];

export function isWhereOp(s: string): s is WhereOp {
  return (WHERE_OPS as readonly string[]).includes(s);
}

/** Operator rules by column kind (spec "Operator rules by column kind"). */
const OPS_BY_KIND: Readonly<Record<ColumnKind, readonly WhereOp[]>> = {
  text: WHERE_OPS,
  date: ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'not_in', 'exists'],
  number: ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'not_in', 'exists'],
  bool: ['eq', 'neq'],
  list: ['in', 'not_in', 'contains', 'exists', 'eq', 'neq'],
  record: ['contains', 'exists'],
};

const VALUES_BY_KIND: Readonly<Record<ColumnKind, string>> = {
  text: 'text values',
  date: 'YYYY-MM-DD dates',
  number: 'numbers',
  bool: 'true or false',
  list: 'text values',
  record: 'text',
};

/** A contact point (work email, phones) takes presence and exact-set membership only (catalog contact-points.ts). */
const CONTACT_POINT_OPS: readonly WhereOp[] = ['eq', 'in', 'exists'];

export function opsOf(col: ColumnDef): readonly WhereOp[] {
  return isContactPoint(col) ? CONTACT_POINT_OPS : OPS_BY_KIND[col.kind];
}

/** What a column takes, for 422 messages and hints: "role_since takes eq, neq, ... with YYYY-MM-DD dates". */
export function takes(col: ColumnDef): string {
  const values = col.type === 'month' ? 'YYYY-MM months' : VALUES_BY_KIND[col.kind];
  return `${col.name} takes ${opsOf(col).join(', ')} with ${values}`;
}

export const FOLDING_OPS: ReadonlySet<WhereOp> = new Set(['eq', 'neq', 'in', 'not_in']);
