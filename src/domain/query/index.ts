export { type ParsedFilter, parseCompanyFilter, parseContactFilter } from './filter.js';
export {
  and,
  type IRNode,
  isLeaf,
  type Leaf,
  type LeafOp,
  leafCount,
  MATCH_ALL,
  not,
  or,
  type QueryIR,
  type Scalar,
} from './ir.js';
export {
  DEFAULT_LIST_MAX,
  EXCLUDE_IDS_MAX,
  WHERE_MAX_DEPTH,
  WHERE_MAX_IN_VALUES,
  WHERE_MAX_LEAVES,
  WHERE_MAX_PREDICATES,
} from './limits.js';
export { WHERE_OPS, type WhereOp } from './where-operators.js';
export { parseWhere } from './where-parser.js';
