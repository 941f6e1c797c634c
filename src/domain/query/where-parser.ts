import { type Entity, findColumn, publicColumns } from '../catalog/index.js';
import { invalidValue, rejected, unknownKey } from './filter-errors.js';
import type { IRNode } from './ir.js';
import { WHERE_MAX_DEPTH, WHERE_MAX_LEAVES, WHERE_MAX_PREDICATES } from './limits.js';
import { hasOwn, isObject, item, type JsonObject, member, quote } from './shape.js';
import { closest } from './suggest.js';
import { isWhereOp, opsOf, takes, WHERE_OPS } from './where-operators.js';
import { leafValue } from './where-values.js';

const GROUPS = ['and', 'or', 'not'] as const;
const LEAF_MEMBERS = new Set(['field', 'op', 'value']);
const NODE_HINT =
  'A node is a group {"and": [ … ]}, {"or": [ … ]}, {"not": { … }} or a leaf {"field": …, "op": …, "value": …}.';

interface Walk {
  entity: Entity;
  leaves: number;
  predicates: number;
}

/**
 * The `where` tree (spec "Where tree") as IR. Limits are counted while descending, so a deep or
 * huge tree is refused after at most WHERE_MAX_PREDICATES + 1 nodes (limits.ts defines them).
 */
export function parseWhere(raw: unknown, path: string, entity: Entity): IRNode {
  return node(raw, path, 0, { entity, leaves: 0, predicates: 0 });
}

/** `groupsAbove`: groups between the root and this node. */
function node(raw: unknown, path: string, groupsAbove: number, walk: Walk): IRNode {
  if (!isObject(raw)) throw invalidValue(path, 'a where node (an object)', raw, NODE_HINT);
  walk.predicates += 1;
  if (walk.predicates > WHERE_MAX_PREDICATES) {
    throw rejected(
      path,
      `where has more than ${WHERE_MAX_PREDICATES} predicates (leaves and groups).`,
      'Move list conditions into one in leaf, or split the query.',
    );
  }
  const groups = GROUPS.filter((g) => hasOwn(raw, g));
  if (groups.length === 0) return leaf(raw, path, walk);
  const keys = Object.keys(raw);
  if (groups.length > 1 || keys.length > 1) {
    throw invalidValue(path, 'exactly one of and, or, not', raw, `${NODE_HINT} Found: ${keys.slice(0, 5).join(', ')}.`);
  }
  const depth = groupsAbove + 1;
  if (depth > WHERE_MAX_DEPTH) {
    throw rejected(
      path,
      `where is nested deeper than ${WHERE_MAX_DEPTH} groups.`,
      'Flatten the tree: an and inside an and, or an or inside an or, can be merged.',
    );
  }
  const g = groups[0]!;
  const at = member(path, g);
  if (g === 'not') return { not: node(raw.not, at, depth, walk) };
  const children = raw[g];
  if (!Array.isArray(children)) throw invalidValue(at, 'an array of nodes', children, NODE_HINT);
  if (children.length === 0)
    throw rejected(at, `An ${g} group needs at least one node.`, 'Add a node to the group or remove it.');
  const nodes = children.map((c: unknown, i) => node(c, item(at, i), depth, walk));
  return g === 'and' ? { and: nodes } : { or: nodes };
}

function leaf(raw: JsonObject, path: string, walk: Walk): IRNode {
  walk.leaves += 1;
  if (walk.leaves > WHERE_MAX_LEAVES) {
    throw rejected(
      path,
      `where has more than ${WHERE_MAX_LEAVES} leaves.`,
      'Merge leaves on one field into a single in leaf, or split the query.',
    );
  }
  const extra = Object.keys(raw).find((k) => !LEAF_MEMBERS.has(k));
  if (extra !== undefined)
    throw invalidValue(member(path, extra), 'absent (a leaf has field, op and value)', raw[extra], NODE_HINT);

  const fieldPath = member(path, 'field');
  if (typeof raw.field !== 'string') throw invalidValue(fieldPath, 'a column name (a string)', raw.field, NODE_HINT);
  const col = findColumn(walk.entity, raw.field);
  if (!col) throw unknownField(raw.field, fieldPath, walk.entity);

  const opPath = member(path, 'op');
  if (typeof raw.op !== 'string')
    throw invalidValue(opPath, `one of ${WHERE_OPS.join(', ')}`, raw.op, `${takes(col)}.`);
  const op = raw.op;
  if (!isWhereOp(op))
    throw rejected(opPath, `${quote(op)} is not an operator.`, `Operators: ${WHERE_OPS.join(', ')}; ${takes(col)}.`);
  if (!opsOf(col).includes(op)) throw rejected(opPath, `${col.name} does not take ${op}.`, `${takes(col)}.`);

  return { field: col.name, op, value: leafValue(col, op, raw.value, member(path, 'value'), walk.entity) };
}

function unknownField(name: string, path: string, entity: Entity) {
  const names = publicColumns(entity).map((c) => c.name);
  const guess = closest(name, names);
  const route = `/v1/${entity === 'contact' ? 'contacts' : 'companies'}/schema`;
  return unknownKey(
    path,
    `${quote(name)} is not a ${entity} column.`,
    `${guess ? `Did you mean ${guess}? ` : ''}GET ${route} lists the column names.`,
  );
}
