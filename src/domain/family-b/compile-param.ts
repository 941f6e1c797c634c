import type { FamilyBMatch, FamilyBParamDef } from '../catalog/index.js';
import { normalizeDomain } from '../normalize/index.js';
import { malformed, rejected } from '../query/filter-errors.js';
import { type IRNode, type Leaf, not, or } from '../query/ir.js';
import { hasEdgeWildcard, quote, unique } from '../query/shape.js';
import { type NormalizeContext, normalizeValue } from './normalize-values.js';
import {
  readBoolean,
  readDate,
  readNumber,
  readString,
  readStringList,
  splitCommas,
  substringText,
} from './raw-values.js';

export interface CompileContext extends NormalizeContext {
  /** Domains of a saved domain list, or undefined when the id is unknown. */
  domainLists?: (id: string) => readonly string[] | undefined;
}

/** Compiles one parameter into IR; undefined when it constrains nothing (empty list, blank string, require false). */
type ParamCompiler = (def: FamilyBParamDef, raw: unknown, field: string, ctx: CompileContext) => IRNode | undefined;

/** Matches nothing: the IR of an empty OR. */
const NOTHING: IRNode = { or: [] };

const leaf = (def: FamilyBParamDef, op: Leaf['op'], value?: Leaf['value']): Leaf =>
  value === undefined ? { field: def.column, op } : { field: def.column, op, value };

const COMPILERS: Readonly<Record<Exclude<FamilyBMatch, 'band_min' | 'band_max'>, ParamCompiler>> = {
  any_of: (def, raw, field, ctx) => {
    const values = exactValues(def, raw, field, ctx);
    return values.length === 0 ? undefined : leaf(def, 'in', values);
  },
  // The NOT of the include form, so a row without a value is kept (family A does the same).
  none_of: (def, raw, field, ctx) => {
    const values = exactValues(def, raw, field, ctx);
    return values.length === 0 ? undefined : not(leaf(def, 'in', values));
  },
  equals: (def, raw, field, ctx) => {
    const text = readString(def, raw, field);
    return text === undefined ? undefined : leaf(def, 'eq', normalizeValue(def, text, field, ctx)[0]!);
  },
  substring: (def, raw, field) => {
    const texts =
      def.type === 'string[]'
        ? readStringList(def, raw, field).map((v) => substringText(v.value, v.at, def.name))
        : optional(readString(def, raw, field), (s) => [substringText(s, field, def.name)]);
    return anyOf(def, 'contains', texts);
  },
  keywords: (def, raw, field) => {
    const text = readString(def, raw, field);
    if (text === undefined) return undefined;
    return anyOf(
      def,
      'contains',
      splitCommas(def, text, field).map((k) => substringText(k, field, def.name)),
    );
  },
  title_words: (def, raw, field) => anyOf(def, 'words', titles(def, raw, field)),
  not_title_words: (def, raw, field) => {
    const node = anyOf(def, 'words', titles(def, raw, field));
    return node === undefined ? undefined : not(node);
  },
  prefix: (def, raw, field) =>
    anyOf(
      def,
      'prefix',
      readStringList(def, raw, field).map((v) => v.value.trim()),
    ),
  min: (def, raw, field) => leaf(def, 'gte', def.value === 'date' ? readDate(raw, field) : readNumber(raw, field)),
  max: (def, raw, field) => leaf(def, 'lte', def.value === 'date' ? readDate(raw, field) : readNumber(raw, field)),
  flag: (def, raw, field) => leaf(def, 'eq', readBoolean(raw, field)),
  require: (def, raw, field) => (readBoolean(raw, field) ? leaf(def, 'eq', true) : undefined),
  saved_list: (def, raw, field, ctx) => {
    const id = readString(def, raw, field);
    if (id === undefined) return undefined;
    const domains = ctx.domainLists?.(id.trim());
    if (domains === undefined)
      throw malformed(
        field,
        `${quote(id)} is not a saved domain list of this account.`,
        'Send the id of one of your saved domain lists, or send the domains in domains.',
      );
    // A saved list holds domains as saved; fold them as domains are folded, and drop what is not a domain.
    const folded = unique(domains.flatMap((d) => optional(normalizeDomain(d), (x) => [x])));
    return folded.length === 0 ? NOTHING : leaf(def, 'in', folded);
  },
};

export function compileParam(
  def: FamilyBParamDef,
  raw: unknown,
  field: string,
  ctx: CompileContext,
): IRNode | undefined {
  if (def.match === 'band_min' || def.match === 'band_max')
    throw new Error(`band parameter ${def.name} is compiled with its pair`);
  return COMPILERS[def.match](def, raw, field, ctx);
}

/** Normalized, de-duplicated values of a list (or comma-separated) parameter with an exact match. */
function exactValues(def: FamilyBParamDef, raw: unknown, field: string, ctx: CompileContext): string[] {
  if (def.type === 'string[]')
    return unique(readStringList(def, raw, field).flatMap((v) => normalizeValue(def, v.value, v.at, ctx)));
  const text = readString(def, raw, field);
  if (text === undefined) return [];
  const pieces = def.value === 'email_domain' ? splitCommas(def, text, field) : [text];
  return unique(pieces.flatMap((piece) => normalizeValue(def, piece, field, ctx)));
}

function anyOf(
  def: FamilyBParamDef,
  op: 'contains' | 'words' | 'prefix',
  values: readonly string[],
): IRNode | undefined {
  const distinct = unique(values);
  return distinct.length === 0 ? undefined : or(...distinct.map((v) => leaf(def, op, v)));
}

/** Title phrases: trimmed, inner whitespace collapsed; a leading or trailing wildcard is refused (whole words only). */
function titles(def: FamilyBParamDef, raw: unknown, field: string): string[] {
  return readStringList(def, raw, field).map(({ value, at }) => {
    const phrase = value.trim().replace(/\s+/g, ' ');
    const edge = hasEdgeWildcard(phrase);
    if (edge.leading || edge.trailing) {
      throw rejected(
        at,
        `${quote(value)} has a ${edge.leading ? 'leading' : 'trailing'} wildcard; ${def.name} matches whole words.`,
        `Drop the wildcard; for a substring of the title use where_sql, e.g. title ILIKE ` +
          `'%${phrase.replace(/^[*%]+|[*%]+$/g, '').replace(/'/g, "''")}%'.`,
      );
    }
    return phrase;
  });
}

function optional<T, R>(v: T | undefined, f: (v: T) => R[]): R[] {
  return v === undefined ? [] : f(v);
}
