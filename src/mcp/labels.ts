import { columnsOf, type Entity } from '../domain/catalog/index.js';

/**
 * MCP answers use display labels (spec "Family B routes": REST JSON keeps raw column names; MCP responses
 * use display labels). The catalog holds each column's label once; these maps are read from it.
 */
const labelOf: Record<Entity, Map<string, string>> = { contact: new Map(), company: new Map() };
const nameOf: Record<Entity, Map<string, string>> = { contact: new Map(), company: new Map() };
for (const entity of ['contact', 'company'] as const) {
  for (const col of columnsOf(entity)) {
    labelOf[entity].set(col.name, col.label);
    nameOf[entity].set(col.label.toLowerCase(), col.name);
  }
}

/** One row with its column keys replaced by their labels; keys the catalog does not know stay as they are. */
export function labelRow(entity: Entity, row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) out[labelOf[entity].get(k) ?? k] = v;
  return out;
}

/** The inverse of labelRow (clients and tests map an MCP row back to REST names). */
export function unlabelRow(entity: Entity, row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) out[nameOf[entity].get(k.toLowerCase()) ?? k] = v;
  return out;
}

/**
 * A column name given by its label (case-insensitive) or by its name; unknown strings pass through for the operation to
 * refuse.
 */
export function columnName(entity: Entity, nameOrLabel: string): string {
  return nameOf[entity].get(nameOrLabel.trim().toLowerCase()) ?? nameOrLabel;
}

/** Rows are recognized by their id: `per_` is a contact, `com_` a company (spec id prefixes). */
export function entityOfRow(value: Record<string, unknown>): Entity | undefined {
  const id = value.id;
  if (typeof id !== 'string') return undefined;
  if (id.startsWith('per_')) return 'contact';
  if (id.startsWith('com_')) return 'company';
  return undefined;
}

/**
 * Labels every contact or company row inside an answer (rows in `data` arrays, rows nested in records such
 * as a lookup result's `company`). Other objects keep their keys; a row's own values are left as stored.
 */
export function labelPayload(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(labelPayload);
  if (!value || typeof value !== 'object') return value;
  const obj = value as Record<string, unknown>;
  const entity = entityOfRow(obj);
  if (entity) return labelRow(entity, obj);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) out[k] = labelPayload(v);
  return out;
}
