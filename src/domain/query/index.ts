export { parseCompanyFilter, parseContactFilter, type ParsedFilter } from './filter.js';
export { parseWhere } from './where-parser.js';
export { WHERE_OPS, type WhereOp } from './where-operators.js';
export {
  DEFAULT_LIST_MAX,
  EXCLUDE_IDS_MAX,
  WHERE_MAX_DEPTH,
  WHERE_MAX_IN_VALUES,
  WHERE_MAX_LEAVES,
  WHERE_MAX_PREDICATES,
} from './limits.js';
export { MATCH_ALL, and, isLeaf, leafCount, not, or, type IRNode, type Leaf, type LeafOp, type QueryIR, type Scalar } from './ir.js';
